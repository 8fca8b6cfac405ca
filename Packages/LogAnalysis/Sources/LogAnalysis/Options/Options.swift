/// What to count. Everything here shapes the result, so partial results merge only when their
/// options are equal.
public struct AnalysisOptions: Sendable, Equatable, Codable {
  /// Pages per sequence, 1 to 10: with 1, the pages themselves are ranked.
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
  /// What else is counted of the visits kept: pages, statuses, referrers… (none by default).
  public var panels: Panels = []
  /// The steps of a funnel, each a page or a glob of pages (`/products/*`), in order; none by
  /// default. See `FunnelReport` for what is counted.
  public var funnel: [String] = []

  public init(
    length: Int = 3, uniqueClients: Bool = false, stripQuery: Bool = false,
    excludeStatic: Bool = false, sessionGap: Int64? = nil, client: ClientKey = .address,
    filters: VisitFilters = VisitFilters()
  ) {
    precondition((1...10).contains(length), "the sequence length must be 1 to 10")
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
  /// A funnel's times are read on the fastest path too.
  var needsRecord: Bool { sessionGap != nil || client != .address || !filters.isEmpty }

  private enum CodingKeys: String, CodingKey {
    case length, uniqueClients, stripQuery, excludeStatic, sessionGap, client, filters, panels
    case funnel
  }

  /// Reads the options; those written before panels and funnels existed have none.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    length = try container.decode(Int.self, forKey: .length)
    uniqueClients = try container.decode(Bool.self, forKey: .uniqueClients)
    stripQuery = try container.decode(Bool.self, forKey: .stripQuery)
    excludeStatic = try container.decode(Bool.self, forKey: .excludeStatic)
    sessionGap = try container.decodeIfPresent(Int64.self, forKey: .sessionGap)
    client = try container.decode(ClientKey.self, forKey: .client)
    filters = try container.decode(VisitFilters.self, forKey: .filters)
    panels = try container.decodeIfPresent(Panels.self, forKey: .panels) ?? []
    funnel = try container.decodeIfPresent([String].self, forKey: .funnel) ?? []
    do {
      try FunnelSteps.check(funnel)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .funnel, in: container, debugDescription: error.description)
    }
  }

  /// Whether each visit's time is needed.
  var needsTime: Bool {
    sessionGap != nil || filters.since != nil || filters.until != nil || !funnel.isEmpty
  }
}

/// What makes a client.
public enum ClientKey: String, Sendable, Equatable, Codable, CaseIterable {
  /// The remote address (or host name) alone.
  case address = "ip"
  /// The address and the user agent: the devices of a household behind one address apart.
  case addressAndUserAgent = "ip+ua"
}
