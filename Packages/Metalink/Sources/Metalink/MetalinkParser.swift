import ChecksumTypes
import Foundation
import HTTPClient
import XMLPathParser

/// Why a document is not a Metalink that can be used.
public struct MetalinkError: Error, Equatable, Sendable, CustomStringConvertible {
  public var description: String

  public init(_ description: String) {
    self.description = description
  }
}

extension Metalink {
  /// The elements read, as Metalink 4 and 3 place them.
  private enum Part: Sendable {
    case file, size, hash, pieces, pieceHash, url
  }

  private static let namespaces = [
    "urn:ietf:params:xml:ns:metalink", "http://www.metalinker.org/",
  ]

  /// Reads a Metalink 4 or 3 document with `XMLPathParser`. Hashes of unknown types and
  /// URLs of other schemes than http and https are left out; a file without a name, a size
  /// that is not a number, or piece hashes that are not digests of their type are errors.
  public init(_ data: Data) throws(MetalinkError) {
    let parser: XMLPathParser<Part>
    do {
      parser = try XMLPathParser([
        // Metalink 4 (RFC 5854).
        "metalink.file": .file, "metalink.file.size": .size,
        "metalink.file.hash@type": .hash, "metalink.file.pieces@length,type": .pieces,
        "metalink.file.pieces.hash": .pieceHash, "metalink.file.url": .url,
        // Metalink 3.
        "metalink.files.file": .file, "metalink.files.file.size": .size,
        "metalink.files.file.verification.hash@type": .hash,
        "metalink.files.file.verification.pieces@length,type": .pieces,
        "metalink.files.file.verification.pieces.hash": .pieceHash,
        "metalink.files.file.resources.url": .url,
      ])
    } catch {
      throw MetalinkError("\(error)")
    }
    var reader = Reader()
    let root: XMLRoot
    do {
      root = try parser.parse(data) { match in try reader.read(match) }
    } catch let error as MetalinkError {
      throw error
    } catch {
      throw MetalinkError("not a Metalink: \(error)")
    }
    guard root.name == "metalink", Self.namespaces.contains(root.attributes["xmlns"] ?? "") else {
      throw MetalinkError(
        "not a Metalink: the root element is <\(root.name)> in namespace "
          + "'\(root.attributes["xmlns"] ?? "")', not <metalink> of Metalink 4 or 3")
    }
    guard !reader.files.isEmpty else { throw MetalinkError("the Metalink lists no file") }
    files = reader.files
  }

  /// Gathers the children of the file being read; the file's own match, at its end, closes it.
  private struct Reader {
    var files: [File] = []
    var current = File(name: "")
    var pieceHashes: [String] = []

    mutating func read(_ match: XMLMatch<Part>) throws {
      let text = match.text.trimmingCharacters(in: .whitespacesAndNewlines)
      switch match.id {
      case .size:
        guard let size = Int64(text), size >= 0 else {
          throw MetalinkError("a <size> of '\(text)' is not a number of bytes")
        }
        current.size = size
      case .hash:
        if let algorithm = DigestAlgorithm(name: match.attributes["type"] ?? ""),
          let hash = FileChecksum(algorithm, hex: text)
        {
          current.hashes.append(hash)
        }
      case .pieceHash:
        pieceHashes.append(text)
      case .pieces:
        defer { pieceHashes = [] }
        let type = match.attributes["type"] ?? ""
        guard let algorithm = DigestAlgorithm(name: type) else { return }
        guard let length = Int64(match.attributes["length"] ?? ""),
          let pieces = PieceChecksums(algorithm, length: length, hashes: pieceHashes)
        else {
          throw MetalinkError("the <pieces> are not \(type) digests of pieces of a length")
        }
        current.pieces = pieces
      case .url:
        guard let url = URL(string: text), url.isHTTP else { return }
        current.urls.append(
          Mirror(url: url, priority: priority(match), location: match.attributes["location"]))
      case .file:
        current.name = match.attributes["name"] ?? ""
        guard !current.name.isEmpty else { throw MetalinkError("a <file> has no name") }
        files.append(current)
        current = File(name: "")
      }
    }

    /// Metalink 4's `priority` (1 first), or Metalink 3's `preference` (100 first) as one.
    private func priority(_ match: XMLMatch<Part>) -> Int? {
      if let priority = match.attributes["priority"].flatMap({ Int($0) }) { return priority }
      return match.attributes["preference"].flatMap { Int($0) }.map { 101 - min(100, $0) }
    }
  }
}
