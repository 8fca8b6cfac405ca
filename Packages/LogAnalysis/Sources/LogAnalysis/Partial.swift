import Foundation

/// The analysis of a contiguous part of a log, in a form that merges: `a.append(b)` gives the
/// analysis of a's lines followed by b's, so chunks analysed in parallel, or shards analysed
/// anywhere, add up to exactly the result of one pass.
public struct Partial: Sendable {
  public let options: AnalysisOptions
  public internal(set) var lines = 0
  public internal(set) var malformedLines = 0

  var pages = Interner()
  var clients = Interner()
  /// Per client, in flat arrays of `length - 1` slots: its first pages, and its last pages
  /// (oldest first), with how many of each are set, and how many pages it visited.
  var heads: [Int32] = []
  var headCounts: [Int8] = []
  var tails: [Int32] = []
  var tailCounts: [Int8] = []
  var visits: [Int] = []
  /// Occurrences of each sequence; with `uniqueClients`, the clients behind each entry.
  var windows: WindowTable
  var producers: [Set<Int32>] = []

  public init(options: AnalysisOptions) {
    self.options = options
    windows = WindowTable(length: options.length)
  }

  public var clientCount: Int { clients.count }
  public var distinctSequences: Int { windows.count }

  /// What the counts are shares of: all occurrences, or (with `uniqueClients`) all clients.
  public var total: Int { options.uniqueClients ? clients.count : windows.counts.reduce(0, +) }

  private var keep: Int { options.length - 1 }

  // MARK: Reading lines

  /// Analyses the lines in `bytes`. The last line may lack its newline; a line's trailing
  /// `\r` is dropped.
  mutating func read(_ bytes: UnsafeRawBufferPointer) {
    var start = 0
    let count = bytes.count
    let newline = UInt8(ascii: "\n")
    while start < count {
      var end: Int
      if let found = memchr(bytes.baseAddress! + start, Int32(newline), count - start) {
        end = bytes.baseAddress!.distance(to: UnsafeRawPointer(found))
      } else {
        end = count
      }
      let next = end + 1
      if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
      read(line: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
      start = next
    }
  }

  private mutating func read(line: UnsafeRawBufferPointer) {
    lines += 1
    switch LineParser.parse(line, options: options) {
    case .malformed:
      malformedLines += 1
    case .skipped:
      break
    case .visit(let client, let page):
      let clientID = clients.intern(UnsafeRawBufferPointer(rebasing: line[client]))
      let pageID = pages.intern(UnsafeRawBufferPointer(rebasing: line[page]))
      visit(client: Int(clientID), page: pageID)
    }
  }

  /// Makes room for client `index` when it is new.
  private mutating func addClient(_ index: Int) {
    guard index == visits.count else { return }
    heads.append(contentsOf: repeatElement(-1, count: keep))
    tails.append(contentsOf: repeatElement(-1, count: keep))
    headCounts.append(0)
    tailCounts.append(0)
    visits.append(0)
  }

  private mutating func visit(client: Int, page: Int32) {
    addClient(client)
    let keep = self.keep
    let base = client * keep
    var window = (
      Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0),
      Int32(0), Int32(0)
    )
    if Int(tailCounts[client]) == keep {
      withUnsafeMutableBytes(of: &window) { raw in
        let ids = raw.bindMemory(to: Int32.self)
        for index in 0..<keep { ids[index] = tails[base + index] }
        ids[keep] = page
        record(UnsafeBufferPointer(rebasing: ids[0...keep]), by: Int32(client))
      }
      for index in 0..<(keep - 1) { tails[base + index] = tails[base + index + 1] }
      tails[base + keep - 1] = page
    } else {
      tails[base + Int(tailCounts[client])] = page
      tailCounts[client] += 1
    }
    if Int(headCounts[client]) < keep {
      heads[base + Int(headCounts[client])] = page
      headCounts[client] += 1
    }
    visits[client] += 1
  }

  private mutating func record(_ ids: UnsafeBufferPointer<Int32>, by client: Int32) {
    let entry = windows.add(ids)
    if options.uniqueClients {
      if entry == producers.count { producers.append([]) }
      producers[entry].insert(client)
    }
  }

  /// Sets a client's state as read from a serialized partial.
  mutating func restoreClient(_ client: Int, visits count: Int, head: [Int32], tail: [Int32]) {
    addClient(client)
    let base = client * keep
    for (offset, page) in head.enumerated() { heads[base + offset] = page }
    for (offset, page) in tail.enumerated() { tails[base + offset] = page }
    headCounts[client] = Int8(head.count)
    tailCounts[client] = Int8(tail.count)
    visits[client] = count
  }

