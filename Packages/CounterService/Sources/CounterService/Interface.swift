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
