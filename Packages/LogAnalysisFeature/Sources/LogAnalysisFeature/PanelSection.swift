import LogAnalysis

/// A panel as the screens show it (`analyze --panels`): a title, what its rows name, and its
/// rows with their shares of the visits (of the bytes, for bandwidth).
public struct PanelSection: Equatable, Sendable {
  public struct Row: Equatable, Sendable {
    public var name: String
    public var count: Int
    /// Of all visits (of all bytes, in the bandwidth panel), 0 to 1.
    public var share: Double
    /// The bytes sent, in the panels that count them.
    public var bytes: Int?
  }

  /// The name in JSON and CSV: `pages`, `status`, `status-classes`, `not-found`,
  /// `referring-sites`, `referrers`, `hours`, `days`, `bandwidth`, `clients`.
  public var key: String
  public var title: String
  /// What a row names: "page", "status", "hour"…
  public var nameHeader: String
  public var rows: [Row]
  /// Rows in time order (hours, days) rather than ranked.
  public var isTimeline: Bool
  /// Whether the shares are of the bytes (bandwidth).
  public var sharesBytes: Bool
}

extension PanelReport {
  /// The panels counted, in the order they are shown, each as one section or two (status and
  /// its classes, referring sites and pages, hours and days).
  public var sections: [PanelSection] {
    func section(
      _ key: String, _ title: String, _ nameHeader: String, _ rows: [PanelRow],
      timeline: Bool = false, ofBytes: Bool = false
    ) -> PanelSection {
      let whole = ofBytes ? bytes : visits
      return PanelSection(
        key: key, title: title, nameHeader: nameHeader,
        rows: rows.map { row in
          let part = ofBytes ? row.bytes ?? 0 : row.count
          return PanelSection.Row(
            name: row.name, count: row.count,
            share: whole > 0 ? Double(part) / Double(whole) : 0, bytes: row.bytes)
        }, isTimeline: timeline, sharesBytes: ofBytes)
    }
    var sections: [PanelSection] = []
    if panels.contains(.pages) { sections.append(section("pages", "Pages", "page", pages)) }
    if panels.contains(.status) {
      sections.append(section("status", "Status codes", "status", statuses))
      sections.append(section("status-classes", "Status classes", "class", statusClasses))
    }
    if panels.contains(.notFound) {
      sections.append(section("not-found", "Pages not found (404)", "page", notFound))
    }
    if panels.contains(.referrers) {
      sections.append(section("referring-sites", "Referring sites", "site", referringSites))
      sections.append(section("referrers", "Referring pages", "referrer", referrers))
    }
    if panels.contains(.hours) {
      sections.append(section("hours", "Visits by hour of day", "hour", hours, timeline: true))
      sections.append(section("days", "Visits by day", "day", days, timeline: true))
    }
    if panels.contains(.bandwidth) {
      sections.append(
        section(
          "bandwidth", "Bandwidth by page (shares of the bytes)", "page", bandwidth, ofBytes: true))
    }
    if panels.contains(.clients) {
      sections.append(section("clients", "Clients", "client", clients))
    }
    return sections
  }
}
