/// What to count. Everything here shapes the result, so partial results merge only when their
/// options are equal.
public struct AnalysisOptions: Sendable, Equatable, Codable {
  /// Pages per sequence, 2 to 10.
  public var length: Int
  /// Count the distinct clients that produced a sequence instead of its occurrences.
  public var uniqueClients: Bool
  /// Drop `?…` from pages.
  public var stripQuery: Bool
  /// Drop images, CSS, JavaScript and fonts before forming sequences.
  public var excludeStatic: Bool
  /// When set, a visit more than this many seconds after its client's previous one starts a
  /// new path: no sequence spans the gap.
  public var sessionGap: Int64?
  /// What makes a client.
  public var client: ClientKey
  /// Which visits count; the others are left out before sequences are formed.
  public var filters: VisitFilters

  public init(
    length: Int = 3, uniqueClients: Bool = false, stripQuery: Bool = false,
    excludeStatic: Bool = false, sessionGap: Int64? = nil, client: ClientKey = .address,
    filters: VisitFilters = VisitFilters()
  ) {
    precondition((2...10).contains(length), "the sequence length must be 2 to 10")
    precondition(sessionGap.map { $0 >= 0 } ?? true, "the session gap must not be negative")
    self.length = length
    self.uniqueClients = uniqueClients
    self.stripQuery = stripQuery
    self.excludeStatic = excludeStatic
    self.sessionGap = sessionGap
    self.client = client
    self.filters = filters
  }

  /// Whether a line needs more than its client and page: a time, a status, a user agent.
  var needsRecord: Bool { sessionGap != nil || client != .address || !filters.isEmpty }

  /// Whether each visit's time is needed.
  var needsTime: Bool { sessionGap != nil || filters.since != nil || filters.until != nil }
}

/// What makes a client.
public enum ClientKey: String, Sendable, Equatable, Codable, CaseIterable {
  /// The remote address (or host name) alone.
  case address = "ip"
  /// The address and the user agent: the devices of a household behind one address apart.
  case addressAndUserAgent = "ip+ua"
}