  func head(_ client: Int) -> ArraySlice<Int32> {
    heads[client * keep..<client * keep + Int(headCounts[client])]
  }

  func tail(_ client: Int) -> ArraySlice<Int32> {
    tails[client * keep..<client * keep + Int(tailCounts[client])]
  }

  // MARK: Merging

  /// Adds the analysis of the lines that follow this part.
  public mutating func append(_ next: Partial) {
    precondition(next.options == options, "partials of different options do not merge")
    lines += next.lines
    malformedLines += next.malformedLines
    let pageMap = (0..<Int32(next.pages.count)).map { pages.intern(next.pages.bytes($0)) }
    let clientMap = (0..<Int32(next.clients.count)).map { clients.intern(next.clients.bytes($0)) }

    var ids = [Int32](repeating: 0, count: options.length)
    for entry in 0..<next.windows.count {
      for (index, id) in next.windows.key(entry).enumerated() { ids[index] = pageMap[Int(id)] }
      let merged = ids.withUnsafeBufferPointer {
        windows.add($0, amount: next.windows.counts[entry])
      }
      if options.uniqueClients {
        if merged == producers.count { producers.append([]) }
        producers[merged].formUnion(next.producers[entry].map { clientMap[Int($0)] })
      }
    }

    let keep = self.keep
    for old in next.visits.indices {
      let index = Int(clientMap[old])
      let head = next.head(old).map { pageMap[Int($0)] }
      let tail = next.tail(old).map { pageMap[Int($0)] }
      let isNew = index == visits.count
      addClient(index)
      if !isNew {
        // The sequences that start in this part and end in the next.
        let joined = Array(self.tail(index)) + head
        let straddling = Int(tailCounts[index])
        for start in 0..<straddling where start + options.length <= joined.count {
          joined[start..<start + options.length].withUnsafeBufferPointer {
            record($0, by: Int32(index))
          }
        }
      }
      let newHead = Array((Array(self.head(index)) + head).prefix(keep))
      let newTail = Array((Array(self.tail(index)) + tail).suffix(keep))
      for (offset, page) in newHead.enumerated() { heads[index * keep + offset] = page }
      for (offset, page) in newTail.enumerated() { tails[index * keep + offset] = page }
      headCounts[index] = Int8(newHead.count)
      tailCounts[index] = Int8(newTail.count)
      visits[index] += next.visits[old]
    }
  }

  // MARK: Results

  /// The sequences, most common first; ties in the order of their pages compared as bytes.
  /// `top` 0 returns them all.
  public func ranking(top: Int) -> [RankedSequence] {
    let counts = options.uniqueClients ? producers.map(\.count) : windows.counts
    var entries = Array(counts.indices)
    let pageBytes = (0..<Int32(pages.count)).map { Array(pages.bytes($0)) }
    let windows = self.windows
    func precedes(_ a: Int, _ b: Int) -> Bool {
      for (left, right) in zip(windows.key(a), windows.key(b)) where left != right {
        return pageBytes[Int(left)].lexicographicallyPrecedes(pageBytes[Int(right)])
      }
      return false
    }
    func ranksHigher(_ a: Int, _ b: Int) -> Bool {
      counts[a] != counts[b] ? counts[a] > counts[b] : precedes(a, b)
    }
    if top > 0 && top < entries.count {
      // Keep the best `top` in order, in one pass.
      var best: [Int] = []
      best.reserveCapacity(top + 1)
      for entry in entries where best.count < top || ranksHigher(entry, best[top - 1]) {
        var low = 0
        var high = best.count
        while low < high {
          let middle = (low + high) / 2
          if ranksHigher(best[middle], entry) { low = middle + 1 } else { high = middle }
        }
        best.insert(entry, at: low)
        if best.count > top { best.removeLast() }
      }
      entries = best
    } else {
      entries.sort(by: ranksHigher)
    }
    let kept = entries[...]
    return kept.map { entry in
      RankedSequence(pages: windows.key(entry).map { pageBytes[Int($0)] }, count: counts[entry])
    }
  }
}

/// One line of the result: a sequence of pages (as bytes) and its count.
public struct RankedSequence: Equatable, Sendable {
  public var pages: [[UInt8]]
  public var count: Int

  public init(pages: [[UInt8]], count: Int) {
    self.pages = pages
    self.count = count
  }

  /// The pages as text, invalid UTF-8 replaced.
  public var pageTexts: [String] { pages.map { String(decoding: $0, as: UTF8.self) } }
}
