/// Counts successful fetches.
public struct CounterService: Sendable {
  /// The current count, or nil when nothing was ever counted.
  public var count: @Sendable () async throws -> Int?
  /// Adds one to the count, atomically, and returns the new count.
  public var increment: @Sendable () async throws -> Int
  /// Forgets the count.
  public var reset: @Sendable () async throws -> Void

  public init(
    count: @escaping @Sendable () async throws -> Int?,
    increment: @escaping @Sendable () async throws -> Int,
    reset: @escaping @Sendable () async throws -> Void
  ) {
    self.count = count
    self.increment = increment
    self.reset = reset
  }
}

/// A count that cannot be used: one a store holds but no counting can produce, or one that
/// cannot grow any more.
public enum CounterError: Error, Equatable, CustomStringConvertible {
  /// The stored count is negative.
  case negative(Int)
  /// The count is at `Int.max`: one more does not fit.
  case full

  public var description: String {
    switch self {
    case .negative(let count): return "the stored fetch count is negative (\(count))"
    case .full: return "the fetch count is at its largest (\(Int.max)); reset it to go on"
    }
  }
}
