import ChecksumTypes
import DownloadClient
import Foundation
import HTTPClient
import Reachability

/// Runs the downloads: schedules the queue, runs each download's attempts with their retries
/// and timeouts, and keeps the records up to date. The decisions are pure functions
/// (`ResponseDecision`, `RetryDecision`); the files are `PartFile` and `RunningDigest`.
actor DownloadEngine<C: Clock<Duration>> {
  let configuration: DownloadConfiguration
  let store: DownloadStore
  let http: HTTPClient
  let clock: C
  let reachability: Reachability
  let random: @Sendable () -> Double
  let claims: Claims
  /// The rate every transfer of every download shares (`maxBytesPerSecond`), segments too.
  let rateLimit: RateLimit?
  let events = EventHub()

  var queue: DownloadQueue?
  /// The running downloads' tasks.
  var tasks: [DownloadID: Task<Void, Never>] = [:]
  /// What this process knows of each download beside its record (`LocalDownload`).
  var local: [DownloadID: LocalDownload] = [:]
  /// The claims of the running downloads another process may ask to cancel, and the task
  /// that looks for such requests while there are any.
  var watched: [DownloadID: Claim] = [:]
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
      if let pieces = request.pieceChecksums {
        local[id, default: LocalDownload()].pieceChecksums = pieces
      }
      if request.hasSecrets {
        local[id, default: LocalDownload()].secrets = request
        if !existing.needsSecrets { try change(id) { $0.needsSecrets = true } }
      }
      if let checksum = request.expectedChecksum {
        try change(id) { $0.download.request.expectedChecksum = checksum }
      }
      // The command line's limits win over those kept.
      if let size = request.expectedSize {
        try change(id) { $0.download.request.expectedSize = size }
      }
      if let limits = request.limits, limits != existing.download.request.limits {
        try change(id) { $0.download.request.limits = limits }
      }
      if !request.mirrors.isEmpty, request.redacted.mirrors != existing.download.request.mirrors {
        try change(id) { $0.download.request.mirrors = request.redacted.mirrors }
      }
      if existing.download.status == .completed && configuration.ifChanged {
        local[id, default: LocalDownload()].revalidating = true
        try change(id) { $0.segments = nil }
        try setStatus(.queued, of: id)
        schedule()
      } else if !existing.download.status.isActive && existing.download.status != .completed {
        try await resume(id)
      }
      // With the bytes on disk, from which this run goes on.
      return try record(id).downloadWithBytesOnDisk
    }
    for url in [request.url] + request.mirrors where !url.isHTTP {
      throw DownloadError.unsupportedURL(url.redactingPassword.absoluteString)
    }

    let named =
      request.destination
      ?? folder.appendingPathComponent(FileName.fromURL(request.url), isDirectory: false)
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
    guard let destination = try freeName(for: named, of: nil) else {
      throw DownloadError.destinationExists(named.path)
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
    if request.hasSecrets { local[added.download.id, default: LocalDownload()].secrets = request }
    if let pieces = request.pieceChecksums {
      local[added.download.id, default: LocalDownload()].pieceChecksums = pieces
    }
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
    local[id] = nil
    try DownloadQueue.delete(id, from: store)
    events.send(.removed(id))
    schedule()
  }

  /// Throws `.busy` when another process writes `id`.
  private func checkNotHeldElsewhere(_ id: DownloadID) throws(DownloadError) {
    guard tasks[id] == nil else { return }
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
  /// claim is held), running until its first answer is saved.
  func list() async throws -> [Download] {
    try store.records().map { record in
      var download = record.downloadWithBytesOnDisk
      let id = download.id
      if let own = try? self.record(id), tasks[id] != nil || own.download.status.isActive {
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

  /// `destination` when it is free (no file there, or `overwrite`), else with
  /// `autoFileRenaming` the first free `name.N.ext` that no other unfinished download of
  /// `id`'s queue has either; nil when there is none.
  func freeName(for destination: URL, of id: DownloadID?) throws -> URL? {
    if configuration.overwrite || !PartFile.exists(destination) { return destination }
    guard configuration.autoFileRenaming else { return nil }
    let queue = try loaded()
    let folder = destination.deletingLastPathComponent()
    for number in 1...9999 {
      let candidate = folder.appendingPathComponent(
        FileName.numbered(destination.lastPathComponent, number), isDirectory: false)
      if !PartFile.exists(candidate), !PartFile.exists(PartFile.url(for: candidate)),
        !queue.isHeld(candidate, except: id)
      {
        configuration.log(
          .info, "\(destination.lastPathComponent) exists; writing \(candidate.lastPathComponent)")
        return candidate
      }
    }
    return nil
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
}

extension DownloadRecord {
  /// The bytes received: the part file's size, or what its segments hold.
  var bytesOnDisk: Int64 {
    if let segments { return segments.received }
    guard let destination = download.destination else { return 0 }
    return PartFile.size(ofPartOf: destination)
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
    return !PartFile.exists(destination)
  }
}
