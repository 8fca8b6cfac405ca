/// A keyed store of values: create, read, update and delete, plus an atomic
/// read-modify-write.
///
/// A configuration decides where values live: `.inMemory()` here, a durable file in
/// `StoreLive`.
public struct Store<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  /// The value stored under a key, or nil when there is none.
  public var load: @Sendable (Key) async throws -> Value?
  /// Stores a value under a key, replacing any earlier one.
  public var save: @Sendable (Key, Value) async throws -> Void
  /// Removes the value under a key; removing a missing key does nothing.
  public var delete: @Sendable (Key) async throws -> Void
  /// Reads the value under a key, transforms it, and stores the result (nil removes it),
  /// with no other change in between, even from another process. Returns the stored result.
  public var update: @Sendable (Key, @Sendable (Value?) throws -> Value?) async throws -> Value?

  public init(
    load: @escaping @Sendable (Key) async throws -> Value?,
    save: @escaping @Sendable (Key, Value) async throws -> Void,
    delete: @escaping @Sendable (Key) async throws -> Void,
    update: @escaping @Sendable (Key, @Sendable (Value?) throws -> Value?) async throws -> Value?
  ) {
    self.load = load
    self.save = save
    self.delete = delete
    self.update = update
  }
}
