/// How far east of UTC, in seconds, the lines of the first and the last time of a range were
/// written (`+0200` is 7200), so that a report says the range in the log's own clock.
public struct TimeRangeOffsets: Sendable, Equatable {
  public var earliest: Int64
  public var latest: Int64

  public init(earliest: Int64 = 0, latest: Int64 = 0) {
    self.earliest = earliest
    self.latest = latest
  }

  /// The offsets of `range` followed by `next` (of `nextOffsets`): each end's from the range
  /// that holds it.
  static func merging(
    _ range: ClosedRange<Int64>?, _ offsets: TimeRangeOffsets, _ next: ClosedRange<Int64>?,
    _ nextOffsets: TimeRangeOffsets
  ) -> TimeRangeOffsets {
    guard let next else { return offsets }
    guard let range else { return nextOffsets }
    return TimeRangeOffsets(
      earliest: next.lowerBound < range.lowerBound ? nextOffsets.earliest : offsets.earliest,
      latest: next.upperBound > range.upperBound ? nextOffsets.latest : offsets.latest)
  }
}
