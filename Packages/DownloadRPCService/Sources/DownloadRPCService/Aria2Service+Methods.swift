import DownloadClient
import DownloadFeature
import DownloadRPC
import Foundation
import HTTPClient
import Metalink

extension Aria2Service {
  /// The result of aria2 method `method` called by `caller` (`aria2.addUri`'s are `addURIs`').
  func call(_ method: String, _ params: Parameters, from caller: Caller) async throws -> JSONValue {
    // The owner's own command line may write where the owner may, as `fetcher download` does;
    // a client over the network stays in the daemon's folder unless `anyFolder`.
    let anyFolder = settings.anyFolder || caller == .owner
    switch method {
    case "aria2.addMetalink":
      return .array(try await addMetalink(params, anyFolder: anyFolder).map { .string($0) })
    case "aria2.remove", "aria2.forceRemove": return .string(try await remove(params.id()))
    case "aria2.pause", "aria2.forcePause":
      let id = try params.id()
      let download = try await download(id)
      guard download.status.isActive else {
        throw RPCError.failure("GID \(GID.of(id)) cannot be paused now")
      }
      try await client.pause(id)
      return .string(GID.of(id))
    case "aria2.pauseAll", "aria2.forcePauseAll":
      try await client.pause(try await client.list().filter(\.status.isActive).map(\.id))
      return "OK"
    case "aria2.unpause":
      let id = try params.id()
      guard try await download(id).status == .paused else {
        throw RPCError.failure("GID \(GID.of(id)) cannot be unpaused now")
      }
      try await client.resume(id)
      return .string(GID.of(id))
    case "aria2.unpauseAll":
      try await client.resume(try await client.list().filter { $0.status == .paused }.map(\.id))
      return "OK"
    case "aria2.changePosition":
      return .integer(
        try await changePosition(params.id(), by: params.integer(1, "pos"), from: params[2]))
    case "aria2.tellStatus":
      return try await status(params.id()).value(keys: params.keys(1))
    case "aria2.getUris":
      let files = try await status(params.id()).value(keys: ["files"])["files"]
      return files?.array?.first?["uris"] ?? []
    case "aria2.getFiles":
      return try await status(params.id()).value(keys: ["files"])["files"] ?? []
    case "aria2.tellActive":
      return try await list(keys: params.keys(0)) { $0 == .active }
    case "aria2.tellWaiting":
      return try await list(
        keys: params.keys(2), offset: params.integer(0, "offset"), count: params.integer(1, "num")
      ) { $0 == .waiting || $0 == .paused }
    case "aria2.tellStopped":
      return try await list(
        keys: params.keys(2), offset: params.integer(0, "offset"), count: params.integer(1, "num")
      ) { $0 == .complete || $0 == .error || $0 == .removed }
    case "aria2.getGlobalStat": return try await globalStat()
    case RemoteDownload.listMethod:
      return .array(try await client.list().map(remote))
    case RemoteDownload.listTransferringMethod:
      return .array(
        try await client.list().filter { RemoteDownload.transfers($0.status) }.map(remote))
    case "aria2.getOption": return try await options(of: params.id())
    case "aria2.getGlobalOption":
      var options = settings.downloadOptions.merging(settings.globalOptions) { $1 }
      options["dir"] = settings.folder.path
      return .object(options.mapValues { .string($0) })
    case "aria2.changeOption":
      try await changeOption(params.id(), params[1], anyFolder: anyFolder)
      return "OK"
    case "aria2.changeGlobalOption":
      try await changeGlobalOption(params[0])
      return "OK"
    case "aria2.purgeDownloadResult":
      for download in try await client.list() where download.status.hasEnded {
        try await forgetResult(download.id)
      }
      purged += removed.count
      removed.removeAll()
      return "OK"
    case "aria2.removeDownloadResult":
      try await removeResult(params.id())
      return "OK"
    case "aria2.getVersion":
      return .object([
        "version": .string(settings.version),
        "enabledFeatures": ["HTTPS", "Metalink", "Message Digest", "GZip"],
      ])
    case "aria2.getSessionInfo": return .object(["sessionId": .string(sessionID)])
    // The queue is saved at every change.
    case "aria2.saveSession": return "OK"
    case "aria2.shutdown", "aria2.forceShutdown":
      // After this answer is sent.
      Task { [shutdown] in shutdown() }
      return "OK"
    default: throw RPCError.methodNotFound(method)
    }
  }

