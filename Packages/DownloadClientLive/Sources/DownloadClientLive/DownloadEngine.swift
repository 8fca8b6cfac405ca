import ChecksumTypes
import DownloadClient
import Foundation
import HTTPClient
import Reachability

/// The scheduler of the downloads: the queue in order, how many run at once, the limits they
/// share and the events. Each download that this process runs or knows more of than its record
/// is a `DownloadRun`, which runs its attempts with their retries and timeouts and changes its
/// record; the decisions are pure functions (`ResponseDecision`, `RetryDecision`), the files
/// `PartFile` and `RunningDigest`.
actor DownloadEngine<C: Clock<Duration>> {
  /// As given, but for the settings changed since (`change`).
  private(set) var configuration: DownloadConfiguration
  let store: DownloadStore
  let http: HTTPClient
  let clock: C
  let reachability: Reachability
  let random: @Sendable () -> Double
  let claims: Claims
  /// The rate every transfer of every download shares (`maxBytesPerSecond`; none when nil),
  /// segments too, changed in place.
  let rateLimit: RateLimit
  let events = EventHub()

  /// The records, read from the store the first time they are needed.
  var queue: DownloadQueue?
  /// The downloads this process runs or knows more of than their records: the scheduler's one
  /// table of them.
  var runs: [DownloadID: DownloadRun<C>] = [:]
  /// How many runs have a task.
  private var running = 0
  /// How many runs hold a claim another process may ask to cancel, and the task that looks
  /// for such requests while there are any.
  var watchedCount = 0
  var watcher: Task<Void, Never>?

  init(
    configuration: DownloadConfiguration, store: DownloadStore, http: HTTPClient, clock: C,
    reachability: Reachability, random: @escaping @Sendable () -> Double, claims: Claims
  ) {
    self.configuration = configuration
    self.store = store
    self.http = http
    self.clock = clock
    self.reachability = reachability
    self.random = random
    self.claims = claims
    rateLimit = RateLimit(bytesPerSecond: configuration.maxBytesPerSecond, within: nil)
  }

  // MARK: Endpoints

  /// Adds `request`, or goes on with the download of the same URL and destination (unless
  /// `startsPaused`, which leaves it as it is; `addsAnother` adds another beside it). The
  /// command line wins over the queue: a done download whose file is gone, or any earlier
  /// download of it with `overwrite`, is replaced by a new one.
  func start(_ request: DownloadRequest) async throws -> Download {
    let folder = request.folder ?? configuration.outputDirectory
    if !request.addsAnother, let existing = try loaded().matching(request, in: folder) {
      let id = existing.download.id
      try checkNotHeldElsewhere(id)
      if configuration.overwrite || existing.download.isDoneButGone {
        configuration.log(.info, "\(id): replaced by a new download")
        try remove(id)
        return try await start(request)
      }
      try run(of: id).take(request, over: existing, in: self)
      // New limits hold at once: a new rate in place, others by starting the transfer
      // again under them, but for the connections, which a file not begun takes.
      let taken = try record(id)
      let limits = taken.download.request.limits ?? DownloadLimits()
      var inPlace = existing.download.request.limits ?? DownloadLimits()
      inPlace.bytesPerSecond = limits.bytesPerSecond
      inPlace.connections = limits.connections
      if limits != inPlace {
        restartIfRunning(id)
      } else {
        runs[id]?.keepRate(of: taken)
      }
      if existing.download.status == .completed && configuration.ifChanged {
        run(of: id).revalidating = true
        try change(id) { $0.segments = nil }
        try setStatus(.queued, of: id)
        schedule()
      } else if !existing.download.status.isActive && existing.download.status != .completed,
        !request.startsPaused
      {
        try await resume(id)
      }
      // With the bytes on disk, from which this run goes on.
      return try record(id).downloadWithBytesOnDisk
    }
    let insertion = try DownloadQueue.insert(
      try newRecord(for: request, in: folder), into: store, joining: !request.addsAnother)
    guard case .added(let added, let replaced) = insertion else {
      // Another process added the same download meanwhile: go on with that one.
      if case .existing(let existing) = insertion { queue?.adopt(existing) }
      return try await start(request)
    }
    take(added, replacing: replaced, for: request)
    schedule()
    return added.download
  }

  /// Adds `requests` as `start` does each, in their order, and says how each went. The new
  /// ones go into the store in one change (ten thousand URLs one by one are ten thousand
  /// changes); a request that is not plainly new (a download of it is there, its file is
  /// another's, it cannot be added) goes the way of `start`.
  func start(_ requests: [DownloadRequest]) async -> [Result<Download, any Error>] {
    var results: [Result<Download, any Error>] = []
    var rest = requests[...]
    while !rest.isEmpty {
      let batch = newRecords(for: rest)
      do {
        let added = try DownloadQueue.insert(batch, into: store)
        for (added, request) in zip(added, rest) {
          take(added.record, replacing: added.replaced, for: request)
          results.append(.success(added.record.download))
        }
        rest.removeFirst(added.count)
      } catch {
        results += batch.map { _ in .failure(error) }
        rest.removeFirst(batch.count)
        continue
      }
      // The store took the batch up to the first request that is not plainly new.
      if let request = rest.popFirst() {
        do {
          results.append(.success(try await start(request)))
        } catch {
          results.append(.failure(error))
        }
      }
    }
    schedule()
    return results
  }

  /// The records of new downloads of the first of `requests`, up to the first one that is
  /// not plainly new: a download of it is in the queue, or it cannot be added.
  private func newRecords(for requests: ArraySlice<DownloadRequest>) -> [(
    record: DownloadRecord, joining: Bool
  )] {
    var records: [(record: DownloadRecord, joining: Bool)] = []
    for request in requests {
      let folder = request.folder ?? configuration.outputDirectory
      guard request.addsAnother || (try? loaded().matching(request, in: folder)) == nil,
        let record = try? newRecord(for: request, in: folder)
      else { break }
      records.append((record, !request.addsAnother))
    }
    return records
  }

  /// The record of a new download of `request`, its file named in `folder`: throws for a URL
  /// that is not HTTP, and where no file may be named (`file`).
  private func newRecord(for request: DownloadRequest, in folder: URL) throws -> DownloadRecord {
    for url in [request.url] + request.mirrors where !url.isHTTP {
      throw DownloadError.unsupportedURL(url.redactingPassword.absoluteString)
    }
    let destination = try file(
      named: request.destination
        ?? folder.appendingPathComponent(FileName.fromURL(request.url), isDirectory: false),
      in: folder, of: nil)
    var kept = request.redacted
    kept.startsPaused = false
    kept.addsAnother = false
    let download = Download(
      id: DownloadID.random(), request: kept, status: request.startsPaused ? .paused : .queued,
      destination: destination)
    return DownloadRecord(download: download, sequence: 0, needsSecrets: request.hasSecrets)
  }

  /// Takes `added`, just stored for `request`, into this process's queue, in place of the
  /// `replaced` done and failed downloads of its file.
  private func take(
    _ added: DownloadRecord, replacing replaced: [DownloadID], for request: DownloadRequest
  ) {
    for id in replaced { queue?.remove(id) }
    queue?.append(added)
    if request.hasSecrets { run(of: added.download.id).secrets = request }
    if let pieces = request.pieceChecksums { run(of: added.download.id).pieceChecksums = pieces }
    events.send(.added(added.download))
  }

  /// The file a download `id` (nil: a new one) named `named` in `folder` writes: that name, or
  /// a free one (`freeName`). Throws when a folder on the way is a link, the name is one of a
  /// part file, the file there is a device, or the name is taken.
  private func file(named: URL, in folder: URL, of id: DownloadID?) throws -> URL {
    if let refusal = PartFile.linkedFolder(of: named, below: folder) {
      throw DownloadError.file(refusal)
    }
    guard !FileName.isPartFileName(named.lastPathComponent) else {
      throw DownloadError.file(
        "\(named.path): a name that ends in .part is kept for the part files of downloads; "
          + "give the download another name")
    }
    guard !PartFile.isSpecial(named) else {
      throw DownloadError.file(
        "\(named.path) is no regular file: a download is written beside its destination, then "
          + "renamed to it, which would replace the device")
    }
    guard let destination = try freeName(for: named, of: id) else {
      throw DownloadError.destinationExists(named.path)
    }
    return destination
  }

  /// Gives download `id`, which has not begun (queued or paused, no byte on disk), the file
  /// `destination`, or a free name beside it (`freeName`); returns it as `list` gives it.
  func rename(_ id: DownloadID, to destination: URL) throws -> Download {
    let record = try loaded().record(id)
    guard record.download.status.isWaiting, runs[id]?.task == nil,
      record.bytesOnDisk == 0,
      record.download.destination.map({ !PartFile.exists(PartFile.url(for: $0)) }) ?? true
    else {
      throw DownloadError.unrecoverable(
        "download \(id) has begun: its file is named before its first byte")
    }
    let folder = destination.deletingLastPathComponent()
    let file = try file(named: destination, in: folder, of: id)
    try change(id, reserving: file) { record in
      record.download.destination = file
      record.download.request.destination = file
      let own =
        folder.standardizedFileURL.path != configuration.outputDirectory.standardizedFileURL.path
      record.download.request.folder = own ? folder : nil
    }
    return try listed(self.record(id))
  }

  func change(_ setting: DownloadSetting) throws {
    switch setting {
    case .maxConcurrentDownloads(let count):
      guard count >= 1 else {
        throw DownloadError.unrecoverable("at least 1 download at once, not \(count)")
      }
      configuration.maxConcurrentDownloads = count
    case .maxBytesPerSecond(let rate):
      guard rate.map({ $0 >= 1 }) ?? true else {
        throw DownloadError.unrecoverable("a rate of at least 1 byte a second, not \(rate ?? 0)")
      }
      configuration.maxBytesPerSecond = rate
      rateLimit.change(to: rate)
    }
    schedule()
  }

  /// Stops the transfer of `id`, if it runs, and queues it again to go on from the bytes on
  /// disk under the limits that hold now.
  private func restartIfRunning(_ id: DownloadID) {
    guard (try? record(id))?.download.status == .running, stopTask(of: id) else { return }
    configuration.log(.info, "\(id): goes on under the new limits")
    try? setStatus(.queued, of: id)
    schedule()
  }

  func pause(_ id: DownloadID) async throws {
    let record = try loaded().record(id)
    if runs[id]?.task == nil { try checkNotHeldElsewhere(id) }
    guard record.download.status.isActive else { return }
    stopTask(of: id)
    try setStatus(.paused, of: id)
    schedule()
  }

  /// Pauses those of `ids` that are active, their records in one change of the store.
  func pause(_ ids: [DownloadID]) async throws {
    let queue = try loaded()
    var active: [DownloadID] = []
    for id in ids where (try? queue.record(id))?.download.status.isActive == true {
      if runs[id]?.task == nil { try checkNotHeldElsewhere(id) }
      active.append(id)
    }
    for id in active { stopTask(of: id) }
    try setStatus(.paused, of: active)
    schedule()
  }

  /// Moves waiting download `id` (queued or paused) to `position` among the waiting ones, in
  /// the order they start; returns the position it got.
  func move(_ id: DownloadID, to position: Int) throws -> Int {
    _ = try loaded()
    let waits = { (record: DownloadRecord) in record.download.status.isWaiting }
    guard waits(try record(id)),
      let moved = try DownloadQueue.move(id, to: position, in: store, among: waits)
    else {
      throw DownloadError.unrecoverable(
        "download \(id) is not waiting: only a queued or paused one moves")
    }
    for stored in moved.changed {
      guard var record = try? record(stored.download.id) else { continue }
      record.sequence = stored.sequence
      queue?.replace(record)
    }
    return moved.position
  }

  func resume(_ id: DownloadID) async throws {
    let record = try loaded().record(id)
    guard !record.download.status.isActive, record.download.status != .completed else { return }
    try checkNotHeldElsewhere(id)
    try setStatus(.queued, of: id)
    schedule()
  }

  /// Resumes those of `ids` that are neither active nor done, their records in one change of
  /// the store.
  func resume(_ ids: [DownloadID]) async throws {
    let queue = try loaded()
    var stopped: [DownloadID] = []
    for id in ids {
      guard let status = (try? queue.record(id))?.download.status, !status.isActive,
        status != .completed
      else { continue }
      try checkNotHeldElsewhere(id)
      stopped.append(id)
    }
    try setStatus(.queued, of: stopped)
    schedule()
  }

  /// Cancels `id` and deletes its part file. When another process writes it, that process is
  /// asked to stop, and this one waits until it has.
  func cancel(_ id: DownloadID) async throws {
    _ = try loaded().record(id)
    if stopTask(of: id) { return try remove(id) }
    let claim = try await claims.claimCancelling(id, clock: clock)
    defer { claim.release() }
    try remove(id)
    claims.forget(id)
  }

  /// Forgets `id`: its part file (where the stored record says it is), its record and its
  /// secrets.
  func remove(_ id: DownloadID) throws {
    let stored = try DownloadQueue.stored(id, in: store)
    let destination = stored?.download.destination ?? (try? record(id))?.download.destination
    if let destination {
      discardPart(PartFile.url(for: destination), of: id)
    }
    queue?.remove(id)
    runs[id] = nil
    try DownloadQueue.delete(id, from: store)
    events.send(.removed(id))
    schedule()
  }

  /// Throws `.busy` when another process writes `id`.
  private func checkNotHeldElsewhere(_ id: DownloadID) throws(DownloadError) {
    guard runs[id]?.task == nil, runs[id]?.holdsClaim != true else { return }
    try claims.claim(id).release()
  }

  /// Resumes the downloads the store says are active that no process runs: those of a process
  /// that ended without pausing them (`resumesInterrupted`).
  func resumeInterrupted() async {
    do {
      let interrupted = try store.records().filter { record in
        record.download.status.isActive && !claims.isHeld(record.download.id)
      }
      _ = try loaded()
      for record in interrupted {
        configuration.log(.info, "\(record.download.id): interrupted, resumed")
        try await resume(record.download.id)
      }
    } catch {
      configuration.log(.error, "cannot resume the interrupted downloads: \(error)")
    }
  }

  func cancelAll() async throws {
    for record in try loaded().records { try await cancel(record.download.id) }
  }

  /// The downloads as stored, with the bytes on disk of those not completed. One that this
  /// process runs or queued has the state it has here; one that was active when its process
  /// ended is paused; one that another process runs has the state that process gave it (its
  /// claim is held), running until its first answer is saved. A download running here has
  /// its rate; one paused this way is `interrupted`.
  func list() async throws -> [Download] {
    try store.records().map(listed)
  }

  /// `id` as `list` gives it; nil when the queue has no such download.
  func download(_ id: DownloadID) throws -> Download? {
    try DownloadQueue.stored(id, in: store).map(listed)
  }

  /// `record` as a list gives it.
  private func listed(_ record: DownloadRecord) -> Download {
    var download = record.downloadWithBytesOnDisk
    let id = download.id
    if let own = try? self.record(id), runs[id]?.task != nil || own.download.status.isActive {
      download.status = own.download.status
      if download.status == .running { download.bytesPerSecond = runs[id]?.rate.value }
    } else if download.status.isActive {
      if !claims.isHeld(id) {
        download.status = .paused
        download.interrupted = true
      } else if download.status == .queued {
        download.status = .running
      }
    }
    return download
  }

  // MARK: Queue

  /// `destination` when it is free, else a free variant (`DownloadQueue.freeName`).
  func freeName(for destination: URL, of id: DownloadID?) throws -> URL? {
    try loaded().freeName(for: destination, of: id, configuration: configuration)
  }

  /// The queue, read from the store the first time.
  private func loaded() throws -> DownloadQueue {
    if let queue { return queue }
    let loaded = try DownloadQueue.load(from: store)
    queue = loaded
    return loaded
  }

  /// Starts queued downloads, in order, while there are free slots.
  func schedule() {
    while running < configuration.maxConcurrentDownloads,
      let id = queue?.nextQueued(where: { runs[$0]?.task == nil })
    {
      let run = run(of: id)
      let stopping = run.stopping
      run.stopping = nil
      run.task = Task {
        // A download paused and resumed at once goes on once its last task has let go.
        await stopping?.value
        guard !Task.isCancelled else { return }
        await run.run(in: self)
      }
      running += 1
    }
  }

  /// The run of `id`, made when there is none.
  private func run(of id: DownloadID) -> DownloadRun<C> {
    if let run = runs[id] { return run }
    let run = DownloadRun<C>(id, sharing: rateLimit)
    runs[id] = run
    return run
  }

  /// Cancels the task of `id`; false when it has none.
  @discardableResult
  func stopTask(of id: DownloadID) -> Bool {
    guard let run = runs[id], let task = run.task else { return false }
    run.task = nil
    run.stopping = task
    running -= 1
    task.cancel()
    return true
  }

  /// `run`'s task ended by itself: the next queued download may start. A run that completed
  /// and holds no secrets leaves the table: its record says all there is to know.
  func ended(_ run: DownloadRun<C>) {
    guard run.task != nil else { return }
    run.task = nil
    running -= 1
    if run.secrets == nil, (try? record(run.id))?.download.status == .completed {
      runs[run.id] = nil
    }
    schedule()
  }

  func record(_ id: DownloadID) throws(DownloadError) -> DownloadRecord {
    guard let queue else { throw .unknownDownload(id) }
    return try queue.record(id)
  }
}

extension Download {
  /// Done, but its file is no longer where it was written.
  fileprivate var isDoneButGone: Bool {
    guard status == .completed, let destination else { return false }
    return !PartFile.exists(destination)
  }
}
