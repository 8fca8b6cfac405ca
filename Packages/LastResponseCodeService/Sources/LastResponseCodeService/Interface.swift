import Foundation

/// Remembers the last response code fetched.
public struct LastResponseCodeService: Sendable {
  /// The last response code, or nil when none was fetched.
  public var load: @Sendable () async throws -> UUID?
  /// Replaces the last response code.
  public var update: @Sendable (UUID) async throws -> Void
  /// Forgets the last response code.
  public var clear: @Sendable () async throws -> Void

  public init(
    load: @escaping @Sendable () async throws -> UUID?,
    update: @escaping @Sendable (UUID) async throws -> Void,
    clear: @escaping @Sendable () async throws -> Void
  ) {
    self.load = load
    self.update = update
    self.clear = clear
  }
}
