import LogFormats

extension LineLayout {
  /// Throws when `options` need a field that this format does not have.
  func check(_ options: AnalysisOptions) throws(AnalysisOptionError) {
    let (time, userAgent, status): (Bool, Bool, Bool) =
      switch self {
      case .apache(let layout): (layout.hasTime, layout.hasUserAgent, layout.hasStatus)
      case .w3c(let layout): (layout.hasTime, layout.hasUserAgent, layout.hasStatus)
      case .json: (true, true, true)
      case .haproxy: (true, false, true)
      }
    if options.needsTime, case .w3c(let layout) = self, layout.lacksDate {
      throw AnalysisOptionError(
        "the W3C log's #Fields header names a time but no date (add the date field to the "
          + "server's log, or analyze without options that need the time)")
    }
    if options.needsTime && !time {
      throw AnalysisOptionError("the log format has no time (%t, or W3C date and time)")
    }
    if (options.client == .addressAndUserAgent || options.filters.excludeBots) && !userAgent {
      throw AnalysisOptionError(
        "the log format has no user agent (%{User-Agent}i, or W3C cs(User-Agent))")
    }
    if options.filters.statuses != nil && !status {
      throw AnalysisOptionError("the log format has no status (%>s, or W3C sc-status)")
    }
  }
}
