/// The result of an analysis: a whole partial result, or a layered one (a `--state` run's,
/// whose earlier lines stayed on disk).
public enum AnalysisOutcome: Sendable {
  case whole(Partial)
  case layered(LayeredResult)

  /// What the screens and reports show.
  public var result: any RankedAnalysis {
    switch self {
    case .whole(let partial): partial
    case .layered(let layered): layered
    }
  }
}
