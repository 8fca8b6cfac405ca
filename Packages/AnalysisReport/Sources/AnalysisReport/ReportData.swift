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

  /// A panel beside the sequences (pages, statuses, hours…): its rows ranked, or in time
  /// order (drawn as columns).
  public struct Panel: Sendable, Equatable {
    public struct Row: Sendable, Equatable {
      public var name: String
      public var count: Int
      /// Of all visits (of all bytes, when `sharesBytes`), 0 to 1.
      public var share: Double
      /// The bytes sent, in panels that count them.
      public var bytes: Int?

      public init(name: String, count: Int, share: Double, bytes: Int? = nil) {
        self.name = name
        self.count = count
        self.share = share
        self.bytes = bytes
      }
    }

    public var title: String
    /// What a row names: "page", "status", "hour"…
    public var nameHeader: String
    public var rows: [Row]
    public var isTimeline: Bool
    public var sharesBytes: Bool

    public init(
      title: String, nameHeader: String, rows: [Row], isTimeline: Bool = false,
      sharesBytes: Bool = false
    ) {
      self.title = title
      self.nameHeader = nameHeader
      self.rows = rows
      self.isTimeline = isTimeline
      self.sharesBytes = sharesBytes
    }
  }

  /// How far the paths went through a funnel: its steps in order.
  public struct Funnel: Sendable, Equatable {
    public struct Step: Sendable, Equatable {
      /// The step's page or glob.
      public var page: String
      /// Paths that reached it, after the steps before.
      public var paths: Int
      /// Of the paths that reached the first step, 0 to 1.
      public var share: Double
      /// Paths that reached the step before but not this one.
      public var dropOff: Int
      /// The median time from the step before, as text (`4m 05s`); nil for the first step,
      /// or when no path reached this one.
      public var medianTime: String?

      public init(page: String, paths: Int, share: Double, dropOff: Int, medianTime: String?) {
        self.page = page
        self.paths = paths
        self.share = share
        self.dropOff = dropOff
        self.medianTime = medianTime
      }
    }

    /// All the paths, those that reached no step too.
    public var paths: Int
    public var steps: [Step]

    public init(paths: Int, steps: [Step]) {
      self.paths = paths
      self.steps = steps
    }
  }

  public var inputs: [String]
  public var lines: Int
  public var malformedLines: Int
  /// Visits whose request names no page (nginx's `-`, a scanner's junk).
  public var unreadableRequests = 0
  public var firstMalformedLine: String?
  /// Every client of the visits, `clientsWithoutPage` of them with no page.
  public var clients: Int
  /// The clients whose every visit named no page (a scanner's, a health check's).
  public var clientsWithoutPage = 0
  public var distinctSequences: Int
  /// The first and last visit times read, in seconds since 1970; nil when none were read.
  public var timeRange: ClosedRange<Int64>?
  /// How far east of UTC (in seconds) the log wrote the first and the last time: the summary
  /// says the range in the log's own clock, as the day and hour panels count it.
  public var earliestOffset: Int64 = 0
  public var latestOffset: Int64 = 0
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
  /// The panels counted, in the order they are shown (none by default).
  public var panels: [Panel] = []
  /// The bytes of all visits, with a bandwidth panel.
  public var bytes: Int?
  /// With a funnel: how far the paths went through it.
  public var funnel: Funnel?

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
