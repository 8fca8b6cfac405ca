import Foundation
import Store

/// Stores response codes (UUIDs) by name.
public typealias ResponseCodeStore = Store<String, UUID>

extension Store where Key == String, Value == UUID {
  /// The key of the last response code fetched.
  public static var lastResponseCodeKey: String { "lastResponseCode" }
}
