/// What a report shows: an analysis result in plain values, so that any analysis (or a test)
/// can fill it.
public struct ReportData: Sendable, Equatable {
  /// One ranked sequence, or one entry or exit page.
  public struct Row: Sendable, Equatable {
    public var pages: [String]
    public var count: Int
    /// Of all occurrences, all clients, or all paths: a fraction, 0 to 1.
    public var share: Double

    public init(pages: [String], count: Int, share: Double) {
      self.pages = pages
      self.count = count
      self.share = share
    }
  }

  public var inputs: [String]
  public var lines: Int
  public var malformedLines: Int
  public var firstMalformedLine: String?
  public var clients: Int
  public var distinctSequences: Int
  /// The first and last visit times read, in seconds since 1970; nil when none were read.
  public var timeRange: ClosedRange<Int64>?
  /// The options the analysis was made with, as `--name value` words, for the summary.
  public var options: [String]
  /// Pages per sequence.
  public var length: Int
  /// Whether counts are distinct clients rather than occurrences.
  public var countsClients: Bool
  /// The ranking, most common first, as the table shows it.
  public var sequences: [Row]
  /// The sequences the flow diagram draws: the top ones (20 by default).
  public var flow: [Row]
  /// With a session gap: the entry and exit pages of the paths, most common first.
  public var entries: [Row]?
  public var exits: [Row]?

  public init(
    inputs: [String], lines: Int, malformedLines: Int, firstMalformedLine: String?, clients: Int,
    distinctSequences: Int, timeRange: ClosedRange<Int64>?, options: [String], length: Int,
    countsClients: Bool, sequences: [Row], flow: [Row], entries: [Row]? = nil,
    exits: [Row]? = nil
  ) {
    self.inputs = inputs
    self.lines = lines
    self.malformedLines = malformedLines
    self.firstMalformedLine = firstMalformedLine
    self.clients = clients
    self.distinctSequences = distinctSequences
    self.timeRange = timeRange
    self.options = options
    self.length = length
    self.countsClients = countsClients
    self.sequences = sequences
    self.flow = flow
    self.entries = entries
    self.exits = exits
  }
}
