import Dispatch

/// The analysis of a contiguous part of a log, in a form that merges: `a.append(b)` gives the
/// analysis of a's lines followed by b's, so chunks analysed in parallel, or shards analysed
/// anywhere, add up to exactly the result of one pass.
public struct Partial: Sendable {
  public let options: AnalysisOptions
  public internal(set) var lines = 0
  /// The most lines a partial result may hold, alone or merged: 2⁴⁸, far beyond any log, and
  /// small enough that no sum of counts overflows.
  public static let maxLines = 1 << 48
  /// The times a partial may hold, in seconds since 1970: what the logs can say (dates from
  /// the year 0, at -6.2e10 s, and epoch numbers of up to 18 digits, below 2^60), and narrow
  /// enough that the difference of two never overflows.
  static let timeBounds: ClosedRange<Int64> = -(1 << 40)...(1 << 60)
  public internal(set) var malformedLines = 0
  /// Lines that read but were left out by the options' filters (`--status`, `--since`,
  /// `--exclude-bots`, `--exclude-static`, …).
  public internal(set) var filteredLines = 0
  /// `#` lines of a log that is not W3C: passed over, not counted as lines. (Blank lines are
  /// not counted at all.)
  public internal(set) var commentLines = 0
  /// Lines that read but whose request names no page (`RequestLine`: nginx's `-` for a
  /// connection that sent none, a scanner's junk): counted as visits in the panels (status,
  /// bytes, time, referrer), never as pages.
  public internal(set) var unreadableRequests = 0
  /// The name of the format the lines were read in (`LogFormat.name`); nil when it is not
  /// known (merged from partials read in different formats).
  public package(set) var formatName: String?
  /// The start of the first malformed line (at most `malformedSampleLength` bytes).
  var firstMalformed: [UInt8]?
  static let malformedSampleLength = 200
  /// The first and last times of the visits counted, in seconds since 1970, when times were
  /// read (`readingTimes`, or options that need them).
  public internal(set) var timeRange: ClosedRange<Int64>?
  /// The offsets from UTC that the first and last times were written in (format 11 on).
  public internal(set) var timeRangeOffsets = TimeRangeOffsets()
  /// Where this part came from, when it was written to be merged (see `PartialSource`).
  public var source: PartialSource?

  var pages = Interner()
  var clients: Clients
  /// The clients of the visits that named no page (`unreadableRequests`), also those that
  /// named one elsewhere: `clientsWithoutPage` counts the others.
  var pagelessClients = Interner()
  /// Occurrences of each sequence; with `uniqueClients`, the clients behind each.
  var windows: WindowTable
  /// With `uniqueClients`: each distinct sequence and client, the client's id after the pages.
  var pairs: WindowTable
  /// What `options.panels` count.
  var panels: PanelCounts
  /// What `options.funnel` counts; empty without one.
  var funnelCounts: FunnelCounts

  public init(options: AnalysisOptions) {
    self.options = options
    clients = Clients(length: options.length, sessionGap: options.sessionGap)
    windows = WindowTable(width: options.length)
    pairs = WindowTable(width: options.length + 1)
    panels = PanelCounts(panels: options.panels)
    funnelCounts = FunnelCounts(steps: options.funnel, sessionGap: options.sessionGap)
  }

  /// The clients that visited a page.
  public var clientCount: Int { clients.count }

  /// The clients whose every visit named no page (a scanner's, a health check's): beside
  /// `clientCount`, they make every client of the log.
  public var clientsWithoutPage: Int {
    pagelessClients.ids(in: clients.names).count { $0 < 0 }
  }

  /// The first malformed line (its first 200 bytes), invalid UTF-8 replaced.
  public var firstMalformedLine: String? {
    firstMalformed.map { String(decoding: $0, as: UTF8.self) }
  }
  public var distinctSequences: Int { windows.count }

  /// What the counts are shares of: all occurrences, or (with `uniqueClients`) all clients.
  public var total: Int {
    options.uniqueClients ? clients.count : windows.total
  }

  /// Adds `amount` occurrences of the sequence at `ids`, whose hash is `hash`, to its shard;
  /// with `unique`, `ids` carries the client after the pages, the sequence counts once per
  /// client, and `pairHash` is the hash of the two (nil: computed here).
  static func tally(
    _ ids: UnsafePointer<Int32>, hash: UInt64, pairHash: UInt64? = nil, amount: Int,
    hasher: SequenceHasher, unique: Bool, windows: inout Shard, pairs: inout Shard
  ) {
    if !unique {
      windows.add(ids, hash: hash, amount: amount)
    } else if pairs.add(ids, hash: pairHash ?? hasher.pair(ids), amount: 1) {
      windows.add(ids, hash: hash, amount: 1)
    }
  }

