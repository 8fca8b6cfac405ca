/// What to count.
public struct AnalysisOptions: Sendable, Equatable, Codable {
  /// Pages per sequence, 2 to 10.
  public var length: Int
  /// Count the distinct clients that produced a sequence instead of its occurrences.
  public var uniqueClients: Bool
  /// Drop `?…` from pages.
  public var stripQuery: Bool
  /// Drop images, CSS, JavaScript and fonts before forming sequences.
  public var excludeStatic: Bool

  public init(
    length: Int = 3, uniqueClients: Bool = false, stripQuery: Bool = false,
    excludeStatic: Bool = false
  ) {
    precondition((2...10).contains(length), "the sequence length must be 2 to 10")
    self.length = length
    self.uniqueClients = uniqueClients
    self.stripQuery = stripQuery
    self.excludeStatic = excludeStatic
  }
}
