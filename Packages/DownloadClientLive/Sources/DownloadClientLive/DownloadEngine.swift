import DownloadClient
import Foundation
import Reachability
import Store

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Runs the downloads: the queue, the attempts with their retries and timeouts, the part
/// files, and the persisted records.
actor DownloadEngine<C: Clock<Duration>> {
  private let configuration: DownloadConfiguration
  private let store: DownloadStore
  private let transport: Transport
  private let clock: C
  private let reachability: Reachability
  private let random: @Sendable () -> Double
  let events = EventHub()

  private var records: [DownloadRecord] = []
  private var loaded = false
  private var tasks: [DownloadID: Task<Void, Never>] = [:]

  init(
    configuration: DownloadConfiguration, store: DownloadStore, transport: Transport, clock: C,
    reachability: Reachability, random: @escaping @Sendable () -> Double
  ) {
    self.configuration = configuration
    self.store = store
    self.transport = transport
    self.clock = clock
    self.reachability = reachability
    self.random = random
  }

  // MARK: Endpoints

  func start(_ request: DownloadRequest) async throws -> Download {
    try await load()
    if let existing = records.first(where: {
      $0.download.request.url == request.url
        && $0.download.request.destination == request.destination
    }) {
      let id = existing.download.id
      if let sha = request.expectedSHA256 {
        try await change(id) { $0.download.request.expectedSHA256 = sha }
      }
      if !existing.download.status.isActive && existing.download.status != .completed {
        try await resume(id)
      }
      return try record(id).download
    }
    guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https",
      request.url.host != nil
    else { throw DownloadError.unsupportedURL(request.url.absoluteString) }

    let destination =
      request.destination
      ?? configuration.outputDirectory.appendingPathComponent(FileName.fromURL(request.url))
    if records.contains(where: { $0.download.destination == destination }) {
      throw DownloadError.file("another download already writes \(destination.path)")
    }
    if !configuration.overwrite && FileManager.default.fileExists(atPath: destination.path) {
      throw DownloadError.destinationExists(destination.path)
    }
    let download = Download(
      id: DownloadID(String(UInt32.random(in: 0...UInt32.max), radix: 16)), request: request,
      status: .queued, destination: destination)
    let record = DownloadRecord(
      download: download, sequence: (records.map(\.sequence).max() ?? 0) + 1)
    records.append(record)
    try await persist(record)
    events.send(.added(download))
    schedule()
    return download
  }

  func pause(_ id: DownloadID) async throws {
    try await load()
    let record = try record(id)
    guard record.download.status.isActive else { return }
    tasks.removeValue(forKey: id)?.cancel()
    try await setStatus(.paused, of: id)
    schedule()
  }

  func resume(_ id: DownloadID) async throws {
    try await load()
    let record = try record(id)
    guard !record.download.status.isActive, record.download.status != .completed else { return }
    try await setStatus(.queued, of: id)
    schedule()
  }

  func cancel(_ id: DownloadID) async throws {
    try await load()
    let record = try record(id)
    tasks.removeValue(forKey: id)?.cancel()
    if let destination = record.download.destination {
      try? FileManager.default.removeItem(at: Self.partURL(for: destination))
    }
    records.removeAll { $0.download.id == id }
    _ = try await store.update(DownloadStore.queueKey) { list in
      list.map { $0.filter { $0.download.id != id } }
    }
    events.send(.removed(id))
    schedule()
  }

  func cancelAll() async throws {
    try await load()
    for record in records { try await cancel(record.download.id) }
  }

  /// The downloads, with the bytes on disk of those not completed.
  func list() async throws -> [Download] {
    try await load()
    return records.map { record in
      var download = record.download
      if download.status != .completed, let destination = download.destination {
        download.receivedBytes = Self.size(of: Self.partURL(for: destination))
      }
      return download
    }
  }

  /// Pauses every active download in the persisted queue, for a clean stop of the process.
  func pauseAll() async throws {
    try await load()
    for record in records where record.download.status.isActive {
      try await pause(record.download.id)
    }
  }

  // MARK: Queue

  /// Reads the persisted queue once. Downloads that were active in a process that ended are
  /// paused: they continue when resumed or started again.
  private func load() async throws {
    guard !loaded else { return }
    records = (try await store.load(DownloadStore.queueKey) ?? []).sorted {
      $0.sequence < $1.sequence
    }
    for index in records.indices where records[index].download.status.isActive {
      records[index].download.status = .paused
    }
    loaded = true
  }

  /// Starts queued downloads, in order, while there are free slots.
  private func schedule() {
    for record in records where record.download.status == .queued {
      guard tasks.count < configuration.maxConcurrentDownloads else { return }
      let id = record.download.id
      guard tasks[id] == nil else { continue }
      tasks[id] = Task { await self.run(id) }
    }
  }

  private func record(_ id: DownloadID) throws(DownloadError) -> DownloadRecord {
    guard let record = records.first(where: { $0.download.id == id }) else {
      throw .unknownDownload(id)
    }
    return record
  }

  private func change(_ id: DownloadID, _ body: (inout DownloadRecord) -> Void) async throws {
    guard let index = records.firstIndex(where: { $0.download.id == id }) else { return }
    body(&records[index])
    try await persist(records[index])
  }

  private func setStatus(_ status: DownloadStatus, of id: DownloadID) async throws {
    try await change(id) { $0.download.status = status }
    events.send(.statusChanged(id, status))
  }

  private func persist(_ record: DownloadRecord) async throws {
    _ = try await store.update(DownloadStore.queueKey) { list in
      var list = list ?? []
      if let index = list.firstIndex(where: { $0.download.id == record.download.id }) {
        list[index] = record
      } else {
        list.append(record)
      }
      return list
    }
  }

  // MARK: Running a download

  private func run(_ id: DownloadID) async {
    defer {
      if !Task.isCancelled {
        tasks[id] = nil
        schedule()
      }
    }
    let deadline = clock.now.advanced(by: configuration.resourceTimeout)
    var retries = 0
    while !Task.isCancelled {
      guard clock.now < deadline else { return await fail(id, resourceTimeout) }
      try? await setStatus(.running, of: id)
      let (outcome, progressed) = await attempt(id, deadline: deadline)
      guard !Task.isCancelled else { return }
      if progressed { retries = 0 }  // the retry budget is for attempts that get nowhere
      switch outcome {
      case .completed:
        await complete(id)
        return
      case .restart:
        configuration.log(.info, "\(id): the server did not continue the file; starting over")
        continue
      case .failed(let error, let retryAfter):
        if error.isTransport, hasBytesOnDisk(id), await !hostIsReachable(id) {
          // The host that sent the bytes on disk is gone: wait for it, keeping the bytes and
          // the retries. (A host never reached is a dead server: it fails after the retries.)
          configuration.log(.info, "\(id): \(error); waiting for the network")
          try? await setStatus(.waitingForNetwork, of: id)
          guard await waitForHost(of: id, until: deadline) else {
            if !Task.isCancelled { await fail(id, resourceTimeout) }
            return
          }
          configuration.log(.info, "\(id): the host is reachable again")
          continue
        }
        guard error.isRetryable, retries < configuration.maxRetries else {
          return await fail(id, error)
        }
        retries += 1
        let delay = configuration.backoff.delay(
          beforeRetry: retries, retryAfter: retryAfter, unit: random())
        guard clock.now.advanced(by: delay) < deadline else {
          return await fail(id, resourceTimeout)
        }
        configuration.log(.info, "\(id): \(error); retry \(retries) in \(delay)")
        try? await setStatus(.retrying(attempt: retries), of: id)
        do { try await clock.sleep(for: delay) } catch { return }
      }
    }
  }

  /// Whether `id` has received any of its bytes, in this process or an earlier one.
  private func hasBytesOnDisk(_ id: DownloadID) -> Bool {
    guard let destination = try? record(id).download.destination else { return false }
    return Self.size(of: Self.partURL(for: destination)) > 0
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

  private var resourceTimeout: DownloadError {
    .resourceTimeout(seconds: Int(configuration.resourceTimeout.components.seconds))
  }

  /// One request for the rest of the file. The resource deadline is checked on every piece
  /// received (a transfer that stalls completely ends at the idle timeout first).
  /// Returns how the attempt ended, and whether it wrote new bytes.
  private func attempt(_ id: DownloadID, deadline: C.Instant) async -> (
    AttemptState.Outcome, progressed: Bool
  ) {
    guard let record = try? record(id), let destination = record.download.destination else {
      return (.failed(.unknownDownload(id), retryAfter: nil), false)
    }
    let part = Self.partURL(for: destination)
    let onDisk = Self.size(of: part)
    // Without a validator nothing proves the bytes on disk belong to the file on the server.
    let offset = record.entityTag == nil && record.lastModified == nil ? 0 : onDisk
    if offset > 0, offset == record.download.expectedBytes { return (.completed, false) }

    var request = URLRequest(url: record.download.request.url)
    request.setValue(configuration.userAgent, forHTTPHeaderField: "User-Agent")
    // No content coding, ever: lengths, ranges and the SHA-256 are about the file's own bytes
    // (and URLSession would otherwise ask for gzip and decode it behind our back).
    request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
    if offset > 0 {
      request.setValue("bytes=\(offset)-", forHTTPHeaderField: "Range")
      request.setValue(record.entityTag ?? record.lastModified, forHTTPHeaderField: "If-Range")
    }
    configuration.log(.debug, "\(id): GET \(record.download.request.url) from byte \(offset)")

    let started = clock.now
    let state = AttemptState(
      maxSize: configuration.maxSize, now: { [clock] in started.duration(to: clock.now) },
      deadline: (started.duration(to: deadline), resourceTimeout),
      progress: { [events] progress in events.send(.progress(id, progress)) })
    defer { state.close() }
    let outcome: AttemptState.Outcome
    do {
      try await transport.stream(
        request,
        TransferReceiver(
          head: { response in
            await self.accept(response, for: id, offset: offset, part: part, state: state)
          },
          body: { data in state.write(data) }))
      outcome = state.outcome ?? .completed
    } catch is CancellationError {
      outcome = .failed(.transport("cancelled"), retryAfter: nil)
    } catch {
      outcome =
        state.outcome
        ?? .failed(
          Self.downloadError(error, timeout: configuration.requestTimeout), retryAfter: nil)
    }
    return (outcome, state.written > 0)
  }

  /// Decides what to do with a response head: fail, restart, or write the body from
  /// `offset` (or from zero when the server sent the whole file).
  private func accept(
    _ response: HTTPURLResponse, for id: DownloadID, offset: Int64, part: URL,
    state: AttemptState
  ) async -> Bool {
    let status = response.statusCode
    guard configuration.acceptedStatusCodes.contains(status) else {
      let retryAfter = HTTPHeaders.retryAfter(response.header("Retry-After"))
      state.end(.failed(.httpStatus(status), retryAfter: retryAfter))
      return false
    }
    var start: Int64 = 0
    var total: Int64? = response.expectedContentLength >= 0 ? response.expectedContentLength : nil
    if status == 206 {
      let range = HTTPHeaders.contentRange(response.header("Content-Range"))
      guard let range, range.start == offset else {
        configuration.log(
          .info,
          "\(id): Content-Range \(response.header("Content-Range") ?? "none") does not start at \(offset)"
        )
        try? FileManager.default.removeItem(at: part)
        state.end(.restart)
        return false
      }
      start = offset
      total = range.total
    } else if offset > 0 {
      configuration.log(
        .info, "\(id): the server sent the whole file (HTTP \(status)); starting over")
    }
    if let maxSize = configuration.maxSize, let total, total > maxSize {
      state.end(.failed(.tooLarge(limit: maxSize), retryAfter: nil))
      return false
    }
    var part = part
    var destination: URL?
    if start == 0, let name = serverFileName(response, for: id) {
      let named = configuration.outputDirectory.appendingPathComponent(name)
      if !configuration.overwrite && FileManager.default.fileExists(atPath: named.path) {
        state.end(.failed(.destinationExists(named.path), retryAfter: nil))
        return false
      }
      try? FileManager.default.removeItem(at: part)
      destination = named
      part = Self.partURL(for: named)
    }
    do {
      try await change(id) { record in
        record.entityTag = response.header("ETag")
        record.lastModified = response.header("Last-Modified")
        record.download.expectedBytes = total
        record.download.receivedBytes = start
        if let destination { record.download.destination = destination }
      }
      let handle = try Self.openPart(part, keeping: start)
      state.open(handle, received: start, expected: total)
      return true
    } catch {
      state.end(.failed(.file("cannot write \(part.path): \(error)"), retryAfter: nil))
      return false
    }
  }

  /// The sanitised name from the response's `Content-Disposition`, when the download has no
  /// explicit destination and the name differs from the one it has.
  private func serverFileName(_ response: HTTPURLResponse, for id: DownloadID) -> String? {
    guard let record = try? record(id), record.download.request.destination == nil,
      let name = response.header("Content-Disposition").flatMap(FileName.fromContentDisposition),
      name != record.download.destination?.lastPathComponent
    else { return nil }
    return name
  }

  /// Checks the finished part file and moves it into place.
  private func complete(_ id: DownloadID) async {
    guard let record = try? record(id), let destination = record.download.destination else {
      return
    }
    let part = Self.partURL(for: destination)
    let size = Self.size(of: part)
    if let expected = record.download.expectedBytes, size != expected {
      return await fail(id, .lengthMismatch(expected: expected, received: size))
    }
    if let expected = record.download.request.expectedSHA256 {
      do {
        let actual = try SHA256.hex(ofFileAt: part)
        guard actual == expected else {
          try? FileManager.default.removeItem(at: part)
          return await fail(id, .checksumMismatch(expected: expected, actual: actual))
        }
      } catch {
        return await fail(id, .file("cannot read \(part.path): \(error.localizedDescription)"))
      }
    }
    do {
      if FileManager.default.fileExists(atPath: destination.path) {
        guard configuration.overwrite else {
          return await fail(id, .destinationExists(destination.path))
        }
        try FileManager.default.removeItem(at: destination)
      }
      try FileManager.default.moveItem(at: part, to: destination)
    } catch {
      return await fail(
        id, .file("cannot move \(part.path) into place: \(error.localizedDescription)"))
    }
    try? await change(id) {
      $0.download.status = .completed
      $0.download.receivedBytes = size
    }
    events.send(.finished(id, file: destination))
  }

  private func fail(_ id: DownloadID, _ error: DownloadError) async {
    try? await change(id) { $0.download.status = .failed(reason: "\(error)") }
    events.send(.failed(id, error))
  }

  // MARK: Files and errors

  static func partURL(for destination: URL) -> URL {
    destination.deletingLastPathComponent()
      .appendingPathComponent(destination.lastPathComponent + ".part")
  }

  private static func size(of url: URL) -> Int64 {
    let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
  }

  /// The part file opened for writing after its first `keeping` bytes (the rest is cut).
  private static func openPart(_ part: URL, keeping: Int64) throws -> FileHandle {
    try FileManager.default.createDirectory(
      at: part.deletingLastPathComponent(), withIntermediateDirectories: true)
    if !FileManager.default.fileExists(atPath: part.path) {
      guard FileManager.default.createFile(atPath: part.path, contents: nil) else {
        throw DownloadError.file("cannot create \(part.path)")
      }
    }
    let handle = try FileHandle(forWritingTo: part)
    try handle.truncate(atOffset: UInt64(keeping))
    try handle.seekToEnd()
    return handle
  }

  static func downloadError(_ error: any Error, timeout: Duration) -> DownloadError {
    if let error = error as? DownloadError { return error }
    if let error = error as? URLError {
      if error.code == .timedOut { return .idleTimeout(seconds: Int(timeout.components.seconds)) }
      return .transport(error.localizedDescription)
    }
    return .transport((error as NSError).localizedDescription)
  }
}