  /// Adds `amount` occurrences of the sequence in `ids` (its pages, then a client); returns
  /// whether the sequence (or, with `uniqueClients`, the sequence and client) is new.
  mutating func add(_ ids: [Int32], amount: Int) -> Bool {
    let before = options.uniqueClients ? pairs.count : windows.count
    ids.withUnsafeBufferPointer { add($0, width: $0.count, amount: amount) }
    return (options.uniqueClients ? pairs.count : windows.count) > before
  }

  /// Adds `amount` occurrences of each sequence in `ids`, `width` ids each: its pages, then
  /// a client (needed with `uniqueClients` only). The sequences are put in the order of their
  /// shards, then each shard's are added on one core, every shard on every core (a merge's
  /// sequences that span its two parts are a few million with many clients).
  mutating func add(_ ids: UnsafeBufferPointer<Int32>, width: Int, amount: Int) {
    let unique = options.uniqueClients
    SequenceHasher.with(
      length: options.length, pages: pages.hashes, clients: clients.names.hashes
    ) { hasher in
      let hashes = stride(from: 0, to: ids.count, by: width).map {
        hasher.sequence(ids.baseAddress! + $0)
      }
      let (starts, order) = WindowTable.byShard(hashes)
      windows.shards.withUnsafeMutableBufferPointer { windowShards in
        pairs.shards.withUnsafeMutableBufferPointer { pairShards in
          // Safe: each iteration changes only its own shard of each table and reads the rest.
          nonisolated(unsafe) let windowShards = windowShards
          nonisolated(unsafe) let pairShards = pairShards
          nonisolated(unsafe) let (ids, hasher) = (ids, hasher)
          DispatchQueue.concurrentPerform(iterations: WindowTable.shardCount) { shard in
            let positions = starts[shard]..<starts[shard + 1]
            for position in positions {
              let ahead = position + Tuning.prefetchDistance
              if !unique && ahead < positions.upperBound {
                windowShards[shard].prefetch(hash: hashes[order[ahead]])
              }
              let index = order[position]
              Self.tally(
                ids.baseAddress! + index * width, hash: hashes[index], amount: amount,
                hasher: hasher, unique: unique, windows: &windowShards[shard],
                pairs: &pairShards[shard])
            }
          }
        }
      }
    }
  }
}

extension Partial {
  /// What the partial's file says of it before its tables: its options, source and counts.
  var header: PartialHeader {
    PartialHeader(
      options: options, source: source, lines: lines, malformedLines: malformedLines,
      filteredLines: filteredLines, commentLines: commentLines,
      unreadableRequests: unreadableRequests, timeRangeOffsets: timeRangeOffsets,
      formatName: formatName, firstMalformed: firstMalformed, timeRange: timeRange)
  }

  /// Sets all that `header` says but the options, which are the partial's own.
  mutating func setHeader(_ header: PartialHeader) {
    source = header.source
    lines = header.lines
    malformedLines = header.malformedLines
    filteredLines = header.filteredLines
    commentLines = header.commentLines
    unreadableRequests = header.unreadableRequests
    timeRangeOffsets = header.timeRangeOffsets
    formatName = header.formatName
    firstMalformed = header.firstMalformed
    timeRange = header.timeRange
  }

  /// Adds a visit's time to the range; `offset` (of the line's zone) is asked for only when
  /// the time is a new first or last.
  @inline(__always)
  mutating func include(_ seconds: Int64, offset: () -> Int64) {
    guard let range = timeRange else {
      timeRange = seconds...seconds
      let zone = offset()
      timeRangeOffsets = TimeRangeOffsets(earliest: zone, latest: zone)
      return
    }
    if seconds < range.lowerBound {
      timeRange = seconds...range.upperBound
      timeRangeOffsets.earliest = offset()
    } else if seconds > range.upperBound {
      timeRange = range.lowerBound...seconds
      timeRangeOffsets.latest = offset()
    }
  }
}

extension ClosedRange<Int64>? {
  /// The smallest range that holds this one (when there is one) and `other`.
  func including(_ other: ClosedRange<Int64>) -> ClosedRange<Int64> {
    guard let self else { return other }
    return Swift.min(
      self.lowerBound, other.lowerBound)...Swift.max(self.upperBound, other.upperBound)
  }
}
