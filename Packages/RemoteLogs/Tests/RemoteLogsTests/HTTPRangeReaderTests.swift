import Foundation
import HTTPClient
import Synchronization
import Testing

@testable import RemoteLogs

/// `analyze URL --byte-range` takes a server's word for its log's size only when it can be one
/// (G10 of the fifth security round: -5 and 2^63-1 trapped).
@Suite struct HTTPRangeReaderTests {
  @Test(arguments: [-5, -1, Int64.max, HTTPRangeReader.largestSize + 1])
  func anImpossibleSizeIsAnError(size: Int64) {
    #expect(throws: (any Error).self) { try HTTPRangeReader.checked(size, of: "http://h/log") }
  }

  @Test(arguments: [0, 1, HTTPRangeReader.largestSize])
  func aPossibleSizeIsTaken(size: Int64) throws {
    #expect(try HTTPRangeReader.checked(size, of: "http://h/log") == Int(size))
  }

  /// A server without ETag or Last-Modified that answers the first read of a log of `size`
  /// bytes, and every later one with bytes of a log of `later` bytes.
  private func server(size: Int, later: Int) -> HTTPClient {
    let reads = Mutex(0)
    return HTTPClient { request, receiver in
      let count = reads.withLock { count in
        defer { count += 1 }
        return count
      }
      let start = Int(request.rangeStart ?? 0)
      let end = Int(request.rangeEnd ?? 0)
      let headers: HTTPHeaders = [
        "Content-Range": "bytes \(start)-\(end)/\(count == 0 ? size : later)"
      ]
      guard await receiver.head(HTTPResponseHead(status: 206, headers: headers, url: request.url))
      else { return }
      _ = receiver.body(Data(repeating: UInt8(ascii: "a"), count: end - start + 1))
    }
  }

  /// A log that grows between two reads is an error even where the server names no version
  /// for If-Range to ask for.
  @Test func aLogWhoseSizeChangesBetweenReadsIsAnError() async throws {
    let reader = try await HTTPRangeReader.open(
      URL(string: "http://h/access.log")!, http: server(size: 1000, later: 1200), headers: [:],
      warn: { _ in })
    #expect(reader.size == 1000)
    await #expect {
      _ = try await HTTPRangeReader.onOwnThread { try reader.read(0..<100) }
    } throws: { error in
      "\(error)".contains("the log changed while it was read (1000 bytes, now 1200)")
    }
  }

  /// Without a version only a change of size can be noticed: that is said once, on opening.
  @Test func aServerThatNamesNoVersionIsWarnedOf() async throws {
    let warnings = Mutex<[String]>([])
    _ = try await HTTPRangeReader.open(
      URL(string: "http://h/access.log")!, http: server(size: 1000, later: 1000), headers: [:],
      warn: { line in warnings.withLock { $0.append(line) } })
    #expect(
      warnings.withLock { $0 } == [
        "http://h/access.log: the server names no version of the log (no ETag or "
          + "Last-Modified): only a change of its size between two reads is noticed"
      ])
  }

  @Test func aLogOfTheSameSizeIsRead() async throws {
    let reader = try await HTTPRangeReader.open(
      URL(string: "http://h/access.log")!, http: server(size: 1000, later: 1000),
      headers: [:], warn: { _ in })
    #expect(try await HTTPRangeReader.onOwnThread { try reader.read(0..<100) }.count == 100)
  }
}
