/// A funnel's counts in a partial file (format 10), after the panels: the paths ended per step
/// reached, the seconds between steps, and per client (in the order the file writes its
/// clients) its times, whether its first path ended, its tail, and its head's row. Empty
/// without a funnel.
struct FunnelSections {
  var ended = WordView<Int>()
  /// Per step after the first, how many (seconds, count) pairs it has; then all the pairs.
  var durationCounts = WordView<Int>()
  var durations = WordView<Int64>()
  var first = WordView<Int64>()
  var last = WordView<Int64>()
  var closed = WordView<UInt8>()
  var tailSteps = WordView<UInt8>()
  var tailTimes = WordView<Int64>()
  var headRows = WordView<Int32>()
  var heads = WordView<Int64>()

  init() {}

  init(reading input: inout ByteReader) throws {
    ended = try input.view(of: Int.self)
    durationCounts = try input.view(of: Int.self)
    durations = try input.view(of: Int64.self)
    first = try input.view(of: Int64.self)
    last = try input.view(of: Int64.self)
    closed = try input.view(of: UInt8.self)
    tailSteps = try input.view(of: UInt8.self)
    tailTimes = try input.view(of: Int64.self)
    headRows = try input.view(of: Int32.self)
    heads = try input.view(of: Int64.self)
  }
}

extension ByteWriter {
  /// Writes what `FunnelSections` reads of `counts`, the clients in `clientOrder` when given.
  mutating func funnel(_ counts: FunnelCounts, clientOrder: [Int32]?) {
    array(counts.ended)
    let durations = counts.durations.map { $0.sorted { $0.key < $1.key } }
    array(durations.map(\.count))
    array(durations.flatMap { $0.flatMap { [$0.key, Int64($0.value)] } })
    let order =
      counts.isEmpty ? [] : clientOrder.map { $0.map(Int.init) } ?? Array(0..<counts.clientCount)
    array(order.map { counts.first[$0] })
    array(order.map { counts.last[$0] })
    array(order.map { counts.closed[$0] ? UInt8(1) : 0 })
    array(order.map { counts.tailSteps[$0] })
    array(order.map { counts.tailTimes[$0] })
    // The rows of the heads in the order of their clients.
    var (rows, heads) = ([Int32](), [Int64]())
    let width = counts.rowWidth
    for client in order {
      let row = Int(counts.headRows[client])
      rows.append(row < 0 ? -1 : Int32(heads.count / width))
      if row >= 0 { heads += counts.heads[row * width..<(row + 1) * width] }
    }
    array(rows)
    array(heads)
  }
}

extension FunnelCounts {
  /// The counts `sections` hold, checked: the tables of the funnel of `options` (none without
  /// one), `clientCount` clients, steps within the funnel's, times within those a log can
  /// say, and no more paths or steps than `visits`.
  init(_ sections: FunnelSections, options: AnalysisOptions, clientCount: Int, visits: Int)
    throws(PartialFileError)
  {
    self.init(steps: options.funnel, sessionGap: options.sessionGap)
    let fail = { (what: String) in
      PartialFileError(description: "the funnel's \(what) are out of range")
    }
    let stepCount = steps.count
    let clients = stepCount == 0 ? 0 : clientCount
    guard sections.ended.count == (stepCount == 0 ? 0 : stepCount + 1),
      sections.durationCounts.count == durations.count, sections.first.count == clients,
      sections.last.count == clients, sections.closed.count == clients,
      sections.tailSteps.count == clients, sections.tailTimes.count == clients,
      sections.headRows.count == clients, sections.heads.count % max(1, rowWidth) == 0
    else { throw fail("tables") }
    func within(_ count: Int, _ sum: inout Int) -> Bool {
      sum += min(count, visits + 1)
      return count >= 0 && sum <= visits
    }
    var sum = 0
    ended = sections.ended.array()
    guard ended.allSatisfy({ within($0, &sum) }) else { throw fail("paths") }
    let pairs = sections.durations.array()
    var (index, steps) = (0, 0)
    for (step, count) in sections.durationCounts.array().enumerated() {
      guard count >= 0, count <= (pairs.count - index) / 2 else { throw fail("times") }
      for _ in 0..<count {
        let (seconds, amount) = (pairs[index], Int(pairs[index + 1]))
        let span = Partial.timeBounds.upperBound - Partial.timeBounds.lowerBound
        guard (-span...span).contains(seconds), amount > 0, within(amount, &steps),
          durations[step].updateValue(amount, forKey: seconds) == nil
        else { throw fail("times") }
        index += 2
      }
    }
    guard index == pairs.count else { throw fail("times") }
    first = sections.first.array()
    last = sections.last.array()
    closed = sections.closed.array().map { $0 == 1 }
    tailSteps = sections.tailSteps.array()
    tailTimes = sections.tailTimes.array()
    headRows = sections.headRows.array()
    heads = sections.heads.array()
    let rows = heads.count / max(1, rowWidth)
    let bounds = Partial.timeBounds
    // Each row is one client's.
    var used = [Bool](repeating: false, count: rows)
    for client in 0..<clients where headRows[client] >= 0 && headRows[client] < rows {
      guard !used[Int(headRows[client])] else { throw fail("clients") }
      used[Int(headRows[client])] = true
    }
    for client in 0..<clients {
      guard bounds.contains(first[client]), bounds.contains(last[client]),
        first[client] <= last[client], sections.closed[client] <= 1,
        Int(tailSteps[client]) <= stepCount,
        tailTimes[client] == 0 || bounds.contains(tailTimes[client]),
        (-1..<rows).contains(Int(headRows[client]))
      else { throw fail("clients") }
    }
    for row in 0..<rows {
      for start in 0..<stepCount {
        let base = row * rowWidth + slot(start)
        let count = heads[base]
        guard (0...Int64(stepCount - start)).contains(count) else { throw fail("clients") }
        for time in heads[(base + 1)..<(base + 1 + Int(count))] where !bounds.contains(time) {
          throw fail("clients")
        }
      }
    }
  }
}
