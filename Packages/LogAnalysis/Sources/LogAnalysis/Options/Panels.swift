/// The panels counted beside the sequences (`AnalysisOptions.panels`), as a log analyser such
/// as GoAccess shows them: each counts single visits, by page, status, referrer, hour, bytes
/// or client. Each is chosen apart, as each reads more of every line.
public struct Panels: OptionSet, Sendable, Hashable, Codable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Visits per page.
  public static let pages = Panels(rawValue: 1 << 0)
  /// Visits per status code, and per class (2xx…).
  public static let status = Panels(rawValue: 1 << 1)
  /// Visits answered 404, per page.
  public static let notFound = Panels(rawValue: 1 << 2)
  /// Visits per referring site (the referer's host) and per referring page (the referer).
  public static let referrers = Panels(rawValue: 1 << 3)
  /// Visits per hour of the day and per day, by the time as the line wrote it.
  public static let hours = Panels(rawValue: 1 << 4)
  /// The bytes sent, in all and per page.
  public static let bandwidth = Panels(rawValue: 1 << 5)
  /// Visits and bytes per client.
  public static let clients = Panels(rawValue: 1 << 6)

  /// Every panel, by its name, in the order they are shown.
  public static let named: [(name: String, panel: Panels)] = [
    ("pages", .pages), ("status", .status), ("not-found", .notFound),
    ("referrers", .referrers), ("hours", .hours), ("bandwidth", .bandwidth),
    ("clients", .clients),
  ]

  public static let all = Panels(named.map(\.panel))

  /// The panels `text` names, separated by commas (`pages,status`), or `all`.
  public init(names text: String) throws(AnalysisOptionError) {
    self = []
    for name in text.split(separator: ",", omittingEmptySubsequences: false) {
      let name = name.trimmingCharacters(in: .whitespaces).lowercased()
      if name == "all" {
        formUnion(.all)
      } else if let panel = Self.named.first(where: { $0.name == name })?.panel {
        formUnion(panel)
      } else {
        throw AnalysisOptionError(
          "unknown panel '\(name)': use \(Self.named.map(\.name).joined(separator: ", ")) or all")
      }
    }
  }

  /// The names of these panels, in the order they are shown.
  public var names: [String] { Self.named.filter { contains($0.panel) }.map(\.name) }

  /// Whether these panels read each visit's status, its size, its referer, its time.
  var needStatus: Bool { !isDisjoint(with: [.status, .notFound]) }
  var needSize: Bool { !isDisjoint(with: [.bandwidth, .clients]) }
  var needReferer: Bool { contains(.referrers) }
  var needTime: Bool { contains(.hours) }
  /// Whether visits are counted per page: for `pages`, and beside the bytes for `bandwidth`.
  var countPageHits: Bool { !isDisjoint(with: [.pages, .bandwidth]) }
}
