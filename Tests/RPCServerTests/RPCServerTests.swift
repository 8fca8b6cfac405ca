import Daemon
import DownloadClient
import DownloadRPCService
import Foundation
import Testing

/// The daemon's server in this process, attacked as a web page or another local user would
/// (the findings G1-G7 and G14 of the fifth security round), and used as aria2's front ends
/// use it.
@Suite(.timeLimit(.minutes(10))) struct RPCServerTests {
  static let getVersion =
    #"{"jsonrpc":"2.0","id":1,"method":"aria2.getVersion","params":["token:s3cret"]}"#

  /// A service whose secret is `secret` and whose downloads are `client`'s.
  private func service(
    secret: String? = "s3cret",
    client: DownloadClient = DownloadClient(
      start: { _ in throw DownloadError.unrecoverable("none") }, pause: { _ in },
      resume: { _ in }, cancel: { _ in }, cancelAll: {}, list: { [] },
      events: { AsyncStream { _ in } })
  ) -> Aria2Service {
    Aria2Service(
      client: client,
      settings: Aria2Service.Settings(
        folder: FileManager.default.temporaryDirectory, secret: secret, version: "9.9.9"),
      shutdown: {})
  }

  /// A server of `service(secret:client:)`, on a free port.
  private func server(
    secret: String? = "s3cret", access: RPCServer.Access = RPCServer.Access(),
    limits: RPCServer.Limits = RPCServer.Limits(), socket: URL? = nil,
    client: DownloadClient? = nil
  ) -> RPCServer {
    let served = client.map { service(secret: secret, client: $0) } ?? service(secret: secret)
    return RPCServer(service: served, port: 0, socket: socket, access: access, limits: limits)
  }

  /// Runs `body` with a started `server(...)` and the port it listens on.
  private func withServer(
    secret: String? = "s3cret", access: RPCServer.Access = RPCServer.Access(),
    limits: RPCServer.Limits = RPCServer.Limits(), socket: URL? = nil,
    _ body: (UInt16) async throws -> Void
  ) async throws {
    let server = server(secret: secret, access: access, limits: limits, socket: socket)
    let port = try await server.start()
    do {
      try await body(port)
    } catch {
      await server.stop()
      throw error
    }
    await server.stop()
  }

  /// Whether an authorised call is answered now.
  private func answersTheOwner(_ port: UInt16) async throws -> Bool {
    let answer = try await RawClient.post(Self.getVersion, port: port)
    return answer.status == 200
      && (answer.json?["result"] as? [String: Any])?["version"] as? String == "9.9.9"
  }

  @Test func anAuthorisedCallIsAnsweredAndNoOtherIs() async throws {
    try await withServer { port in
      #expect(try await answersTheOwner(port))
      let guess = try await RawClient.post(
        #"{"jsonrpc":"2.0","id":1,"method":"aria2.addUri","params":["token:x",["http://h/a"]]}"#,
        port: port)
      #expect((guess.json?["error"] as? [String: Any])?["message"] as? String == "Unauthorized")
      // Unlike FlyingFox's, its answers let no page of another origin read them.
      #expect(guess.headers["access-control-allow-origin"] == nil)
    }
  }

  @Test func aHostNameOtherThanLocalhostIsRefusedUnlessListeningOnAll() async throws {
    try await withServer { port in
      for host in ["evil.test:\(port)", "evil.test", "localhost.evil.test"] {
        let answer = try await RawClient.post(
          Self.getVersion, port: port, headers: ["Host: \(host)"])
        #expect(answer.status == 403, "\(host)")
      }
      for host in ["localhost:\(port)", "127.0.0.1:\(port)", "[::1]:\(port)", "127.0.0.1"] {
        let answer = try await RawClient.post(
          Self.getVersion, port: port, headers: ["Host: \(host)"])
        #expect(answer.status == 200, "\(host)")
      }
    }
    var everywhere = RPCServer.Access()
    everywhere.listenAll = true
    try await withServer(access: everywhere) { port in
      let answer = try await RawClient.post(
        Self.getVersion, port: port, headers: ["Host: fetcher.lan"])
      #expect(answer.status == 200)
    }
  }

  /// Its page and the two files it loads, under a policy that lets them run no script but
  /// their own and make no markup of strings; none of them writes markup or runs text as code.
  /// Off, none is served.
  @Test func itsPageIsServedUnderAStrictPolicyUnlessOff() async throws {
    try await withServer { port in
      let page = try await RawClient.get("/", port: port)
      #expect(page.status == 200)
      #expect(page.headers["content-type"] == "text/html; charset=utf-8")
      let policy = try #require(page.headers["content-security-policy"])
      for directive in [
        "default-src 'none'", "script-src 'self'", "connect-src 'self'",
        "frame-ancestors 'none'", "require-trusted-types-for 'script'",
      ] {
        #expect(policy.contains(directive), "\(directive)")
      }
      #expect(page.headers["x-content-type-options"] == "nosniff")
      #expect(page.body.contains(#"<script src="/page.js" defer></script>"#))
      #expect(page.body.components(separatedBy: "<script").count == 2)
      #expect(page.body.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil)
      let script = try await RawClient.get("/page.js", port: port)
      #expect(script.headers["content-type"] == "text/javascript; charset=utf-8")
      for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("] {
        #expect(!script.body.contains(sink), "\(sink)")
      }
      #expect(try await RawClient.get("/page.css", port: port).status == 200)
    }
    var off = RPCServer.Access()
    off.webPage = false
    try await withServer(access: off) { (port: UInt16) async throws in
      for path in ["/", "/page.js", "/page.css"] {
        #expect(try await RawClient.get(path, port: port).status == 404, "\(path)")
      }
      #expect(try await answersTheOwner(port))
    }
  }

  @Test func pagesOfAnyOriginReadTheAnswersOnlyWhenAllowed() async throws {
    var open = RPCServer.Access()
    open.allowOriginAll = true
    try await withServer(access: open) { port in
      let answer = try await RawClient.post(
        Self.getVersion, port: port, headers: ["Host: 127.0.0.1", "Origin: http://ariang.example"])
      #expect(answer.status == 200)
      #expect(answer.headers["access-control-allow-origin"] == "*")
    }
  }

  @Test func withoutASecretOnlyItsOwnOriginIsAnswered() async throws {
    var access = RPCServer.Access()
    access.hasSecret = false
    try await withServer(secret: nil, access: access) { port in
      let call = #"{"jsonrpc":"2.0","id":1,"method":"aria2.getVersion"}"#
      let foreign = try await RawClient.post(
        call, port: port, headers: ["Host: 127.0.0.1:\(port)", "Origin: http://evil.test"])
      #expect(foreign.status == 403)
      let own = try await RawClient.post(
        call, port: port,
        headers: ["Host: 127.0.0.1:\(port)", "Origin: http://127.0.0.1:\(port)"])
      #expect(own.status == 200)
      #expect(try await RawClient.post(call, port: port).status == 200)
      let client = try RawClient(port: port)
      let upgrade = await client.upgradeToWebSocket(headers: [
        "Host: 127.0.0.1:\(port)", "Origin: http://evil.test",
      ])
      #expect(upgrade.hasPrefix("HTTP/1.1 4"), "\(upgrade)")
    }
  }

  /// G1: 200,000 levels of nesting, from any page, with no secret, once held every call for
  /// more than a minute.
  @Test func deepJSONIsRefusedBeforeItIsParsed() async throws {
    try await withServer { port in
      let deep = String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)
      let answer = try await RawClient.post(deep, port: port)
      #expect((answer.json?["error"] as? [String: Any])?["code"] as? Int == -32700)
      #expect(try await answersTheOwner(port))
    }
  }

  /// G2: FlyingFox read a header line in quadratic time, and never yielded.
  @Test func longHeaderAndRequestLinesHoldUpNoOne() async throws {
    try await withServer { port in
      // Past NIO's 80 KiB for a header line, and 64 MiB of request line: each is read and
      // dropped as it comes (neither is kept), while others are answered; the long header is
      // answered 431 at once, as aria2c answers it, and closed.
      let header = try RawClient(port: port)
      await header.write("POST /jsonrpc HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: ")
      for _ in 0..<16 { await header.write(String(repeating: "a", count: 1 << 20)) }
      let url = try RawClient(port: port)
      await url.write("GET /jsonrpc?")
      for _ in 0..<64 { await url.write(String(repeating: "b", count: 1 << 20)) }
      #expect(try await answersTheOwner(port))
      #expect(HTTPAnswer(await header.readToEnd()).status == 431)
      // NIO's parser counts the request line with the head's fields.
      #expect(HTTPAnswer(await url.readToEnd()).status == 431)
    }
  }

  /// A connection that sends no request, or trickles its first head, is closed once the time a
  /// head has is up (Hummingbird's idle timeout starts only with the first request).
  @Test func aConnectionWithoutARequestIsClosedInTime() async throws {
    var limits = RPCServer.Limits()
    limits.headTime = .milliseconds(300)
    try await withServer(limits: limits) { port in
      let silent = try RawClient(port: port)
      let trickler = try RawClient(port: port)
      await trickler.write("POST /jsonrpc HTTP/1.1\r\n")
      #expect(await silent.isClosedByServer())
      #expect(await trickler.isClosedByServer())
      #expect(try await answersTheOwner(port))
    }
  }

  /// G4: 64 trickling bodies took every place FlyingFox's gate had.
  @Test func slowBodiesHoldNoPlaceOfOthersAndRunOutOfTime() async throws {
    var limits = RPCServer.Limits()
    limits.bodyTime = .milliseconds(300)
    try await withServer(limits: limits) { port in
      let slow = try (0..<80).map { _ in try RawClient(port: port) }
      for client in slow {
        await client.write(
          "POST /jsonrpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2000000\r\n\r\n[")
      }
      #expect(try await answersTheOwner(port))
      // Past the time a body has, the server answers 408 and closes.
      #expect(HTTPAnswer(await slow[0].readToEnd()).status == 408)
    }
  }

  /// G7: a 2 MB batch of zeros once got an 84 MB answer.
  @Test func noAnswerIsMuchLongerThanItsRequest() async throws {
    try await withServer { port in
      let zeros = "[" + Array(repeating: "0", count: 1_000_000).joined(separator: ",") + "]"
      let answer = try await RawClient.post(zeros, port: port)
      #expect(answer.status == 200)
      #expect(answer.body.utf8.count < 100)
      // A thousand guesses in one batch: one error, not a thousand.
      let guess = #"{"jsonrpc":"2.0","id":1,"method":"aria2.getVersion","params":["token:x"]}"#
      let batch = "[" + Array(repeating: guess, count: 1000).joined(separator: ",") + "]"
      let refused = try await RawClient.post(batch, port: port)
      #expect(refused.body.utf8.count < 100)
      #expect((refused.json?["error"] as? [String: Any])?["message"] as? String == "Unauthorized")
      let tooLarge = try await RawClient.post(String(repeating: " ", count: 3 << 20), port: port)
      #expect(tooLarge.status == 413)
    }
  }

  @Test func aWebSocketClientIsAnsweredAndOneTooManyIsTurnedAway() async throws {
    var limits = RPCServer.Limits()
    limits.webSockets = 1
    try await withServer(limits: limits) { port in
      let first = try RawClient(port: port)
      #expect(await first.upgradeToWebSocket().hasPrefix("HTTP/1.1 101"))
      await first.writeText(Self.getVersion)
      let answer = try #require(await first.readFrame())
      #expect(answer.opcode == 1)
      #expect(String(decoding: answer.payload, as: UTF8.self).contains("9.9.9"))
      let second = try RawClient(port: port)
      #expect(await second.upgradeToWebSocket().hasPrefix("HTTP/1.1 101"))
      #expect(await second.readFrame()?.opcode == 8)
    }
  }

  /// G5: FlyingFox read a 600 MiB frame whole before its size was checked.
  @Test func aFrameLargerThanTheLimitClosesTheConnectionUnread() async throws {
    try await withServer { port in
      let client = try RawClient(port: port)
      #expect(await client.upgradeToWebSocket().hasPrefix("HTTP/1.1 101"))
      await client.write(RawClient.frameHead(opcode: 1, length: 600 << 20) + Data(count: 65536))
      let close = try #require(await client.readFrame())
      #expect(close.opcode == 8)
      #expect(close.payload.prefix(2) == Data([0x03, 0xF1]))  // 1009: too big
      #expect(try await answersTheOwner(port))
    }
  }

  /// A page of another origin can open a WebSocket (browsers let it), but is told nothing,
  /// not even when downloads start, until it makes a call with the secret.
  @Test func aPageOfAnotherOriginHearsNoNotificationsWithoutTheSecret() async throws {
    let (events, event) = AsyncStream<DownloadEvent>.makeStream()
    let service = service(
      client: DownloadClient(
        start: { _ in throw DownloadError.unrecoverable("none") }, pause: { _ in },
        resume: { _ in }, cancel: { _ in }, cancelAll: {}, list: { [] }, events: { events }))
    await service.start()
    let server = RPCServer(service: service, port: 0, socket: nil, access: RPCServer.Access())
    let port = try await server.start()
    do {
      try await notificationsOnlyAfterTheSecret(port: port, event: event)
    } catch {
      await server.stop()
      throw error
    }
    await server.stop()
    await service.stop()
  }

  private func notificationsOnlyAfterTheSecret(
    port: UInt16, event: AsyncStream<DownloadEvent>.Continuation
  ) async throws {
    let own = try RawClient(port: port)
    #expect(await own.upgradeToWebSocket().hasPrefix("HTTP/1.1 101"))
    let page = try RawClient(port: port)
    let upgraded = await page.upgradeToWebSocket(
      headers: ["Host: 127.0.0.1:\(port)", "Origin: http://evil.test"])
    #expect(upgraded.hasPrefix("HTTP/1.1 101"))
    let id = DownloadID("0123abcd")
    event.yield(.statusChanged(id, .running))
    // Once its own client has heard of the start, so has every subscriber.
    let started = try #require(await own.readFrame())
    #expect(String(decoding: started.payload, as: UTF8.self).contains("onDownloadStart"))
    await page.writeText(
      #"{"jsonrpc":"2.0","id":1,"method":"aria2.tellActive","params":["token:guess"]}"#)
    await page.writeText(Self.getVersion)
    var heard: [String] = []
    while let frame = await page.readFrame(), frame.opcode == 1 {
      heard.append(String(decoding: frame.payload, as: UTF8.self))
      if heard.count == 2 { event.yield(.statusChanged(id, .paused)) }
      if heard.last?.contains("onDownloadPause") == true { break }
    }
    #expect(heard.count == 3, "\(heard)")
    #expect(heard.first?.contains("Unauthorized") == true, "\(heard)")
    #expect(!heard.contains { $0.contains("onDownloadStart") }, "\(heard)")
  }

  /// RFC 6455: a client's data frame must be masked (1002 otherwise) and a text message must be
  /// UTF-8 (1007 otherwise); a client that breaks either is closed and others go on.
  @Test func anUnmaskedFrameOrTextThatIsNoUTF8ClosesTheConnection() async throws {
    try await withServer { port in
      let unmasked = try RawClient(port: port)
      #expect(await unmasked.upgradeToWebSocket().hasPrefix("HTTP/1.1 101"))
      await unmasked.writeText(Self.getVersion, masked: false)
      let protocolError = try #require(await unmasked.readFrame())
      #expect(protocolError.opcode == 8)
      #expect(protocolError.payload.prefix(2) == Data([0x03, 0xEA]))  // 1002
      let latin1 = try RawClient(port: port)
      #expect(await latin1.upgradeToWebSocket().hasPrefix("HTTP/1.1 101"))
      // "\u{E9}" in Latin-1, masked with the key frameHead gives, 1 2 3 4.
      await latin1.write(RawClient.frameHead(opcode: 1, length: 1) + Data([0xE9 ^ 1]))
      let notUTF8 = try #require(await latin1.readFrame())
      #expect(notUTF8.opcode == 8)
      #expect(notUTF8.payload.prefix(2) == Data([0x03, 0xEF]))  // 1007
      #expect(try await answersTheOwner(port))
    }
  }

  /// G9: the owner's socket, which no other user can open, answers the owner. (That its calls
  /// are not counted as guesses is `Authorization`'s, tested with a clock of the test's.)
  @Test func theOwnersSocketIsPrivateAndAnswers() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("RPCServerTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let socket = folder.appendingPathComponent("daemon.sock")
    try await withServer(socket: socket) { _ in
      let mode = try FileManager.default.attributesOfItem(atPath: socket.path)[.posixPermissions]
      #expect(mode as? Int == 0o600)
      let answer = await blocking {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = [
          "-sS", "--unix-socket", socket.path, "--data-binary", Self.getVersion,
          "http://localhost/jsonrpc",
        ]
        let output = Pipe()
        curl.standardOutput = output
        guard (try? curl.run()) != nil else { return Data() }
        defer { curl.waitUntilExit() }
        return output.fileHandleForReading.readDataToEndOfFile()
      }
      #expect(String(decoding: answer, as: UTF8.self).contains("9.9.9"))
    }
    #expect(!FileManager.default.fileExists(atPath: socket.path))
  }

  /// A call being answered when the server stops still gets its answer, as `aria2.shutdown`'s
  /// "OK" must (its stop begins while the answer is on its way).
  @Test func aCallBeingAnsweredWhenItStopsIsAnswered() async throws {
    let (entered, enter) = AsyncStream<Void>.makeStream()
    let (released, release) = AsyncStream<Void>.makeStream()
    let client = DownloadClient(
      start: { _ in throw DownloadError.unrecoverable("none") }, pause: { _ in },
      resume: { _ in }, cancel: { _ in }, cancelAll: {},
      list: {
        enter.yield()
        for await _ in released { break }
        return []
      },
      events: { AsyncStream { _ in } })
    let server = server(client: client)
    let port = try await server.start()
    let answer = Task {
      try await RawClient.post(
        #"{"jsonrpc":"2.0","id":1,"method":"aria2.tellActive","params":["token:s3cret"]}"#,
        port: port)
    }
    for await _ in entered { break }
    let stopped = Task { await server.stop(patience: .seconds(600)) }
    release.yield()
    let answered = try await answer.value
    #expect(answered.status == 200)
    #expect(answered.json?["result"] as? [Any] != nil, "\(answered.body)")
    await stopped.value
    #expect(throws: (any Error).self) { try RawClient(port: port) }
  }
}
