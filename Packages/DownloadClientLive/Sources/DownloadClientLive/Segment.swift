/// A byte range of a file fetched over its own connection, and how much of it is written.
struct Segment: Codable, Sendable, Equatable {
  /// The first byte of the range.
  var start: Int64
  /// The byte after the range.
  var end: Int64
  /// The bytes of the range written so far, from `start` on.
  var received: Int64

  init(start: Int64, end: Int64, received: Int64 = 0) {
    self.start = start
    self.end = end
    self.received = received
  }

  var isDone: Bool { received >= end - start }

  /// The next byte to ask for.
  var next: Int64 { start + received }

  /// `total` bytes cut into `count` segments of nearly equal size, none smaller than
  /// `minimum` bytes (so a small file gets fewer segments, and at least one).
  static func plan(total: Int64, count: Int, minimum: Int64 = 1 << 20) -> [Segment] {
    let count = Int64(max(1, min(Int64(count), total / max(1, minimum))))
    let size = total / count
    return (0..<count).map { index in
      Segment(start: index * size, end: index == count - 1 ? total : (index + 1) * size)
    }
  }
}

extension [Segment] {
  /// The bytes the segments hold.
  var received: Int64 { reduce(0) { $0 + $1.received } }
}
