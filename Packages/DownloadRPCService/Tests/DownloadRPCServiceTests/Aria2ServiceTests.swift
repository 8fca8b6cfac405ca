import DownloadClient
import DownloadRPC
import Foundation
import Synchronization
import Testing

@testable import DownloadRPCService

/// A download manager in memory: what the service asked of it, and events a test sends.
private final class Downloads: Sendable {
  let state = Mutex<
    (downloads: [Download], started: [DownloadRequest], calls: [String], changes: [DownloadSetting])
  >(([], [], [], []))
  let events = AsyncStream<DownloadEvent>.makeStream()

  var started: [DownloadRequest] { state.withLock { $0.started } }
  var calls: [String] { state.withLock { $0.calls } }
  var changes: [DownloadSetting] { state.withLock { $0.changes } }

  func add(
    _ id: String, _ status: DownloadStatus, received: Int64 = 0, bytesPerSecond: Double? = nil
  ) {
    var download = Download(
      id: DownloadID(id), request: DownloadRequest(url: URL(string: "http://h/\(id)")!),
      status: status, destination: URL(fileURLWithPath: "/data/\(id)"), receivedBytes: received,
      expectedBytes: 100)
    download.bytesPerSecond = bytesPerSecond
    state.withLock { $0.downloads.append(download) }
  }

  func set(_ id: String, _ status: DownloadStatus) {
    state.withLock { state in
      for index in state.downloads.indices where state.downloads[index].id.rawValue == id {
        state.downloads[index].status = status
      }
    }
  }

  var client: DownloadClient {
    var client = DownloadClient(
      start: { request in
        self.state.withLock { state in
          state.started.append(request)
          // The same URL and destination goes on with the download there, as the contract says.
          if !request.addsAnother,
            let index = state.downloads.firstIndex(where: {
              $0.request.url == request.url && $0.request.destination == request.destination
            })
          {
            state.downloads[index].request = request
            return state.downloads[index]
          }
          let download = Download(
            id: DownloadID(String(format: "%08x", state.downloads.count + 1)), request: request,
            status: .queued, destination: request.destination)
          state.downloads.append(download)
          return download
        }
      },
      pause: { id in
        self.state.withLock { $0.calls.append("pause \(id)") }
        self.set(id.rawValue, .paused)
      },
      resume: { id in
        self.state.withLock { $0.calls.append("resume \(id)") }
        self.set(id.rawValue, .queued)
      },
      cancel: { id in
        self.state.withLock { state in
          state.calls.append("cancel \(id)")
          state.downloads.removeAll { $0.id == id }
        }
      },
      cancelAll: { throw DownloadError.file("not expected") },
      list: { self.state.withLock { $0.downloads } },
      events: { self.events.stream })
    client.change = { setting in self.state.withLock { $0.changes.append(setting) } }
    client.rename = { id, file in
      self.state.withLock { state in
        state.calls.append("rename \(id) \(file.path)")
        let index = state.downloads.firstIndex { $0.id == id }!
        state.downloads[index].destination = file
        state.downloads[index].request.destination = file
        return state.downloads[index]
      }
    }
    client.move = { id, position in
      self.state.withLock { state in
        let waiting = state.downloads.indices.filter {
          [.queued, .paused].contains(state.downloads[$0].status)
        }
        var line = waiting.map { state.downloads[$0] }
        let from = line.firstIndex { $0.id == id }!
        line.insert(line.remove(at: from), at: position)
        for (index, download) in zip(waiting, line) { state.downloads[index] = download }
        return position
      }
    }
    // One by one, as a client without `startEach` is added to; saying how many came at once.
    client.startEach = { [oneByOne = client] requests in
      self.state.withLock { $0.calls.append("start \(requests.count)") }
      return await oneByOne.start(requests)
    }
    client.pauseEach = { ids in
      self.state.withLock { $0.calls.append("pause \(ids.map(\.rawValue).joined(separator: ","))") }
      for id in ids { self.set(id.rawValue, .paused) }
    }
    return client
  }
}

@Suite struct Aria2ServiceTests {
  private let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("aria2-\(UUID().uuidString)").standardizedFileURL

