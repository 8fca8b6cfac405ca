import DownloadClient
import Foundation
import HTTPClient
import Reachability

/// Runs the downloads: schedules the queue, runs each download's attempts with their retries
/// and timeouts, and keeps the records up to date. The decisions are pure functions
/// (`ResponseDecision`, `RetryDecision`); the files are `PartFile` and `RunningDigest`.
actor DownloadEngine<C: Clock<Duration>> {
  let configuration: DownloadConfiguration
  private let store: DownloadStore
  let http: HTTPClient
  let clock: C
  private let reachability: Reachability
  private let random: @Sendable () -> Double
  private let claims: Claims
  /// The rate every transfer of every download shares (`maxBytesPerSecond`), segments too.
  private let rateLimit: RateLimit?
  let events = EventHub()

  private var queue: DownloadQueue?
  private var tasks: [DownloadID: Task<Void, Never>] = [:]
  /// The requests with their secrets, as given in this process; never persisted.
  private var secrets: [DownloadID: DownloadRequest] = [:]
  /// Done downloads fetched again in this process only if their file changed (`ifChanged`).
  var revalidating: Set<DownloadID> = []
  /// Downloads whose server was found not to take ranges: they go over one connection.
  var unsplittable: Set<DownloadID> = []
  /// The claims of the running downloads another process may ask to cancel, and the task
  /// that looks for such requests while there are any.
  private var watched: [DownloadID: Claim] = [:]
  private var watcher: Task<Void, Never>?

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
    rateLimit = configuration.maxBytesPerSecond.map { RateLimit(bytesPerSecond: $0) }
  }

  // MARK: Endpoints

  /// Adds `request`, or goes on with the download of the same URL and destination. The
  /// command line wins over the queue: a done download whose file is gone, or any earlier
  /// download of it with `overwrite`, is replaced by a new one.
  func start(_ request: DownloadRequest) async throws -> Download {
    let folder = request.folder ?? configuration.outputDirectory
    if let existing = try loaded().matching(request, in: folder) {
      let id = existing.download.id
      try checkNotHeldElsewhere(id)
      if configuration.overwrite || existing.download.isDoneButGone {
        configuration.log(.info, "\(id): replaced by a new download")
        try remove(id)
        return try await start(request)
      }
      if request.hasSecrets {
        secrets[id] = request
        if !existing.needsSecrets { try change(id) { $0.needsSecrets = true } }
      }
      if let sha = request.expectedSHA256 {
        try change(id) { $0.download.request.expectedSHA256 = sha }
      }
      if existing.download.status == .completed && configuration.ifChanged {
        revalidating.insert(id)
        try change(id) { $0.segments = nil }
        try setStatus(.queued, of: id)
        schedule()
      } else if !existing.download.status.isActive && existing.download.status != .completed {
        try await resume(id)
      }
      // With the bytes on disk, from which this run goes on.
      return try record(id).downloadWithBytesOnDisk
    }
    guard request.url.isHTTP else {
      throw DownloadError.unsupportedURL(request.redacted.url.absoluteString)
    }

    let destination =
      request.destination
      ?? folder.appendingPathComponent(FileName.fromURL(request.url), isDirectory: false)
    if !configuration.overwrite && FileManager.default.fileExists(atPath: destination.path) {
      throw DownloadError.destinationExists(destination.path)
    }
    let download = Download(
      id: DownloadID.random(), request: request.redacted, status: .queued,
      destination: destination)
    let insertion = try DownloadQueue.insert(
      DownloadRecord(download: download, sequence: 0, needsSecrets: request.hasSecrets),
      into: store)
    guard case .added(let added, let replaced) = insertion else {
      // Another process added the same download meanwhile: go on with that one.
      if case .existing(let existing) = insertion { queue?.adopt(existing) }
      return try await start(request)
    }
    // Done and failed downloads of the same file were replaced in the store.
    for id in replaced { queue?.remove(id) }
    queue?.append(added)
    if request.hasSecrets { secrets[added.download.id] = request }
    events.send(.added(added.download))
    schedule()
    return added.download
  }

  func pause(_ id: DownloadID) async throws {
    let record = try loaded().record(id)
    if tasks[id] == nil { try checkNotHeldElsewhere(id) }
    guard record.download.status.isActive else { return }
    tasks.removeValue(forKey: id)?.cancel()
    try setStatus(.paused, of: id)
    schedule()
  }

  func resume(_ id: DownloadID) async throws {
    let record = try loaded().record(id)
    guard !record.download.status.isActive, record.download.status != .completed else { return }
    try checkNotHeldElsewhere(id)
    try setStatus(.queued, of: id)
    schedule()
  }

  /// Cancels `id` and deletes its part file. When another process writes it, that process is
  /// asked to stop, and this one waits until it has.
  func cancel(_ id: DownloadID) async throws {
    _ = try loaded().record(id)
    if let task = tasks.removeValue(forKey: id) {
      task.cancel()
      return try remove(id)
    }
    let claim = try await claims.claimCancelling(id)
    defer { claim.release() }
    try remove(id)
    claims.forget(id)
  }

  /// Forgets `id`: its part file (where the stored record says it is), its record and its
  /// secrets.
  private func remove(_ id: DownloadID) throws {
    let stored = try DownloadQueue.stored(id, in: store)
    let destination = stored?.download.destination ?? (try? record(id))?.download.destination
    if let destination {
      try? FileManager.default.removeItem(at: PartFile.url(for: destination))
    }
    queue?.remove(id)
    secrets[id] = nil
    try DownloadQueue.delete(id, from: store)
    events.send(.removed(id))
    schedule()
  }

  /// Throws `.busy` when another process writes `id`.
  private func checkNotHeldElsewhere(_ id: DownloadID) throws(DownloadError) {
    guard tasks[id] == nil else { return }
    try claims.claim(id).release()
  }

  func cancelAll() async throws {
    for record in try loaded().records { try await cancel(record.download.id) }
  }

  /// The downloads as stored, with the bytes on disk of those not completed. One that was
  /// active when its process ended is paused; one that another process runs has the state
  /// that process gave it (its claim is held), running until its first answer is saved.
  func list() async throws -> [Download] {
    try store.records().map { record in
      var download = record.downloadWithBytesOnDisk
      let id = download.id
      if tasks[id] != nil, let own = try? self.record(id) {
        download.status = own.download.status
      } else if download.status.isActive {
        if !claims.isHeld(id) {
          download.status = .paused
        } else if download.status == .queued {
          download.status = .running
        }
      }
      return download
    }
  }

  // MARK: Queue

  /// The queue, read from the store the first time.
  private func loaded() throws -> DownloadQueue {
    if let queue { return queue }
    let loaded = try DownloadQueue.load(from: store)
    queue = loaded
    return loaded
  }

  /// Starts queued downloads, in order, while there are free slots.
  private func schedule() {
    while tasks.count < configuration.maxConcurrentDownloads,
      let id = queue?.nextQueued(where: { tasks[$0] == nil })
    {
      tasks[id] = Task { await self.run(id) }
    }
  }

  func record(_ id: DownloadID) throws(DownloadError) -> DownloadRecord {
    guard let queue else { throw .unknownDownload(id) }
    return try queue.record(id)
  }

  /// Changes the stored record of `id` and keeps the result; throws `.unknownDownload` when
  /// the record is gone. The status is this process's; the rest comes from the store, where
  /// another process may have changed it.
  func change(
    _ id: DownloadID, reserving destination: URL? = nil,
    _ body: (inout DownloadRecord) -> Void = { _ in }
  ) throws {
    let status = try record(id).download.status
    guard
      let record = try DownloadQueue.change(
        id, in: store, status: status, reserving: destination, body)
    else {
      queue?.remove(id)
      throw DownloadError.unknownDownload(id)
    }
    queue?.replace(record)
  }

  private func setStatus(_ status: DownloadStatus, of id: DownloadID) throws {
    guard var record = try? record(id) else { throw DownloadError.unknownDownload(id) }
    record.download.status = status
    queue?.replace(record)
    try change(id)
    events.send(.statusChanged(id, status))
  }

  /// Reads what another process left in the record of `id`, and marks it running in this
  /// process. The store hears of the status with the next change (the response head), one
  /// write fewer for each download; meanwhile another process sees it running by its claim.
  private func markRunning(_ id: DownloadID) throws {
    guard var record = try DownloadQueue.stored(id, in: store) else {
      queue?.remove(id)
      throw DownloadError.unknownDownload(id)
    }
    record.download.status = .running
    queue?.replace(record)
    events.send(.statusChanged(id, .running))
  }

  // MARK: Running a download

  private func run(_ id: DownloadID) async {
    defer {
      if !Task.isCancelled {
        tasks[id] = nil
        schedule()
      }
    }
    let claim: Claim
    do {
      claim = try claims.claim(id)
    } catch {
      // Another process writes it: its record is that process's to change.
      if var record = try? record(id) {
        record.download.status = .paused
        queue?.replace(record)
      }
      return events.send(.failed(id, error))
    }
    defer {
      if (try? record(id)) == nil { claims.forget(id) }
      claim.release()
    }
    if claim.canBeCancelledElsewhere { watch(claim, of: id) }
    defer { watched[id] = nil }
    do {
      try markRunning(id)
    } catch DownloadError.unknownDownload {
      return events.send(.removed(id))
    } catch {
      return pauseUnsaved(id, "\(error)")
    }
    guard let record = try? record(id) else { return }
    let digest = record.download.request.expectedSHA256 == nil ? nil : RunningDigest()
    if record.placing || record.partFile != nil, await finishPlacing(id, digest: digest) {
      return
    }
    if record.needsSecrets && secrets[id] == nil { return await fail(id, .missingSecrets) }
    let deadline = clock.now.advanced(by: configuration.resourceTimeout)
    var retries = 0
    var mostOnDisk = bytesOnDisk(id)
    while !Task.isCancelled {
      guard clock.now < deadline else { return await fail(id, resourceTimeout) }
      if retries > 0, !saving(id, { try setStatus(.running, of: id) }) { return }
      let outcome = await attempt(id, deadline: deadline, digest: digest)
      guard !Task.isCancelled else { return }
      // The retry budget is for attempts that get nowhere: only bytes on disk beyond the most
      // there ever were give it back. A restart from zero, or the same prefix again, does not.
      let onDisk = bytesOnDisk(id)
      if onDisk > mostOnDisk { (mostOnDisk, retries) = (onDisk, 0) }
      switch outcome {
      case .completed:
        await complete(id, digest: digest)
        return
      case .unchanged:
        revalidating.remove(id)
        guard saving(id, { try change(id) { $0.download.status = .completed } }) else {
          return
        }
        if let file = try? self.record(id).download.destination {
          events.send(.unchanged(id, file: file, bytes: PartFile.size(of: file)))
        }
        return
      case .failed(let error, let retryAfter):
        if error.isTransport, onDisk > 0, await !hostIsReachable(id) {
          // The host that sent the bytes on disk is gone: wait for it, keeping the bytes and
          // the retries. (A host never reached is a dead server: it fails after the retries.)
          configuration.log(.info, "\(id): \(error); waiting for the network")
          guard saving(id, { try setStatus(.waitingForNetwork, of: id) }) else { return }
          guard await waitForHost(of: id, until: deadline) else {
            if !Task.isCancelled { await fail(id, resourceTimeout) }
            return
          }
          configuration.log(.info, "\(id): the host is reachable again")
          guard saving(id, { try setStatus(.running, of: id) }) else { return }
          continue
        }
        let decision = RetryDecision.after(
          error, retryAfter: retryAfter, retries: retries, maxRetries: configuration.maxRetries,
          backoff: configuration.backoff, unit: random(),
          timeLeft: clock.now.duration(to: deadline),
          resourceTimeout: resourceTimeout)
        guard case .retry(let delay) = decision else {
          if case .giveUp(let reason) = decision { await fail(id, reason) }
          return
        }
        retries += 1
        configuration.log(.info, "\(id): \(error); retry \(retries) in \(delay)")
        guard saving(id, { try setStatus(.retrying(attempt: retries), of: id) }) else {
          return
        }
        do { try await clock.sleep(for: delay) } catch { return }
      }
    }
  }

  /// Looks four times a second, while `id` runs, for another process's request to cancel
  /// it; one task looks for every running download.
  private func watch(_ claim: Claim, of id: DownloadID) {
    watched[id] = claim
    guard watcher == nil else { return }
    watcher = Task { [weak self] in
      while !Task.isCancelled {
        try? await Task.sleep(for: .milliseconds(250))
        guard let self, await self.cancelRequests() else { return }
      }
    }
  }

  /// Stops the downloads another process asked to cancel; false, ending the watcher, when
  /// none runs.
  private func cancelRequests() async -> Bool {
    for (id, claim) in watched where claim.cancelRequested {
      watched[id] = nil
      await cancelledElsewhere(id)
    }
    if watched.isEmpty { watcher = nil }
    return watcher != nil
  }

  /// Stops `id`, which another process cancelled, and forgets it while still holding its claim.
  private func cancelledElsewhere(_ id: DownloadID) async {
    guard let task = tasks.removeValue(forKey: id) else { return }
    task.cancel()
    configuration.log(.info, "\(id): cancelled by another process")
    try? remove(id)
  }

  /// The bytes on disk of `id`, received in this process or an earlier one.
  private func bytesOnDisk(_ id: DownloadID) -> Int64 {
    guard let record = try? record(id) else { return 0 }
    return record.bytesOnDisk
  }

  /// Whether the host of `id`'s URL can be reached; true when that is not known.
  private func hostIsReachable(_ id: DownloadID) async -> Bool {
    guard let url = try? record(id).download.request.url, let host = ReachabilityHost(url: url)
    else { return true }
    return await reachability.status(host) != .unreachable
  }

  /// Waits until the host of `id`'s URL is reachable; false when `deadline` or a
  /// cancellation comes first.
  private func waitForHost(of id: DownloadID, until deadline: C.Instant) async -> Bool {
    guard let url = try? record(id).download.request.url, let host = ReachabilityHost(url: url)
    else { return true }
    return await reachability.waitUntilReachable(host, until: deadline, clock: clock)
  }

  var resourceTimeout: DownloadError {
    .resourceTimeout(seconds: Int(configuration.resourceTimeout.components.seconds))
  }

  /// The request for the rest of `record`'s file, from byte `offset`, with the secrets given
  /// in this process. Headers the user gave win over ours.
  func request(for record: DownloadRecord, from offset: Int64) -> HTTPRequest {
    let given = secrets[record.download.id] ?? record.download.request
    var request = HTTPRequest(url: given.url, idleTimeout: configuration.requestTimeout)
    request.rateLimit = rateLimit
    request.headers["User-Agent"] = configuration.userAgent
    // No content coding, ever: lengths, ranges and the SHA-256 are about the file's own bytes.
    request.headers["Accept-Encoding"] = "identity"
    for (name, value) in given.headers.sorted(by: { $0.key < $1.key }) {
      request.headers[name] = value
    }
    // Only a request for the whole file asks whether it changed: once a probe found that it
    // did and planned segments, their ranges are not conditional.
    if revalidating.contains(record.download.id), offset == 0, record.segments == nil {
      if let entityTag = record.entityTag { request.headers["If-None-Match"] = entityTag }
      if let lastModified = record.lastModified {
        request.headers["If-Modified-Since"] = lastModified
      }
    }
    if offset > 0 {
      request.rangeStart = offset
      request.ifRange = record.entityTag ?? record.lastModified
    }
    return request
  }

  /// One request for the rest of the file. The resource deadline is checked on every piece
  /// received (a transfer that stalls completely ends at the idle timeout first).
  private func attempt(_ id: DownloadID, deadline: C.Instant, digest: RunningDigest?) async
    -> AttemptState.Outcome
  {
    guard let record = try? record(id), let destination = record.download.destination else {
      return .failed(.unknownDownload(id), retryAfter: nil)
    }
    if let outcome = await segmentedAttempt(id, deadline: deadline) { return outcome }
    let part = PartFile.url(for: destination)
    let onDisk = PartFile.size(of: part)
    // Without a validator nothing proves the bytes on disk belong to the file on the server.
    let offset = record.entityTag == nil && record.lastModified == nil ? 0 : onDisk
    if offset > 0, offset == record.download.expectedBytes { return .completed }

    let request = request(for: record, from: offset)
    configuration.log(.debug, "\(id): GET \(record.download.request.url) from byte \(offset)")
    let started = clock.now
    let state = AttemptState(
      maxSize: configuration.maxSize, now: { [clock] in started.duration(to: clock.now) },
      deadline: (started.duration(to: deadline), resourceTimeout), digest: digest,
      progress: { [events] progress in events.send(.progress(id, progress)) })
    defer { state.close() }
    let outcome: AttemptState.Outcome
    do {
      try await http.stream(
        request,
        HTTPReceiver(
          head: { head in
            await self.accept(head, for: id, offset: offset, state: state, digest: digest)
          },
          body: { data in state.write(data) }))
      outcome = state.outcome ?? .completed
    } catch is CancellationError {
      outcome = .failed(.transport("cancelled"), retryAfter: nil)
    } catch {
      outcome = state.outcome ?? .failed(DownloadError.from(error), retryAfter: nil)
    }
    return outcome
  }

  /// Acts on a response head as `ResponseDecision` says: fail, restart, or open the part
  /// file to write the body from where it starts.
  private func accept(
    _ head: HTTPResponseHead, for id: DownloadID, offset: Int64, state: AttemptState,
    digest: RunningDigest?
  ) async -> Bool {
    guard let record = try? record(id), var destination = record.download.destination else {
      return false
    }
    let decision = ResponseDecision.decide(
      head, offset: offset, accepting: configuration.acceptedStatusCodes,
      maxSize: configuration.maxSize, conditional: revalidating.contains(id) && offset == 0)
    let start: Int64
    let total: Int64?
    switch decision {
    case .fail(let error, let retryAfter):
      state.end(.failed(error, retryAfter: retryAfter))
      return false
    case .restart(let reason):
      try? FileManager.default.removeItem(at: PartFile.url(for: destination))
      state.end(.failed(.notContinued(reason), retryAfter: nil))
      return false
    case .unchanged:
      state.end(.unchanged)
      return false
    case .write(let from, let size):
      (start, total) = (from, size)
    }
    if offset > 0, start == 0 {
      configuration.log(
        .info, "\(id): the server sent the whole file (HTTP \(head.status)); starting over")
    }
    if start == 0, let name = serverFileName(head, for: record) {
      let named = destination.deletingLastPathComponent().appendingPathComponent(
        name, isDirectory: false)
      // The name is reserved for this download, unless another one has it already or a
      // file of that name is there (and may not be overwritten): then it keeps its own.
      do {
        if !configuration.overwrite && FileManager.default.fileExists(atPath: named.path) {
          throw DownloadError.file("\(named.path) exists")
        }
        try change(id, reserving: named) { $0.download.destination = named }
      } catch DownloadError.file(let reason) {
        configuration.log(.info, "\(id): \(reason); keeping \(destination.lastPathComponent)")
      } catch {
        state.end(.failed(DownloadError.from(error), retryAfter: nil))
        return false
      }
      if (try? self.record(id))?.download.destination == named {
        try? FileManager.default.removeItem(at: PartFile.url(for: destination))
        destination = named
      }
    }
    let part = PartFile.url(for: destination)
    do {
      // Opened before the head is saved, so that the record names the part file; cut after,
      // so that a failed save loses no byte.
      let (handle, identity) = try PartFile.open(part)
      try change(id) { [destination] record in
        record.entityTag = head.headers["ETag"]
        record.lastModified = head.headers["Last-Modified"]
        record.download.expectedBytes = total
        record.download.receivedBytes = start
        record.download.destination = destination
        record.partFile = identity
      }
      try PartFile.keep(start, of: handle)
      digest?.start(at: start, of: part)
      state.open(handle, part: part, received: start, expected: total)
      return true
    } catch {
      let reason = error is DownloadFileError ? "\(error)" : "cannot write \(part.path): \(error)"
      state.end(.failed(.file(reason), retryAfter: nil))
      return false
    }
  }

  /// The sanitised name from the response's `Content-Disposition`, when the download has no
  /// explicit destination and the name differs from the one it has.
  private func serverFileName(_ head: HTTPResponseHead, for record: DownloadRecord) -> String? {
    guard record.download.request.destination == nil,
      let name = head.headers["Content-Disposition"].flatMap(FileName.fromContentDisposition),
      name != record.download.destination?.lastPathComponent
    else { return nil }
    return name
  }

  /// Checks the finished part file and moves it into place.
  private func complete(_ id: DownloadID, digest: RunningDigest?) async {
    guard let record = try? record(id), let destination = record.download.destination else {
      return
    }
    let part = PartFile.url(for: destination)
    let (size, identity) = PartFile.status(of: part) ?? (0, nil)
    if let expected = record.download.expectedBytes, size != expected {
      return await fail(id, .lengthMismatch(expected: expected, received: size))
    }
    if let expected = record.download.request.expectedSHA256, let digest {
      do {
        let actual = try digest.finish(part, size: size)
        guard actual == expected else {
          try? FileManager.default.removeItem(at: part)
          return await fail(id, .checksumMismatch(expected: expected, actual: actual))
        }
      } catch {
        return await fail(id, .file("cannot read \(part.path): \(error.localizedDescription)"))
      }
    }
    if FileManager.default.fileExists(atPath: destination.path) {
      // With `ifChanged` a download refreshes its own earlier file (a new download never
      // starts over a file that is there), also when the refresh ends in a later run.
      guard configuration.overwrite || configuration.ifChanged || record.placing else {
        return await fail(id, .destinationExists(destination.path))
      }
    }
    // A run after a crash between the move and the record knows the file is this download's
    // by the part file's identity in the record; when the record does not name this part
    // file (segments), it is said before the move.
    if identity == nil || identity != record.partFile {
      guard saving(id, { try change(id) { $0.placing = true } }) else { return }
    }
    do {
      try PartFile.place(part, at: destination)
    } catch {
      return await fail(id, .file("\(error)"))
    }
    await finish(id, size: size, file: destination)
  }

  /// Marks `id` done with its `file` of `size` bytes in place. When the queue cannot be
  /// saved, the download fails saying so; the next run finishes its record.
  private func finish(_ id: DownloadID, size: Int64, file: URL) async {
    revalidating.remove(id)
    do {
      try change(id) {
        $0.download.status = .completed
        $0.download.receivedBytes = size
        $0.segments = nil
        $0.placing = false
        $0.partFile = nil
      }
    } catch DownloadError.unknownDownload {
      return events.send(.removed(id))
    } catch {
      return events.send(
        .failed(
          id,
          .file(
            "\(file.path) is complete, but the queue could not be saved (\(error)); "
              + "the next run finishes its record")))
    }
    events.send(.finished(id, file: file, bytes: size))
  }

  /// Finishes a download that was being moved into place when its process ended: moves its
  /// complete part file (`placing`), or, when the file is there already with the size (and
  /// SHA-256) the download had, and the part file's identity or `placing` says it is the
  /// download's, marks it done. False when neither is there: the download goes on.
  private func finishPlacing(_ id: DownloadID, digest: RunningDigest?) async -> Bool {
    guard let record = try? record(id), let destination = record.download.destination else {
      return false
    }
    let part = PartFile.url(for: destination)
    if FileManager.default.fileExists(atPath: part.path) {
      guard record.placing else { return false }
      await complete(id, digest: digest)
      return true
    }
    guard let (size, identity) = PartFile.status(of: destination),
      record.placing || identity == record.partFile,
      record.download.expectedBytes.map({ $0 == size }) ?? true
    else {
      return record.placing && !saving(id, { try change(id) { $0.placing = false } })
    }
    if let expected = record.download.request.expectedSHA256 {
      guard (try? RunningDigest().finish(destination, size: size)) == expected else {
        return record.placing && !saving(id, { try change(id) { $0.placing = false } })
      }
    }
    configuration.log(.info, "\(id): \(destination.path) was moved into place by a run that ended")
    await finish(id, size: size, file: destination)
    return true
  }

  /// Ends `id` with `error`, saved in its record. When the queue cannot be saved, the
  /// download is paused instead, saying so.
  private func fail(_ id: DownloadID, _ error: DownloadError) async {
    do {
      try change(id) { $0.download.status = .failed(reason: "\(error)") }
    } catch DownloadError.unknownDownload {
      // Removed meanwhile: it still ended with `error`.
    } catch let unsaved {
      return pauseUnsaved(id, "\(error); and \(unsaved)")
    }
    events.send(.failed(id, error))
  }

  /// Runs `write`, a change of the record of `id`; false when the download must stop: its
  /// record is gone, or the queue cannot be saved (then it is paused, saying so).
  private func saving(_ id: DownloadID, _ write: () throws -> Void) -> Bool {
    do {
      try write()
      return true
    } catch DownloadError.unknownDownload {
      events.send(.removed(id))
    } catch {
      pauseUnsaved(id, "\(error)")
    }
    return false
  }

  /// Pauses `id` in this process because its record could not be saved (`reason`): the
  /// stored record stays as it last was, so a later run goes on from the bytes on disk; the
  /// failure says so.
  private func pauseUnsaved(_ id: DownloadID, _ reason: String) {
    if var record = try? record(id) {
      record.download.status = .paused
      queue?.replace(record)
    }
    events.send(
      .failed(id, .file("cannot save the download queue (\(reason)); the download is paused")))
  }

}

