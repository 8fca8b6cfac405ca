import CZlib
import Foundation
import LogAnalysis

/// Why a gzip stream could not be read.
struct GzipError: Error, Equatable, CustomStringConvertible {
  let description: String
}

/// Inflates a gzip (or zlib) stream read in pieces, through the system zlib. Concatenated
/// gzip members, as `cat a.gz b.gz` makes, are read one after another.
final class GzipReader {
  private var stream = z_stream()
  private let read: () throws -> Data?
  private var input = Data()
  private var finished = false
  private var sawInput = false

  /// Reads compressed bytes from `read` until it returns nil or no bytes.
  init(reading read: @escaping () throws -> Data?) throws {
    self.read = read
    // 15 + 32: any window size, and detect gzip or zlib headers.
    guard inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else { throw GzipError(description: "cannot start zlib") }
  }

  deinit { inflateEnd(&stream) }

  /// The next piece of inflated bytes, or nil at the end.
  func next() throws -> Data? {
    guard !finished else { return nil }
    var output = Data(count: 1 << 20)
    var produced = 0
    while produced == 0 {
      if input.isEmpty {
        guard let more = try read(), !more.isEmpty else {
          finished = true
          guard sawInput else { throw GzipError(description: "empty input, not gzip data") }
          if inMember { throw GzipError(description: "the gzip data is truncated") }
          return nil
        }
        input = more
        sawInput = true
      }
      let status = input.withUnsafeMutableBytes { (inBytes: UnsafeMutableRawBufferPointer) in
        output.withUnsafeMutableBytes { (outBytes: UnsafeMutableRawBufferPointer) in
          stream.next_in = inBytes.baseAddress!.assumingMemoryBound(to: Bytef.self)
          stream.avail_in = uInt(inBytes.count)
          stream.next_out = outBytes.baseAddress!.assumingMemoryBound(to: Bytef.self)
          stream.avail_out = uInt(outBytes.count)
          return inflate(&stream, Z_NO_FLUSH)
        }
      }
      produced = output.count - Int(stream.avail_out)
      input = input.suffix(Int(stream.avail_in))
      switch status {
      case Z_OK, Z_BUF_ERROR:
        inMember = true
      case Z_STREAM_END:
        inMember = false
        inflateReset(&stream)
      default:
        let reason = stream.msg.map { String(cString: $0) } ?? "error \(status)"
        throw GzipError(description: "not valid gzip data (\(reason))")
      }
    }
    return output.prefix(produced)
  }

  /// Whether a member has started and not yet ended.
  private var inMember = false
}
