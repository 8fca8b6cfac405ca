import Checksum
import ChecksumTypes
import DownloadClient
import Foundation
import HTTPClient

/// A finished file mended piece by piece when the digests of its pieces are known (a
/// Metalink's): each damaged piece is fetched again alone, from the next mirror when one
/// serves it damaged (that one is dropped), and checked before it is written.
struct PieceMending<C: Clock<Duration>> {
  let run: DownloadRun<C>

  var id: DownloadID { run.id }

  /// What `mend` found and did.
  enum Mending {
    /// No piece digests, or every piece is right.
    case intact
    /// Damaged pieces were fetched again: check the file again.
    case mended
    /// A damaged piece could not be mended.
    case failed(DownloadError)
  }

  /// Checks the pieces of `part` (of `size` bytes) and fetches the damaged ones again, at most
  /// three times in a download's run. A file of a size its pieces do not cover fails: its
  /// pieces cannot be checked.
  func mend(_ part: URL, size: Int64, in engine: isolated DownloadEngine<C>) async -> Mending {
    guard let pieces = run.pieceChecksums, let record = run.record(in: engine) else {
      return .intact
    }
    guard pieces.fits(size: size) else {
      return .failed(
        .unrecoverable(
          "the file has \(size) bytes, which its \(pieces.hashes.count) pieces of "
            + "\(pieces.length) bytes do not cover"))
    }
    let damaged: [(index: Int, actual: String)]
    do {
      damaged = try Self.damagedPieces(of: part, size: size, pieces)
    } catch {
      return .failed(.file("cannot read \(part.path): \(error.localizedDescription)"))
    }
    guard let first = damaged.first else { return .intact }
    let expected = FileChecksum(pieces.algorithm, hex: pieces.hashes[first.index])!
    let mismatch = DownloadError.checksumMismatch(expected: expected, actual: first.actual)
    guard run.mendings < 3 else { return .failed(mismatch) }
    run.mendings += 1
    engine.configuration.log(
      .error,
      "\(id): \(damaged.count) of \(pieces.hashes.count) pieces are damaged "
        + "(\(pieces.algorithm.displayName)); fetching them again")
    let handle: FileHandle
    do {
      handle = try PartFile.open(part, keeping: size)
    } catch {
      return .failed(.file("cannot write \(part.path): \(error)"))
    }
    defer { try? handle.close() }
    let maker = run.requestMaker(for: record, in: engine)
    for piece in damaged {
      let range = pieces.range(of: piece.index, size: size)
      guard
        await fetch(
          range, digest: pieces.hashes[piece.index], pieces.algorithm, into: handle,
          maker: maker, in: engine)
      else { return .failed(mismatch) }
    }
    return .mended
  }

  /// Fetches `range` from the first URL that serves it with `digest`, and writes it in place.
  private func fetch(
    _ range: Range<Int64>, digest: String, _ algorithm: DigestAlgorithm, into handle: FileHandle,
    maker: RequestMaker, in engine: isolated DownloadEngine<C>
  ) async -> Bool {
    let log = engine.configuration.log
    for url in run.mirrors?.all ?? [maker.given.url] {
      let request = maker.request(
        for: Segment(start: range.lowerBound, end: range.upperBound), url: url)
      let why: String
      do {
        let (head, data) = try await engine.http.data(for: request, limit: range.count + 1)
        let served = head.contentRange
        if head.status == 206, served?.start == range.lowerBound, data.count == range.count {
          var hasher = Digest(algorithm)
          hasher.update(data)
          if hasher.finalize() == digest {
            if let failure = PartFile.write(data, to: handle, at: range.lowerBound) {
              log(.error, "\(id): cannot write the part file: \(failure)")
              return false
            }
            return true
          }
          why = "serves the bytes \(range.lowerBound)-\(range.upperBound - 1) damaged"
        } else {
          why =
            "does not serve the bytes \(range.lowerBound)-\(range.upperBound - 1) alone "
            + "(HTTP \(head.status))"
        }
      } catch {
        why = "failed: \(DownloadError.from(error))"
      }
      log(.error, "\(id): \(url.redactingPassword) \(why)")
      _ = run.mirrors?.drop(url)
    }
    return false
  }

  /// The pieces of `part` whose digests are not the expected ones, with what they are.
  private static func damagedPieces(of part: URL, size: Int64, _ pieces: PieceChecksums) throws
    -> [(index: Int, actual: String)]
  {
    let handle = try FileHandle(forReadingFrom: part)
    defer { try? handle.close() }
    var damaged: [(index: Int, actual: String)] = []
    for (index, expected) in pieces.hashes.enumerated() {
      var hasher = Digest(pieces.algorithm)
      var left = pieces.range(of: index, size: size).count
      while left > 0 {
        guard let block = try handle.read(upToCount: min(left, 1 << 20)), !block.isEmpty else {
          throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: part.path])
        }
        hasher.update(block)
        left -= block.count
      }
      let actual = hasher.finalize()
      if actual != expected { damaged.append((index, actual)) }
    }
    return damaged
  }
}