extension DownloadRecord {
  /// The bytes received: the part file's size, or what its segments hold.
  fileprivate var bytesOnDisk: Int64 {
    if let segments { return segments.received }
    guard let destination = download.destination else { return 0 }
    return PartFile.size(of: PartFile.url(for: destination))
  }

  /// The download with the bytes on disk as its received bytes, unless it is completed.
  fileprivate var downloadWithBytesOnDisk: Download {
    var download = self.download
    if download.status != .completed { download.receivedBytes = bytesOnDisk }
    return download
  }
}

extension Download {
  /// Done, but its file is no longer where it was written.
  fileprivate var isDoneButGone: Bool {
    guard status == .completed, let destination else { return false }
    return !FileManager.default.fileExists(atPath: destination.path)
  }
}

extension DownloadError {
  /// The download error for what the HTTP client threw.
  static func from(_ error: any Error) -> DownloadError {
    switch error {
    case let error as DownloadError:
      return error
    case HTTPError.idleTimeout(let seconds):
      return .idleTimeout(seconds: seconds)
    case HTTPError.status(let status, _, _):
      return .httpStatus(status)
    case let error as HTTPError:
      return error.isRetryable ? .transport(error.description) : .unrecoverable(error.description)
    default:
      return .transport(String(describing: error))
    }
  }
}
