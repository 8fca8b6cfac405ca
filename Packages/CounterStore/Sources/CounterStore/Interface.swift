import Store

/// Stores counts by name.
public typealias CounterStore = Store<String, Int>

extension Store where Key == String, Value == Int {
  /// The key of the number of successful fetches.
  public static var timesFetchedKey: String { "timesFetched" }
}
