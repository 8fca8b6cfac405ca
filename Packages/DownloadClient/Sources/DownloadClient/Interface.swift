import Foundation

/// The download manager: start, pause, resume and cancel downloads, list them, and follow
/// their events. The live configuration is in `DownloadClientLive`.
public struct DownloadClient: Sendable {
  /// Adds a download and starts it when a slot is free. Adding the same URL and destination
  /// again returns the existing download, unless the request `addsAnother`.
  public var start: @Sendable (DownloadRequest) async throws -> Download
  /// Stops a download and keeps its partial data.
  public var pause: @Sendable (DownloadID) async throws -> Void
  /// Continues a paused, failed or interrupted download from the bytes on disk.
  public var resume: @Sendable (DownloadID) async throws -> Void
  /// Stops a download, removes its partial data and forgets it.
  public var cancel: @Sendable (DownloadID) async throws -> Void
  /// Cancels every download.
  public var cancelAll: @Sendable () async throws -> Void
  /// The known downloads, in the order they were added.
  public var list: @Sendable () async throws -> [Download]
  /// A new stream of the events from now on.
  public var events: @Sendable () -> AsyncStream<DownloadEvent>
  /// Adds several downloads, as `start` does each, in their order, the new ones in one change
  /// of the queue (`start(_:)` of a list uses it); nil when the client has none, and they are
  /// added one by one.
  public var startEach: (@Sendable ([DownloadRequest]) async -> [Result<Download, any Error>])?
  /// Pauses several downloads in one change of the queue (`pause(_:)` of a list uses it); nil
  /// when the client has none, and they are paused one by one.
  public var pauseEach: (@Sendable ([DownloadID]) async throws -> Void)?
  /// Resumes several downloads in one change of the queue (`resume(_:)` of a list uses it);
  /// nil when the client has none, and they are resumed one by one.
  public var resumeEach: (@Sendable ([DownloadID]) async throws -> Void)?
  /// One download as `list` gives it, nil when the manager has none, at the cost of one
  /// (`download(id:)` uses it); nil when the client has no such lookup, and `list` is searched.
  public var lookUp: (@Sendable (DownloadID) async throws -> Download?)?
  /// Moves a waiting download (queued or paused) to a position (from 0) among the waiting
  /// ones, in the order they start, and returns the position it got (the last, past the end);
  /// nil when the client cannot.
  public var move: (@Sendable (DownloadID, _ position: Int) async throws -> Int)?
  /// Gives a download that has not begun (queued or paused, no byte on disk) another file, or
  /// a free name beside it as a new download would get; returns the download. Nil when the
  /// client cannot.
  public var rename: (@Sendable (DownloadID, URL) async throws -> Download)?
  /// Changes how the manager runs, at once (`DownloadSetting`). A client that cannot throws
  /// `unrecoverable`, as this default does.
  public var change: @Sendable (DownloadSetting) async throws -> Void = { setting in
    throw DownloadError.unrecoverable(
      "this download manager cannot change \(setting) while it runs")
  }

  public init(
    start: @escaping @Sendable (DownloadRequest) async throws -> Download,
    pause: @escaping @Sendable (DownloadID) async throws -> Void,
    resume: @escaping @Sendable (DownloadID) async throws -> Void,
    cancel: @escaping @Sendable (DownloadID) async throws -> Void,
    cancelAll: @escaping @Sendable () async throws -> Void,
    list: @escaping @Sendable () async throws -> [Download],
    events: @escaping @Sendable () -> AsyncStream<DownloadEvent>
  ) {
    self.start = start
    self.pause = pause
    self.resume = resume
    self.cancel = cancel
    self.cancelAll = cancelAll
    self.list = list
    self.events = events
  }

  /// Adds `requests` as `start` does each, in their order, at once where the client can
  /// (`startEach`): how each went, in the same order.
  public func start(_ requests: [DownloadRequest]) async -> [Result<Download, any Error>] {
    if let startEach { return await startEach(requests) }
    var results: [Result<Download, any Error>] = []
    for request in requests {
      do {
        results.append(.success(try await start(request)))
      } catch {
        results.append(.failure(error))
      }
    }
    return results
  }

  /// Pauses `ids`, those not under way or waiting left as they are, at once where the client
  /// can (`pauseEach`): a thousand cost about what one does.
  public func pause(_ ids: [DownloadID]) async throws {
    if let pauseEach { return try await pauseEach(ids) }
    for id in ids { try await pause(id) }
  }

  /// Resumes `ids`, those under way or done left as they are, at once where the client can
  /// (`resumeEach`).
  public func resume(_ ids: [DownloadID]) async throws {
    if let resumeEach { return try await resumeEach(ids) }
    for id in ids { try await resume(id) }
  }

  /// The download `id` as `list` gives it; nil when the manager has none.
  public func download(id: DownloadID) async throws -> Download? {
    if let lookUp { return try await lookUp(id) }
    return try await list().first { $0.id == id }
  }
}

/// A setting of a running download manager.
public enum DownloadSetting: Sendable, Equatable {
  /// The rate all downloads share, in bytes a second; nil for none. Downloads under way keep
  /// it from their next read on, their transfers going on as they are.
  case maxBytesPerSecond(Int64?)
  /// How many downloads run at once (at least 1): queued ones start when it is raised; those
  /// under way finish when it is lowered.
  case maxConcurrentDownloads(Int)
}