  private func service(_ downloads: Downloads, secret: String? = nil) -> Aria2Service {
    Aria2Service(
      client: downloads.client,
      settings: Aria2Service.Settings(folder: folder, secret: secret, version: "9.9.9"),
      shutdown: {})
  }

  /// The result (or the error) of `method` with `params`, from `caller`.
  private func call(
    _ service: Aria2Service, _ method: String, _ params: [JSONValue] = [],
    from caller: Aria2Service.Caller = .network
  ) async throws -> Result<JSONValue, RPCError> {
    let request = RPCRequest(id: "t", method: method, params: params)
    let answer = try #require(await service.answer(request.value.json, from: caller))
    return RPCResponse.outcome(of: try JSONValue(json: answer))
  }

  @Test func aBatchOfAddUriAddsItsDownloadsAtOnceEachAnsweredAsAlone() async throws {
    let calls: [(String, [JSONValue])] = [
      ("aria2.addUri", [["http://h/a"]]),
      ("aria2.addUri", [["ftp://h/b"]]),
      ("aria2.addUri", [["http://h/c"], .object(["out": "c.bin"])]),
      ("aria2.addUri", [["http://h/a"]]),
      ("aria2.getVersion", []),
      ("aria2.addUri", [["http://h/d"], .object(["pause": "maybe"])]),
      ("aria2.addUri", [["http://h/e"]]),
    ]
    let alone = Downloads()
    let aloneService = service(alone)
    var each: [Result<JSONValue, RPCError>] = []
    for (method, params) in calls { each.append(try await call(aloneService, method, params)) }

    let batched = Downloads()
    let batch = JSONValue.array(
      calls.enumerated().map { index, call in
        RPCRequest(id: .integer(index), method: call.0, params: call.1).value
      })
    let answer = try #require(await service(batched).answer(batch.json, from: .network))
    let outcomes = try #require(try JSONValue(json: answer).array).map(RPCResponse.outcome)
    #expect(outcomes == each)
    #expect(batched.state.withLock { $0.downloads } == alone.state.withLock { $0.downloads })
    #expect(outcomes[1].failureValue?.message == "not an http or https URI: ftp://h/b")
    // Each addUri adds a download of its own, as aria2c's does.
    #expect(Set(outcomes.compactMap { (try? $0.get())?.string }).count == 4)
    // The four calls before getVersion in one, then the two after it.
    #expect(batched.calls == ["start 3", "start 1"])

    let multicalled = Downloads()
    let multicall = JSONValue.array(
      calls.map { .object(["methodName": .string($0.0), "params": .array($0.1)]) })
    let results = try await call(service(multicalled), "system.multicall", [multicall]).get()
    #expect(
      results.array?.map { $0.array?.first ?? $0 }
        == each.map { outcome in (try? outcome.get()) ?? outcome.failureValue!.value })
    #expect(multicalled.calls == ["start 3", "start 1"])
  }

  @Test func theGlobalSpeedLimitAndHowManyAtOnceChangeAtOnce() async throws {
    let downloads = Downloads()
    let service = service(downloads)
    // webui-aria2's global speed limit sends both limits; AriaNg's settings one at a time.
    _ = try await call(
      service, "aria2.changeGlobalOption",
      [.object(["max-overall-download-limit": "100K", "max-overall-upload-limit": "0"])]
    ).get()
    _ = try await call(
      service, "aria2.changeGlobalOption", [.object(["max-concurrent-downloads": "2"])]
    ).get()
    _ = try await call(
      service, "aria2.changeGlobalOption", [.object(["max-overall-download-limit": "0"])]
    ).get()
    #expect(
      downloads.changes == [
        .maxBytesPerSecond(102_400), .maxConcurrentDownloads(2), .maxBytesPerSecond(nil),
      ])
    let options = try await call(service, "aria2.getGlobalOption").get()
    #expect(options["max-concurrent-downloads"] == "2")
    #expect(options["max-overall-download-limit"] == "0")
    // A wrong value changes nothing, the others of the call neither.
    let wrong = try await call(
      service, "aria2.changeGlobalOption",
      [.object(["max-concurrent-downloads": "0", "max-overall-download-limit": "1M"])])
    #expect(wrong.failureValue?.message == "max-concurrent-downloads: a number from 1, not 0")
    #expect(downloads.changes.count == 3)
  }

  @Test func pauseAddsADownloadPaused() async throws {
    let downloads = Downloads()
    let service = service(downloads)
    _ = try await call(service, "aria2.addUri", [["http://h/a"], .object(["pause": "true"])]).get()
    _ = try await call(service, "aria2.addUri", [["http://h/b"], .object(["pause": "false"])]).get()
    #expect(downloads.started.map(\.startsPaused) == [true, false])
    let wrong = try await call(
      service, "aria2.addUri", [["http://h/c"], .object(["pause": "yes"])])
    #expect(wrong.failureValue?.message == "pause: true or false, not yes")
  }

  @Test func onlyTheOwnersSocketWritesOutsideTheFolder() async throws {
    let downloads = Downloads()
    let service = service(downloads)
    let outside: [JSONValue] = [
      ["http://h/a"], .object(["dir": "/srv/elsewhere", "out": "a.bin"]),
    ]
    let network = try await call(service, "aria2.addUri", outside)
    #expect(network.failureValue?.message.contains("outside the daemon's folder") == true)
    let multicall: [JSONValue] = [
      [.object(["methodName": "aria2.addUri", "params": .array(outside)])]
    ]
    _ = try await call(service, "system.multicall", multicall).get()
    #expect(downloads.started.isEmpty)
    _ = try await call(service, "aria2.addUri", outside, from: .owner).get()
    _ = try await call(service, "system.multicall", multicall, from: .owner).get()
    #expect(
      downloads.started.map(\.destination?.path) == [
        "/srv/elsewhere/a.bin", "/srv/elsewhere/a.bin",
      ])
  }

  @Test func aSecretIsRequiredAndCheckedWhenSet() async throws {
    let service = service(Downloads(), secret: "s3cret")
    #expect(try await call(service, "aria2.getVersion") == .failure(.unauthorized))
    #expect(try await call(service, "aria2.getVersion", ["token:wrong"]) == .failure(.unauthorized))
    #expect(
      try await call(service, "aria2.getVersion", ["token:s3cret0"]) == .failure(.unauthorized))
    let version = try await call(service, "aria2.getVersion", ["token:s3cret"]).get()
    #expect(version["version"] == "9.9.9")
    // system.listMethods takes no token, as aria2c's.
    #expect(
      try await call(service, "system.listMethods").get().array?.contains("aria2.addUri") == true)
  }

  @Test func aMulticallOrBatchRunsNothingUnlessEveryCallGivesTheSecret() async throws {
    let downloads = Downloads()
    let service = service(downloads, secret: "s3cret")
    let add: JSONValue = .object([
      "methodName": "aria2.addUri", "params": ["token:s3cret", ["http://h/a"]],
    ])
    let guess: JSONValue = .object([
      "methodName": "aria2.addUri", "params": ["token:1", ["http://h/b"]],
    ])
    #expect(try await call(service, "system.multicall", [[add, guess]]) == .failure(.unauthorized))
    let batch = JSONValue.array([
      RPCRequest(id: .integer(1), method: "aria2.addUri", params: ["token:s3cret", ["http://h/c"]])
        .value,
      RPCRequest(id: .integer(2), method: "aria2.getVersion", params: ["token:2"]).value,
    ])
    let answer = try JSONValue(json: try #require(await service.answer(batch.json)))
    #expect(answer["error"]?["message"] == "Unauthorized")
    #expect(downloads.started.isEmpty)
    #expect(try await call(service, "system.multicall", [[add]]).get().array?.count == 1)
    #expect(downloads.started.count == 1)
  }

  @Test func wrongGuessesFromTheNetworkAreBoundedAndTheOwnersAreNot() throws {
    let authorization = Authorization(secret: "s3cret")
    let start = ContinuousClock.now
    let wrong = [RPCRequest(id: .integer(1), method: "aria2.getVersion", params: ["token:guess"])]
    let right = [RPCRequest(id: .integer(1), method: "aria2.getVersion", params: ["token:s3cret"])]
    for _ in 0..<10 { #expect(!authorization.allows(wrong, from: .network, at: start)) }
    // Ten wrong guesses in a moment: the right secret is not even looked at for a while.
    #expect(!authorization.allows(right, from: .network, at: start))
    #expect(authorization.allows(right, from: .owner, at: start))
    #expect(authorization.allows(right, from: .network, at: start + .milliseconds(100)))
    // Without a secret every call is taken.
    #expect(Authorization(secret: nil).allows(wrong, from: .network, at: start))
  }

  @Test func theSecretsComparisonDependsOnLengthsOnly() {
    #expect(Authorization.matches("abc", "abc"))
    #expect(!Authorization.matches("abd", "abc"))
    #expect(!Authorization.matches("ab", "abc"))
    #expect(!Authorization.matches("", "abc"))
  }

  @Test func aTokenWithoutASecretIsIgnored() async throws {
    let result = try await call(service(Downloads()), "aria2.getGlobalStat", ["token:x"]).get()
    #expect(result["numActive"] == "0")
  }

  @Test func addURITakesAria2sOptions() async throws {
    let downloads = Downloads()
    let digest = String(repeating: "ab", count: 32)
    let gid = try await call(
      service(downloads), "aria2.addUri",
      [
        ["http://h/a.iso", "http://mirror/a.iso"],
        .object([
          "dir": "isos", "out": "x.iso", "checksum": .string("sha-256=\(digest)"),
          "max-download-limit": "2M", "header": ["X-A: 1", "X-B:2"], "split": "4",
          "some-aria2-option": "ignored",
        ]),
      ]
    ).get()
    #expect(gid == "0000000000000001")
    let request = try #require(downloads.started.first)
    #expect(request.url.absoluteString == "http://h/a.iso")
    #expect(request.mirrors.map(\.absoluteString) == ["http://mirror/a.iso"])
    #expect(request.destination?.path == folder.appendingPathComponent("isos/x.iso").path)
    #expect(request.expectedChecksum?.hex == digest)
    #expect(request.limits?.bytesPerSecond == Int64(2 << 20))
    #expect(request.headers == ["X-A": "1", "X-B": "2"])
  }

  @Test func aHeaderWithALineBreakIsRefusedWhenAdded() async throws {
    let downloads = Downloads()
    for header in ["X-A: 1\r\nX-B: 2", "X-A: 1\nHost: evil", "X-A: \u{0}"] {
      let added = try await call(
        service(downloads), "aria2.addUri",
        [["http://h/a"], .object(["header": [.string(header)]])])
      #expect(added == .failure(.failure("header: a header is one line, without CR, LF or NUL")))
    }
    #expect(downloads.started.isEmpty)
  }

  @Test func addMetalinkAddsEachFileWithItsMirrorsAndHash() async throws {
    let downloads = Downloads()
    let digest = String(repeating: "cd", count: 32)
    let metalink = """
      <?xml version="1.0" encoding="UTF-8"?>
      <metalink xmlns="urn:ietf:params:xml:ns:metalink">
        <file name="isos/a.iso"><size>10</size><hash type="sha-256">\(digest)</hash>
          <url priority="1">http://h/a.iso</url><url priority="2">http://m/a.iso</url></file>
        <file name="b.txt"><url>http://h/b.txt</url></file>
      </metalink>
      """
    let gids = try await call(
      service(downloads), "aria2.addMetalink",
      [.string(Data(metalink.utf8).base64EncodedString()), .object(["dir": "ml"])]
    ).get()
    #expect(gids == ["0000000000000001", "0000000000000002"])
    let first = try #require(downloads.started.first)
    #expect(first.destination?.path == folder.appendingPathComponent("ml/isos/a.iso").path)
    #expect(first.mirrors.map(\.absoluteString) == ["http://m/a.iso"])
    #expect(first.expectedChecksum?.hex == digest)
    #expect(first.expectedSize == 10)
    let refused = try await call(service(downloads), "aria2.addMetalink", ["not base64!"])
    #expect(refused.failureValue?.code == -32602)
  }

  @Test(
    arguments: [
      ["dir": "/etc"], ["dir": "../up"], ["out": "../x"], ["out": "/etc/passwd"],
      ["checksum": "md5=xyz"], ["max-download-limit": "fast"], ["split": "0"],
    ] as [[String: JSONValue]])
  func badOrEscapingOptionsAreRefused(options: [String: JSONValue]) async throws {
    let downloads = Downloads()
    let result = try await call(
      service(downloads), "aria2.addUri", [["http://h/a"], .object(options)])
    guard case .failure(let error) = result else {
      Issue.record("taken: \(options)")
      return
    }
    #expect(error.code == 1)
    #expect(downloads.started.isEmpty)
  }

  @Test func aLinkInsideTheFolderToOutsideIsRefused() async throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createSymbolicLink(
      at: folder.appendingPathComponent("out"), withDestinationURL: URL(fileURLWithPath: "/tmp"))
    let result = try await call(
      service(Downloads()), "aria2.addUri", [["http://h/a"], .object(["dir": "out/sub"])])
    #expect((try? result.get()) == nil)
  }

  @Test func onlyHTTPURIsAreTaken() async throws {
    let result = try await call(service(Downloads()), "aria2.addUri", [["ftp://h/a"]])
    #expect(try #require(result.failureValue).message.contains("ftp://h/a"))
  }

  @Test func theListsSplitByStateWithOffsetsAndKeys() async throws {
    let downloads = Downloads()
    for (id, status) in [
      ("00000001", DownloadStatus.running), ("00000002", .queued), ("00000003", .paused),
      ("00000004", .completed), ("00000005", .failed(reason: "x")), ("00000006", .queued),
    ] {
      downloads.add(id, status)
    }
    let service = service(downloads)
    func gids(_ value: JSONValue) -> [String] {
      value.array?.compactMap { $0["gid"]?.string } ?? []
    }
    let active = try await call(service, "aria2.tellActive", [["gid"]]).get()
    #expect(gids(active) == ["0000000000000001"])
    #expect(active.array?.first == .object(["gid": "0000000000000001"]))
    let waiting = try await call(service, "aria2.tellWaiting", [.integer(0), .integer(10)]).get()
    #expect(gids(waiting) == ["0000000000000002", "0000000000000003", "0000000000000006"])
    let fromEnd = try await call(service, "aria2.tellWaiting", [.integer(-1), .integer(2)]).get()
    #expect(gids(fromEnd) == ["0000000000000006", "0000000000000003"])
    let stopped = try await call(service, "aria2.tellStopped", [.integer(1), .integer(5)]).get()
    #expect(gids(stopped) == ["0000000000000005"])
    let stat = try await call(service, "aria2.getGlobalStat").get()
    #expect(stat["numActive"] == "1")
    #expect(stat["numWaiting"] == "3")
    #expect(stat["numStopped"] == "2")
  }

  @Test func pauseUnpauseAndRemoveAsAria2Does() async throws {
    let downloads = Downloads()
    downloads.add("00000001", .running)
    downloads.add("00000002", .completed)
    let service = service(downloads)
    let gid: JSONValue = "0000000000000001"
    #expect(try await call(service, "aria2.unpause", [gid]).failureValue != nil)
    #expect(try await call(service, "aria2.pause", [gid]).get() == gid)
    #expect(try await call(service, "aria2.pause", [gid]).failureValue != nil)
    #expect(try await call(service, "aria2.unpause", [gid]).get() == gid)
    downloads.set("00000001", .running)
    #expect(try await call(service, "aria2.forceRemove", [gid]).get() == gid)
    #expect(downloads.calls == ["pause 00000001", "resume 00000001", "cancel 00000001"])
    // Removed, it is a stopped result until that is removed, with aria2's code for it.
    let removed = try await call(
      service, "aria2.tellStatus", [gid, ["status", "errorCode", "connections"]]
    ).get()
    #expect(removed == .object(["status": "removed", "errorCode": "31", "connections": "0"]))
    #expect(try await call(service, "aria2.remove", ["0000000000000002"]).failureValue != nil)
    #expect(try await call(service, "aria2.removeDownloadResult", [gid]).get() == "OK")
    #expect(try await call(service, "aria2.tellStatus", [gid]).failureValue != nil)
    #expect(try await call(service, "aria2.purgeDownloadResult").get() == "OK")
    #expect(downloads.calls.last == "cancel 00000002")
    #expect(try await call(service, "aria2.tellStatus", ["0000000000000009"]).failureValue != nil)
    // The results are gone, not the count of what stopped.
    let stat = try await call(service, "aria2.getGlobalStat").get()
    #expect(stat["numStopped"] == "0")
    #expect(stat["numStoppedTotal"] == "2")
    // One that waits is gone at once, without a result, as in aria2c.
    downloads.add("00000003", .paused)
    #expect(
      try await call(service, "aria2.remove", ["0000000000000003"]).get() == "0000000000000003")
    #expect(try await call(service, "aria2.tellStatus", ["0000000000000003"]).failureValue != nil)
    #expect(try await call(service, "aria2.getGlobalStat").get()["numStoppedTotal"] == "2")
  }

  @Test func aResultRemovedIsNotADownloadStopped() async throws {
    let downloads = Downloads()
    downloads.add("00000002", .completed)
    let service = service(downloads)
    let notifications = service.notificationStream()
    await service.start()
    #expect(try await call(service, "aria2.purgeDownloadResult").get() == "OK")
    // The manager's events of the purge, then one of another download.
    downloads.events.continuation.yield(.removed(DownloadID("00000002")))
    downloads.events.continuation.yield(.statusChanged(DownloadID("00000003"), .running))
    for await message in notifications {
      let value = try JSONValue(json: message)
      #expect(value["method"] == "aria2.onDownloadStart")
      break
    }
    await service.stop()
  }

  @Test func theURIsOfADownloadThatRanWereUsed() async throws {
    let downloads = Downloads()
    downloads.add("00000001", .completed, received: 100)
    downloads.add("00000002", .queued)
    downloads.add("00000003", .paused, received: 10)
    let service = service(downloads)
    for (gid, used) in [
      ("0000000000000001", "used"), ("0000000000000002", "waiting"), ("0000000000000003", "used"),
    ] {
      let uris = try await call(service, "aria2.getUris", [.string(gid)]).get()
      #expect(uris.array?.first?["status"] == .string(used), "\(gid)")
    }
  }

  @Test func pauseAllPausesTheActiveInOneCall() async throws {
    let downloads = Downloads()
    downloads.add("00000001", .running)
    downloads.add("00000002", .queued)
    downloads.add("00000003", .completed)
    downloads.add("00000004", .paused)
    #expect(try await call(service(downloads), "aria2.pauseAll").get() == "OK")
    #expect(downloads.calls == ["pause 00000001,00000002"])
  }

  @Test func multicallAnswersEachCall() async throws {
    let downloads = Downloads()
    downloads.add("00000001", .running)
    let result = try await call(
      service(downloads), "system.multicall",
      [
        [
          .object(["methodName": "aria2.tellStatus", "params": ["0000000000000001", ["status"]]]),
          .object(["methodName": "aria2.nothing", "params": []]),
          .object(["methodName": "aria2.getGlobalStat"]),
        ]
      ]
    ).get()
    let answers = try #require(result.array)
    #expect(answers[0] == [.object(["status": "active"])])
    #expect(answers[1] == RPCError.methodNotFound("aria2.nothing").value)
    #expect(answers[1]["message"] == "No such method: aria2.nothing")
    #expect(answers[2].array?.first?["numActive"] == "1")
  }

  @Test func globalOptionsButDirAreTheDaemonsToSet() async throws {
    let downloads = Downloads()
    let service = service(downloads)
    // Without a dir of its own, a download is the daemon's folder's: the engine's default.
    _ = try await call(service, "aria2.addUri", [["http://h/first"]]).get()
    #expect(downloads.started.last?.folder == nil)
    let refused = try await call(service, "aria2.changeGlobalOption", [.object(["split": "9"])])
    #expect(refused.failureValue?.message.contains("--split") == true)
    #expect(
      try await call(service, "aria2.changeGlobalOption", [.object(["dir": "later"])]).get()
        == "OK")
    let options = try await call(service, "aria2.getGlobalOption").get()
    #expect(options["dir"] == .string(folder.appendingPathComponent("later").path))
    #expect(options["root"] == nil)
    _ = try await call(service, "aria2.addUri", [["http://h/later"]]).get()
    #expect(downloads.started.last?.folder?.path == folder.appendingPathComponent("later").path)
    let escape = try await call(service, "aria2.changeGlobalOption", [.object(["dir": "/"])])
    #expect(escape.failureValue != nil)
    // A relative dir is the first folder's, not the last one set.
    _ = try await call(service, "aria2.changeGlobalOption", [.object(["dir": "again"])]).get()
    let again = try await call(service, "aria2.getGlobalOption").get()
    #expect(again["dir"] == .string(folder.appendingPathComponent("again").path))
  }

  @Test func aDownloadsOptionsAreTheDaemonsForDownloadsAndItsOwn() async throws {
    let downloads = Downloads()
    var settings = Aria2Service.Settings(folder: folder, version: "9.9.9")
    settings.globalOptions = ["max-concurrent-downloads": "5"]
    settings.downloadOptions = ["split": "4", "max-download-limit": "0", "timeout": "60"]
    let service = Aria2Service(client: downloads.client, settings: settings, shutdown: {})
    let gid = try await call(
      service, "aria2.addUri", [["http://h/a.bin"], .object(["max-download-limit": "1K"])]
    ).get()
    let options = try await call(service, "aria2.getOption", [gid]).get()
    #expect(options["split"] == "4")
    #expect(options["timeout"] == "60")
    #expect(options["max-download-limit"] == "1024")
    #expect(options["dir"] == .string(folder.path))
    // The daemon's own are not a download's, as in aria2c.
    #expect(options["max-concurrent-downloads"] == nil)
    let global = try await call(service, "aria2.getGlobalOption").get()
    #expect(global["max-concurrent-downloads"] == "5")
    #expect(global["split"] == "4")
    #expect(global["max-download-limit"] == "0")
  }

  @Test func everyAddUriAddsADownloadUnlessItJoins() async throws {
    let downloads = Downloads()
    let service = service(downloads)
    _ = try await call(service, "aria2.addUri", [["http://h/a.bin"]]).get()
    _ = try await call(
      service, "aria2.addUri", [["http://h/a.bin"], .object(["fetcher.join": "true"])]
    ).get()
    #expect(downloads.started.map(\.addsAnother) == [true, false])
    let wrong = try await call(
      service, "aria2.addUri", [["http://h/a.bin"], .object(["fetcher.join": "yes"])])
    #expect(wrong.failureValue?.message == "fetcher.join: true or false, not yes")
  }

  /// As webui-aria2's "move up" and "move down" (`[gid, ±1, "POS_CUR"]`) and AriaNg's drag
  /// (`[gid, index, "POS_SET"]`) send it.
  @Test func aWaitingDownloadMovesAsFrontEndsAsk() async throws {
    let downloads = Downloads()
    downloads.add("0000000a", .running)
    for id in ["00000001", "00000002", "00000003"] { downloads.add(id, .queued) }
    downloads.set("00000002", .paused)
    let service = service(downloads)
    func waiting() async throws -> [String] {
      try await call(service, "aria2.tellWaiting", [.integer(0), .integer(100), ["gid"]]).get()
        .array?
        .compactMap { $0["gid"]?.string?.suffix(1).description } ?? []
    }
    let first = "0000000000000001"
    #expect(
      try await call(service, "aria2.changePosition", [.string(first), .integer(1), "POS_CUR"])
        .get() == .integer(1))
    #expect(try await waiting() == ["2", "1", "3"])
    #expect(
      try await call(service, "aria2.changePosition", ["0000000000000003", .integer(0), "POS_SET"])
        .get()
        == .integer(0))
    #expect(try await waiting() == ["3", "2", "1"])
    // Past either end is the end; POS_END counts from the last.
    #expect(
      try await call(service, "aria2.changePosition", [.string(first), .integer(-9), "POS_CUR"])
        .get() == .integer(0))
    #expect(
      try await call(service, "aria2.changePosition", [.string(first), .integer(0), "POS_END"])
        .get() == .integer(2))
    #expect(try await waiting() == ["3", "2", "1"])
    let active = try await call(
      service, "aria2.changePosition", ["000000000000000a", .integer(0), "POS_SET"])
    #expect(active.failureValue?.message == "GID#000000000000000a not found in the waiting queue")
    let how = try await call(
      service, "aria2.changePosition", [.string(first), .integer(0), "POS_TOP"])
    #expect(how.failureValue?.message.contains("POS_SET, POS_CUR or POS_END") == true)
  }

  /// As AriaNg's task settings send them, one call for several.
  @Test func aDownloadsOptionsChangeAsAria2cChangesThem() async throws {
    let downloads = Downloads()
    downloads.add("00000001", .paused)
    downloads.add("00000002", .completed)
    let service = service(downloads)
    let gid: JSONValue = "0000000000000001"
    let changed = try await call(
      service, "aria2.changeOption",
      [gid, .object(["dir": "sub", "out": "new.bin", "split": "4", "max-download-limit": "2K"])])
    #expect(try changed.get() == "OK")
    #expect(downloads.calls == ["rename 00000001 \(folder.path)/sub/new.bin"])
    let limits = try #require(downloads.started.last?.limits)
    #expect(limits.connections == 4)
    #expect(limits.bytesPerSecond == 2048)
    #expect(downloads.started.last?.startsPaused == true)
    // max-connection-per-server is the same number, the lower of the two holding.
    _ = try await call(
      service, "aria2.changeOption",
      [gid, .object(["split": "8", "max-connection-per-server": "2"])]
    ).get()
    #expect(downloads.started.last?.limits?.connections == 2)
    #expect(downloads.started.last?.limits?.bytesPerSecond == 2048)
    let outside = try await call(service, "aria2.changeOption", [gid, .object(["out": "../x"])])
    #expect(outside.failureValue?.message == "out: a file name inside dir, not ../x")
    let other = try await call(service, "aria2.changeOption", [gid, .object(["seed-time": "1"])])
    #expect(other.failureValue?.message.hasPrefix("seed-time cannot be changed") == true)
    let over = try await call(
      service, "aria2.changeOption", ["0000000000000002", .object(["split": "2"])])
    #expect(over.failureValue?.message.contains("is over") == true)
    #expect(downloads.calls.count == 1)
  }

  @Test func speedsAreTheManagersOwn() async throws {
    let downloads = Downloads()
    downloads.add("0000000a", .running, received: 10, bytesPerSecond: 1234.4)
    downloads.add("0000000b", .running, received: 10, bytesPerSecond: 100)
    downloads.add("0000000c", .paused, received: 10)
    let service = service(downloads)
    let status = try await call(service, "aria2.tellStatus", ["000000000000000a"]).get()
    #expect(status["downloadSpeed"] == "1234")
    let paused = try await call(service, "aria2.tellStatus", ["000000000000000c"]).get()
    #expect(paused["downloadSpeed"] == "0")
    let stat = try await call(service, "aria2.getGlobalStat").get()
    #expect(stat["downloadSpeed"] == "1334")
  }

  @Test func eventsBecomeNotificationsEachSaidOnce() async throws {
    let downloads = Downloads()
    let service = service(downloads)
    let notifications = service.notificationStream()
    await service.start()
    let id = DownloadID("0000000a")
    for event: DownloadEvent in [
      .statusChanged(id, .running), .statusChanged(id, .running),
      .progress(
        id,
        DownloadProgress(
          receivedBytes: 1, expectedBytes: 2, bytesPerSecond: 1, estimatedTimeRemaining: nil)),
      .statusChanged(id, .paused), .statusChanged(id, .running),
      .finished(id, file: URL(fileURLWithPath: "/x"), bytes: 2),
      .failed(DownloadID("0000000b"), .httpStatus(404)), .removed(DownloadID("0000000c")),
    ] {
      downloads.events.continuation.yield(event)
    }
    var said: [String] = []
    for await message in notifications {
      let value = try JSONValue(json: message)
      #expect(value["id"] == nil)
      said.append(
        "\(value["method"]?.string ?? "") \(value["params"]?.array?.first?["gid"]?.string ?? "")")
      if said.count == 6 { break }
    }
    #expect(
      said == [
        "aria2.onDownloadStart 000000000000000a", "aria2.onDownloadPause 000000000000000a",
        "aria2.onDownloadStart 000000000000000a", "aria2.onDownloadComplete 000000000000000a",
        "aria2.onDownloadError 000000000000000b", "aria2.onDownloadStop 000000000000000c",
      ])
    await service.stop()
  }
}

extension Result {
  fileprivate var failureValue: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