  /// The results of `addUri` calls with `calls`' parameters from `caller`, as each would be
  /// alone, their downloads added at once.
  func addURIs(_ calls: [Parameters], from caller: Caller) async -> [Result<JSONValue, RPCError>] {
    let anyFolder = settings.anyFolder || caller == .owner
    var outcomes: [Result<JSONValue, RPCError>?] = []
    var requests: [(index: Int, request: DownloadRequest)] = []
    for params in calls {
      do {
        requests.append((outcomes.count, try uriRequest(params, anyFolder: anyFolder)))
        outcomes.append(nil)
      } catch {
        outcomes.append(.failure(error as? RPCError ?? .failure("\(error)")))
      }
    }
    let started = await client.start(requests.map(\.request))
    for ((index, _), result) in zip(requests, started) {
      outcomes[index] = result.map { .string(GID.of($0.id)) }.mapError { .failure("\($0)") }
    }
    return outcomes.map { $0! }
  }

  /// The download an `addUri` call with `params` asks for.
  private func uriRequest(_ params: Parameters, anyFolder: Bool) throws -> DownloadRequest {
    guard let uris = params[0]?.array?.compactMap(\.string), !uris.isEmpty else {
      throw RPCError.invalidParams("uris: expected a list of URIs")
    }
    for uri in uris where !(URL(string: uri)?.isHTTP ?? false) {
      throw RPCError.failure("not an http or https URI: \(uri)")
    }
    let options = try Aria2Options(
      params[1], root: root, folder: settings.folder, anyFolder: anyFolder)
    return try options.request(uris)
  }

  private func addMetalink(_ params: Parameters, anyFolder: Bool) async throws -> [String] {
    guard let text = params[0]?.string, let data = Data(base64Encoded: text) else {
      throw RPCError.invalidParams("metalink: expected the Metalink's bytes in Base64")
    }
    let options = try Aria2Options(
      params[1], root: root, folder: settings.folder, anyFolder: anyFolder)
    var gids: [String] = []
    for var request in try options.plan.requests(Metalink(data)) {
      if let limits = options.limits { request.limits = limits }
      request.startsPaused = options.paused
      request.addsAnother = !options.joins
      gids.append(GID.of(try await start(request).id))
    }
    return gids
  }

  /// Starts `request`; a download that fails at once is answered with its reason.
  private func start(_ request: DownloadRequest) async throws -> Download {
    do {
      return try await client.start(request)
    } catch let error as DownloadError {
      throw RPCError.failure("\(error)")
    }
  }

  /// Moves waiting download `id` (queued or paused, as `tellWaiting` lists them) to `offset`
  /// from the start (`POS_SET`), from where it is (`POS_CUR`) or from the end (`POS_END`),
  /// kept inside the line, as aria2c does; returns the position it got.
  private func changePosition(_ id: DownloadID, by offset: Int, from how: JSONValue?)
    async throws -> Int
  {
    guard let move = client.move else {
      throw RPCError.failure("this download manager cannot move its downloads")
    }
    let waiting = try await client.list().filter(\.status.isWaiting)
    guard let current = waiting.firstIndex(where: { $0.id == id }) else {
      throw RPCError.failure("GID#\(GID.of(id)) not found in the waiting queue")
    }
    let position: Int
    switch how?.string {
    case "POS_SET": position = offset
    case "POS_CUR": position = current + offset
    case "POS_END": position = waiting.count - 1 + offset
    default: throw RPCError.invalidParams("how: POS_SET, POS_CUR or POS_END")
    }
    return try await move(id, min(max(position, 0), waiting.count - 1))
  }

