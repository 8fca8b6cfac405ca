/// Visits read from a run of lines, processed together so that the memory each one needs
/// is requested for all of them before any is used: the table lookups then overlap instead
/// of waiting for memory one at a time. Scratch space for one `Partial.reading` call.
final class VisitBatch {
  static let capacity = 32

  private(set) var count = 0
  let clients = UnsafeMutableBufferPointer<UnsafeRawBufferPointer>.allocate(capacity: capacity)
  let pages = UnsafeMutableBufferPointer<UnsafeRawBufferPointer>.allocate(capacity: capacity)
  let clientHashes = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: capacity)
  let pageHashes = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: capacity)
  let clientIDs = UnsafeMutableBufferPointer<Int32>.allocate(capacity: capacity)
  let pageIDs = UnsafeMutableBufferPointer<Int32>.allocate(capacity: capacity)
  /// The time of each visit, when the options need one.
  let times = UnsafeMutableBufferPointer<Int64>.allocate(capacity: capacity)
  /// What the panels read of each visit, when they are counted: its status (-1 for none),
  /// bytes, referer (empty for none) and time as the line wrote it (`Int64.min` for none).
  let statuses = UnsafeMutableBufferPointer<Int>.allocate(capacity: capacity)
  let sizes = UnsafeMutableBufferPointer<Int>.allocate(capacity: capacity)
  let referers = UnsafeMutableBufferPointer<UnsafeRawBufferPointer>.allocate(capacity: capacity)
  let localTimes = UnsafeMutableBufferPointer<Int64>.allocate(capacity: capacity)
  /// Where clients and pages that the lines do not hold as they are live until the batch is
  /// emptied.
  let arena = ByteArena()
  /// Room for the sequence a visit completes: its pages, then the client.
  let window: UnsafeMutablePointer<Int32>

  init(width: Int) {
    window = .allocate(capacity: width)
  }

  deinit {
    clients.deallocate()
    pages.deallocate()
    clientHashes.deallocate()
    pageHashes.deallocate()
    clientIDs.deallocate()
    pageIDs.deallocate()
    times.deallocate()
    statuses.deallocate()
    sizes.deallocate()
    referers.deallocate()
    localTimes.deallocate()
    window.deallocate()
  }

  var isFull: Bool { count == Self.capacity }

  func append(client: UnsafeRawBufferPointer, page: UnsafeRawBufferPointer, time: Int64 = 0) {
    clients[count] = client
    pages[count] = page
    times[count] = time
    count += 1
  }

  /// Sets what the panels read of the visit appended last.
  func setDetails(
    status: Int, size: Int, referer: UnsafeRawBufferPointer, localTime: Int64
  ) {
    statuses[count - 1] = status
    sizes[count - 1] = size
    referers[count - 1] = referer
    localTimes[count - 1] = localTime
  }

  func removeAll() {
    count = 0
    arena.removeAll()
  }
}
