/// A point in time on a test clock: a duration since the clock was made.
public struct TestInstant: InstantProtocol, Sendable {
  /// The time elapsed since the clock's start.
  public var offset: Duration

  public init(offset: Duration) {
    self.offset = offset
  }

  public func advanced(by duration: Duration) -> TestInstant {
    TestInstant(offset: offset + duration)
  }

  public func duration(to other: TestInstant) -> Duration {
    other.offset - offset
  }

  public static func < (lhs: TestInstant, rhs: TestInstant) -> Bool {
    lhs.offset < rhs.offset
  }
}