  /// Removes download `id`, as aria2c does: one under way stops and stays a `removed` result
  /// (errorCode 31) until purged; one waiting or paused is gone at once, without a result or a
  /// notification.
  private func remove(_ id: DownloadID) async throws -> String {
    var status = try await status(id)
    guard status.status != .complete, status.status != .error, status.status != .removed else {
      throw RPCError.failure("Active Download not found for GID#\(GID.of(id))")
    }
    guard status.status == .active else {
      said[id] = Self.stopNotification
      try await client.cancel(id)
      return GID.of(id)
    }
    try await client.cancel(id)
    status.status = .removed
    status.downloadSpeed = 0
    status.connections = 0
    // aria2's code for a download the user removed.
    status.errorCode = 31
    // As many as aria2c keeps (--max-download-result): the oldest go first.
    removed = Array((removed + [status]).suffix(1000))
    return GID.of(id)
  }

  private func removeResult(_ id: DownloadID) async throws {
    if let index = removed.firstIndex(where: { $0.gid == GID.of(id) }) {
      removed.remove(at: index)
      purged += 1
      return
    }
    guard try await download(id).status.hasEnded else {
      throw RPCError.failure("Could not remove download result of GID#\(GID.of(id))")
    }
    try await forgetResult(id)
  }

  /// Removes the result of ended download `id` from the queue, without a notification: aria2
  /// sends none for a result, whose download stopped before.
  private func forgetResult(_ id: DownloadID) async throws {
    said[id] = Self.stopNotification
    try await client.cancel(id)
    purged += 1
  }

  private func globalStat() async throws -> JSONValue {
    let downloads = try await client.list()
    let states = downloads.map { Aria2Status.State($0.status) } + removed.map(\.status)
    func count(_ counted: Set<Aria2Status.State>) -> JSONValue {
      .string(String(states.count { counted.contains($0) }))
    }
    let speed = downloads.reduce(0) { sum, download in
      sum + (download.status.isActive ? Int64((download.bytesPerSecond ?? 0).rounded()) : 0)
    }
    return .object([
      "downloadSpeed": .string(String(speed)), "uploadSpeed": "0", "numActive": count([.active]),
      "numWaiting": count([.waiting, .paused]), "numStopped": count([.complete, .error, .removed]),
      "numStoppedTotal": .string(
        String(states.count { [.complete, .error, .removed].contains($0) } + purged)),
    ])
  }

  private func options(of id: DownloadID) async throws -> JSONValue {
    let download = try await download(id)
    var options = settings.downloadOptions
    let status = status(of: download)
    options["dir"] = status.dir
    if let name = download.destination?.lastPathComponent { options["out"] = name }
    if let limit = download.request.limits?.bytesPerSecond {
      options["max-download-limit"] = String(limit)
    }
    if let connections = download.request.limits?.connections {
      options["split"] = String(connections)
      options["max-connection-per-server"] = String(connections)
    }
    if let checksum = download.request.expectedChecksum { options["checksum"] = "\(checksum)" }
    return .object(options.mapValues { .string($0) })
  }

  /// The options of a download that is not over, as aria2c changes them: `max-download-limit`
  /// at once (a running transfer keeps the new rate from its next read); `split` and
  /// `max-connection-per-server` for a file not begun; `dir` and `out` before its first byte
  /// (inside the daemon's folder unless `anyFolder`). Every value is checked before any is
  /// changed.
  private func changeOption(_ id: DownloadID, _ value: JSONValue?, anyFolder: Bool) async throws {
    var download = try await download(id)
    let given = value?.object ?? [:]
    let changeable: Set = [
      "max-download-limit", "split", "max-connection-per-server", "dir", "out",
    ]
    for key in given.keys.sorted() where !changeable.contains(key) {
      throw RPCError.failure(
        "\(key) cannot be changed on a download; \(changeable.sorted().joined(separator: ", ")) can"
      )
    }
    guard !given.isEmpty else { return }
    guard !download.status.hasEnded else {
      throw RPCError.failure("GID \(GID.of(id)) is over: its options no longer change")
    }
    let current = download.destination ?? settings.folder
    let options = try Aria2Options(
      value, root: root, folder: current.deletingLastPathComponent(), anyFolder: anyFolder)
    if given["dir"] != nil || given["out"] != nil {
      guard let rename = client.rename else {
        throw RPCError.failure("this download manager cannot rename its downloads")
      }
      let file = DownloadPlan.path(options.out ?? current.lastPathComponent, in: options.folder)
      do {
        download = try await rename(id, file)
      } catch let error as DownloadError {
        throw RPCError.failure("\(error)")
      }
    }
    guard given["max-download-limit"] != nil || options.connections != nil else { return }
    var request = download.request
    var limits = request.limits ?? DownloadLimits()
    if given["max-download-limit"] != nil { limits.bytesPerSecond = options.bytesPerSecond }
    if let connections = options.connections { limits.connections = connections }
    request.limits = limits
    // Given again, it takes the limits; a paused one stays paused.
    request.startsPaused = download.status == .paused
    _ = try await start(request)
  }

