import Foundation
import HTTPClient
import HTTPClientLive
import Testing

/// The request head `client` sent to the script server's echo, as lines.
private func sentLines(_ url: String, client: HTTPClient = .live()) async throws -> [String] {
  let (_, body) = try await client.data(for: HTTPRequest(url: URL(string: url)!))
  return String(decoding: body, as: UTF8.self).components(separatedBy: "\r\n")
}

private func temporaryFile(_ contents: String) throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("HTTPClientLiveTests-\(UUID().uuidString)")
  try contents.write(to: url, atomically: true, encoding: .utf8)
  return url
}

@Suite(.timeLimit(.minutes(10))) struct CompressionTests {
  private static let text = String(repeating: "a line that compresses well\n", count: 2000)

  @Test func aCompressedAnswerArrivesDecoded() async throws {
    let nginx = try Nginx(
      files: ["text.txt": Data(Self.text.utf8)],
      directives: "gzip on; gzip_types text/plain; gzip_min_length 1;")
    var request = HTTPRequest(url: URL(string: "http://127.0.0.1:\(nginx.httpPort)/text.txt")!)
    request.acceptsCompression = true
    let (head, body) = try await HTTPClient.live().data(for: request)
    #expect(head.headers["Content-Encoding"] == "gzip")
    #expect(String(decoding: body, as: UTF8.self) == Self.text)

    request.acceptsCompression = false
    let (plainHead, plain) = try await HTTPClient.live().data(for: request)
    #expect(plainHead.headers["Content-Encoding"] == nil)
    #expect(plain == Data(Self.text.utf8))
  }

  @Test func aRangeNeverAsksForACoding() async throws {
    let (server, port) = try ServerProcess.script()
    var request = HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/echo")!)
    request.acceptsCompression = true
    let (_, whole) = try await HTTPClient.live().data(for: request)
    #expect(String(decoding: whole, as: UTF8.self).contains("Accept-Encoding: "))
    request.rangeStart = 10
    let (_, ranged) = try await HTTPClient.live().data(for: request)
    #expect(String(decoding: ranged, as: UTF8.self).contains("Accept-Encoding: identity\r\n"))
    withExtendedLifetime(server) {}
  }
}

@Suite(.timeLimit(.minutes(10))) struct CookieTests {
  @Test func cookiesSetAreSentBackAndWrittenToTheJar() async throws {
    let (server, port) = try ServerProcess.script()
    let jar = FileManager.default.temporaryDirectory
      .appendingPathComponent("HTTPClientLiveTests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: jar) }
    let client = HTTPClient.live(
      configuration: HTTPConfiguration(cookies: .init(jar: jar.path)))
    _ = try await sentLines("http://127.0.0.1:\(port)/set-cookie?session=s1", client: client)
    let lines = try await sentLines("http://127.0.0.1:\(port)/echo", client: client)
    #expect(lines.contains("Cookie: session=s1"))
    let written = try String(contentsOf: jar, encoding: .utf8)
    #expect(written.contains("# Netscape HTTP Cookie File"))
    #expect(written.contains("127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\ts1"))
    withExtendedLifetime(server) {}
  }

  /// A jar that became a link is replaced, never written through.
  @Test func theJarIsReplacedNeverWrittenThroughALink() async throws {
    let (server, port) = try ServerProcess.script()
    let victim = try temporaryFile("precious")
    let jar = FileManager.default.temporaryDirectory
      .appendingPathComponent("HTTPClientLiveTests-\(UUID().uuidString)")
    try FileManager.default.createSymbolicLink(at: jar, withDestinationURL: victim)
    defer { try? FileManager.default.removeItem(at: jar) }
    defer { try? FileManager.default.removeItem(at: victim) }
    let client = HTTPClient.live(configuration: HTTPConfiguration(cookies: .init(jar: jar.path)))
    _ = try await sentLines("http://127.0.0.1:\(port)/set-cookie?session=s1", client: client)
    #expect(try String(contentsOf: victim, encoding: .utf8) == "precious")
    let attributes = try FileManager.default.attributesOfItem(atPath: jar.path)
    #expect(attributes[.type] as? FileAttributeType == .typeRegular)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    #expect(try String(contentsOf: jar, encoding: .utf8).contains("\tsession\ts1"))
    withExtendedLifetime(server) {}
  }

  @Test func aCookieFileIsReadAndItsCookiesSentToTheirHostOnly() async throws {
    let (server, port) = try ServerProcess.script()
    let file = try temporaryFile(
      "127.0.0.1\tFALSE\t/\tFALSE\t0\tkept\tyes\nexample.com\tFALSE\t/\tFALSE\t0\tother\tno\n")
    defer { try? FileManager.default.removeItem(at: file) }
    let client = HTTPClient.live(
      configuration: HTTPConfiguration(cookies: .init(file: file.path, header: "given=1")))
    let lines = try await sentLines("http://127.0.0.1:\(port)/echo", client: client)
    let cookie = try #require(lines.first { $0.hasPrefix("Cookie: ") })
    #expect(cookie.contains("kept=yes"))
    #expect(cookie.contains("given=1"))
    #expect(!cookie.contains("other=no"))
    withExtendedLifetime(server) {}
  }

  @Test func withoutCookiesNoneIsKept() async throws {
    let (server, port) = try ServerProcess.script()
    let client = HTTPClient.live()
    _ = try await sentLines("http://127.0.0.1:\(port)/set-cookie?session=s1", client: client)
    let lines = try await sentLines("http://127.0.0.1:\(port)/echo", client: client)
    #expect(!lines.contains { $0.hasPrefix("Cookie:") })
    withExtendedLifetime(server) {}
  }
}

@Suite(.timeLimit(.minutes(10))) struct NetrcTests {
  @Test func aNetrcEntryLogsInToItsHostAndTheURLsUserWins() async throws {
    let (server, port) = try ServerProcess.script()
    let file = try temporaryFile("machine 127.0.0.1 login alice password s3cret\n")
    defer { try? FileManager.default.removeItem(at: file) }
    let client = HTTPClient.live(configuration: HTTPConfiguration(netrc: .file(file.path)))
    let fromFile = try await sentLines("http://127.0.0.1:\(port)/echo", client: client)
    let basic = { (user: String) in "Authorization: Basic " + Data(user.utf8).base64EncodedString()
    }
    #expect(fromFile.contains(basic("alice:s3cret")))
    let fromURL = try await sentLines("http://bob:pw@127.0.0.1:\(port)/echo", client: client)
    #expect(fromURL.contains(basic("bob:pw")))
    let withoutNetrc = try await sentLines("http://127.0.0.1:\(port)/echo")
    #expect(!withoutNetrc.contains { $0.hasPrefix("Authorization") })
    withExtendedLifetime(server) {}
  }
}

@Suite(.timeLimit(.minutes(10))) struct MinimumSpeedTests {
  @Test func aTrickleBelowTheMinimumSpeedFailsAndMayBeRetried() async throws {
    let (server, port) = try ServerProcess.script()
    var request = HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/trickle")!)
    let speed = MinimumSpeed(bytesPerSecond: 1000, seconds: 1)
    request.minimumSpeed = speed
    do {
      _ = try await HTTPClient.live().data(for: request)
      Issue.record("a trickle passed")
    } catch let error as HTTPError {
      #expect(error == .tooSlow(speed))
      #expect(error.isRetryable)
      #expect(error.description == "slower than 1000 bytes/s for 1 s")
    }
    withExtendedLifetime(server) {}
  }
}
