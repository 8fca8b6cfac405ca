import DownloadClient
import DownloadRPC
import Foundation
import Metalink

/// aria2's JSON-RPC over a download manager: the methods of `aria2c --enable-rpc` with their
/// result shapes, so that its front ends and libraries (AriaNg, aria2p) drive this one, and
/// its notifications from the manager's events. The transport (HTTP and WebSocket) is the
/// daemon's; this answers JSON text with JSON text.
public actor Aria2Service {
  /// What the daemon was started with.
  public struct Settings: Sendable {
    /// The folder files are written in (`--dir`); a client's `dir` and `out` stay inside it
    /// unless `anyFolder`.
    public var folder: URL
    public var anyFolder = false
    /// The secret a call's first parameter must give as `token:SECRET`; nil for none.
    public var secret: String?
    /// What `getVersion` says.
    public var version: String
    /// The options of the daemon alone, as aria2 names them, that `getGlobalOption` reports
    /// beside `downloadOptions`.
    public var globalOptions: [String: String] = [:]
    /// The options every download has unless its own say otherwise, as aria2 names them: those
    /// `getOption` reports, beside the download's own. Only options that mean something here
    /// are given, with the values that hold; aria2c's BitTorrent and FTP ones are not made up.
    public var downloadOptions: [String: String] = [:]

    public init(folder: URL, secret: String? = nil, version: String) {
      self.folder = folder
      self.secret = secret
      self.version = version
    }
  }

  let client: DownloadClient
  var settings: Settings
  /// The folder the daemon was started with, which `changeGlobalOption`'s `dir` stays in.
  let root: URL
  /// Called by `shutdown` and `forceShutdown`, once answered.
  let shutdown: @Sendable () -> Void
  /// Downloads removed in this process, as `tellStopped` lists them until purged.
  var removed: [Aria2Status] = []
  /// The last state a notification said of each download, so that each is said once.
  var said: [DownloadID: String] = [:]
  /// The results removed in this process, which `numStoppedTotal` still counts, as aria2c's.
  var purged = 0
  /// The secret's check, made off the actor before any call runs.
  let authorization: Authorization
  let notifications = Broadcast()
  let sessionID = String(UInt64.random(in: 0...UInt64.max), radix: 16)
  private var following: Task<Void, Never>?

  public init(
    client: DownloadClient, settings: Settings, shutdown: @escaping @Sendable () -> Void
  ) {
    self.client = client
    self.settings = settings
    authorization = Authorization(secret: settings.secret)
    root = settings.folder
    self.shutdown = shutdown
  }

  /// Follows the manager's events, for the notifications. Call once.
  public func start() {
    let events = client.events()
    following = Task { await self.follow(events) }
  }

  /// Applies `events` until they end or `stop()`, on the actor: one hop a wait, not an event.
  private func follow(_ events: AsyncStream<DownloadEvent>) async {
    for await event in events {
      apply(event)
    }
  }

  /// Stops following the events and ends every notification stream.
  public func stop() {
    following?.cancel()
    notifications.finish()
  }

  /// A new stream of the notifications (JSON-RPC calls without IDs, as JSON text).
  public nonisolated func notificationStream() -> AsyncStream<Data> {
    notifications.subscribe()
  }

  /// Where a body comes from: the owner's socket, which no other user can open, or the
  /// network (a port any local program or web page can reach).
  public enum Caller: Sendable { case owner, network }

  /// The answer to `body`, a JSON-RPC call or a batch, from the network; nil when it needs
  /// none.
  public func answer(_ body: Data) async -> Data? {
    await answer(body, from: .network)
  }

  /// The answer to `body`, a JSON-RPC call or a batch, from `caller`; nil when it needs none.
  /// The text is parsed and every call's secret checked on the caller's task, so that what a
  /// client sends before it gives the secret never holds up the others' calls; each call
  /// then runs on the actor.
  public nonisolated func answer(_ body: Data, from caller: Caller) async -> Data? {
    await checkedAnswer(body, from: caller).answer
  }

  /// `answer(_:from:)`, and whether the body's calls were let through: each gave the secret,
  /// or none is needed. (A WebSocket client proves so before it is sent notifications.)
  public nonisolated func checkedAnswer(
    _ body: Data, from caller: Caller
  ) async -> (answer: Data?, authorized: Bool) {
    var authorized = false
    let answer = await RPCResponse.answer(
      body,
      authorize: { requests in
        authorized = authorization.allows(requests, from: caller)
        return authorized
      },
      handleEach: { requests in await self.outcomes(of: requests, from: caller) })
    return (answer, authorized)
  }

  /// The results of `requests` from `caller`, whose secrets were checked, in order, as
  /// `outcome(of:from:)` gives each; but a run of `aria2.addUri` calls (one, or many: a script
  /// queueing a list sends one a URI) adds its downloads at once (`addURIs`).
  func outcomes(of requests: [RPCRequest], from caller: Caller) async -> [Result<
    JSONValue, RPCError
  >] {
    var outcomes: [Result<JSONValue, RPCError>] = []
    var rest = requests[...]
    while let first = rest.first {
      let adds = rest.prefix { $0.method == "aria2.addUri" }
      if !adds.isEmpty {
        outcomes += await addURIs(adds.map { Self.parameters(of: $0) }, from: caller)
        rest.removeFirst(adds.count)
      } else {
        outcomes.append(await outcome(of: first, from: caller))
        rest.removeFirst()
      }
    }
    return outcomes
  }

  /// The parameters of `request`, without the secret.
  private static func parameters(of request: RPCRequest) -> Parameters {
    var params = request.params
    if params.first?.string?.hasPrefix("token:") == true { params.removeFirst() }
    return Parameters(params)
  }

  /// The result of one call from `caller` whose secret was checked, which it no longer
  /// carries.
  func outcome(of request: RPCRequest, from caller: Caller) async -> Result<JSONValue, RPCError> {
    do {
      if request.method.hasPrefix("system.") {
        return .success(try await system(request.method, request.params, from: caller))
      }
      return .success(try await call(request.method, Self.parameters(of: request), from: caller))
    } catch let error as RPCError {
      return .failure(error)
    } catch {
      return .failure(.failure("\(error)"))
    }
  }

  /// `system.multicall`, `system.listMethods` and `system.listNotifications`.
  private func system(_ method: String, _ params: [JSONValue], from caller: Caller)
    async throws -> JSONValue
  {
    switch method {
    case "system.listMethods": return .array(Self.methods.map { .string($0) })
    case "system.listNotifications": return .array(Self.notificationNames.map { .string($0) })
    case "system.multicall":
      guard let calls = params.first?.array else {
        throw RPCError.invalidParams("system.multicall takes a list of calls")
      }
      // Each run of calls between entries that are none goes as a batch's.
      let requests: [RPCRequest?] = calls.map { call in
        guard let name = call["methodName"]?.string, name != "system.multicall" else { return nil }
        return RPCRequest(id: .null, method: name, params: call["params"]?.array ?? [])
      }
      var results: [JSONValue] = []
      var rest = requests[...]
      while let first = rest.first {
        guard first != nil else {
          results.append(RPCError.invalidRequest.value)
          rest.removeFirst()
          continue
        }
        let run = rest.prefix { $0 != nil }.compactMap { $0 }
        for outcome in await outcomes(of: run, from: caller) {
          switch outcome {
          case .success(let result): results.append(.array([result]))
          case .failure(let error): results.append(error.value)
          }
        }
        rest.removeFirst(run.count)
      }
      return .array(results)
    default: throw RPCError.methodNotFound(method)
    }
  }

  /// The names `system.listMethods` gives.
  static let methods = [
    "aria2.addUri", "aria2.addMetalink", "aria2.remove", "aria2.forceRemove", "aria2.pause",
    "aria2.pauseAll", "aria2.forcePause", "aria2.forcePauseAll", "aria2.unpause",
    "aria2.unpauseAll", "aria2.tellStatus", "aria2.getUris", "aria2.getFiles",
    "aria2.tellActive", "aria2.tellWaiting", "aria2.tellStopped", "aria2.getOption",
    "aria2.changeOption", "aria2.getGlobalOption", "aria2.changeGlobalOption",
    "aria2.changePosition",
    "aria2.getGlobalStat", "aria2.purgeDownloadResult", "aria2.removeDownloadResult",
    "aria2.getVersion", "aria2.getSessionInfo", "aria2.shutdown", "aria2.forceShutdown",
    "aria2.saveSession", "system.multicall", "system.listMethods", "system.listNotifications",
    RemoteDownload.listMethod, RemoteDownload.listTransferringMethod,
  ]

  static let notificationNames = [
    "aria2.onDownloadStart", "aria2.onDownloadPause", "aria2.onDownloadStop",
    "aria2.onDownloadComplete", "aria2.onDownloadError",
  ]
}

/// A call's parameters after its secret, read by position.
struct Parameters {
  let values: [JSONValue]

  init(_ values: [JSONValue]) { self.values = values }

  subscript(index: Int) -> JSONValue? {
    index < values.count && values[index] != .null ? values[index] : nil
  }

  func string(_ index: Int, _ name: String) throws(RPCError) -> String {
    guard let text = self[index]?.string else { throw .invalidParams("\(name): expected a string") }
    return text
  }

  /// The GID at `index` as the download it names.
  func id(_ index: Int = 0) throws(RPCError) -> DownloadID {
    GID.id(try string(index, "gid"))
  }

  func integer(_ index: Int, _ name: String) throws(RPCError) -> Int {
    guard let number = self[index]?.integer else {
      throw .invalidParams("\(name): expected an integer")
    }
    return number
  }

  /// The `keys` parameter at `index`: nil for every key.
  func keys(_ index: Int) -> [String]? {
    self[index]?.array?.compactMap(\.string)
  }
}