  /// `dir`, for the downloads added after, and at once `max-overall-download-limit` (0: none)
  /// and `max-concurrent-downloads`; `max-overall-upload-limit`, which front ends send beside
  /// the first, means nothing here. The daemon's other options are set when it starts. Every
  /// value is checked before any is changed.
  private func changeGlobalOption(_ value: JSONValue?) async throws {
    let values = OptionValues(value)
    let changeable: Set = [
      "dir", "max-overall-download-limit", "max-concurrent-downloads", "max-overall-upload-limit",
    ]
    for key in values.options.keys.sorted() where !changeable.contains(key) {
      throw RPCError.failure(
        "\(key) is set when the daemon starts (fetcher daemon --\(key)); "
          + "dir, max-overall-download-limit and max-concurrent-downloads can change")
    }
    var changes: [(key: String, text: String, setting: DownloadSetting)] = []
    if let bytes = try values.bytes("max-overall-download-limit") {
      changes.append(
        (
          key: "max-overall-download-limit", text: String(bytes),
          setting: .maxBytesPerSecond(bytes == 0 ? nil : bytes)
        ))
    }
    if let number = try values.count("max-concurrent-downloads") {
      changes.append(
        (
          key: "max-concurrent-downloads", text: String(number),
          setting: .maxConcurrentDownloads(number)
        ))
    }
    let folder =
      values.options["dir"] == nil
      ? nil : try Aria2Options(value, root: root, anyFolder: settings.anyFolder).folder
    for change in changes {
      try await client.change(change.setting)
      settings.globalOptions[change.key] = change.text
    }
    if let folder { settings.folder = folder }
  }

  /// The statuses of the downloads whose state `includes` takes, from `offset` (from the end,
  /// backwards, when negative, as aria2 reads it), at most `count` of them. Only those given
  /// are described: a list of a thousand costs the ones it gives.
  private func list(
    keys: [String]?, offset: Int = 0, count: Int = .max,
    where includes: (Aria2Status.State) -> Bool
  ) async throws -> JSONValue {
    enum Entry {
      case download(Download)
      case removed(Aria2Status)
    }
    let downloads = try await client.list().filter { includes(Aria2Status.State($0.status)) }
    var entries =
      downloads.map(Entry.download) + removed.filter { includes($0.status) }.map(Entry.removed)
    var start = offset
    if offset < 0 {
      entries.reverse()
      start = -offset - 1
    }
    return .array(
      entries.dropFirst(max(0, start)).prefix(max(0, count)).map { entry in
        switch entry {
        case .download(let download): return status(of: download).value(keys: keys)
        case .removed(let status): return status.value(keys: keys)
        }
      })
  }

  func download(_ id: DownloadID) async throws -> Download {
    guard let download = try await client.download(id: id) else {
      throw RPCError.failure("GID \(GID.of(id)) is not found")
    }
    return download
  }

  private func status(_ id: DownloadID) async throws -> Aria2Status {
    if let status = removed.last(where: { $0.gid == GID.of(id) }) { return status }
    return status(of: try await download(id))
  }

  /// `download` whole, as `fetcher.list` gives it.
  private func remote(_ download: Download) -> JSONValue {
    RemoteDownload(
      download: download, bytesPerSecond: download.bytesPerSecond ?? 0, error: download.failure
    ).value
  }

  func status(of download: Download) -> Aria2Status {
    Aria2Status(
      download, bytesPerSecond: download.bytesPerSecond ?? 0, folder: settings.folder,
      error: download.failure)
  }
}
