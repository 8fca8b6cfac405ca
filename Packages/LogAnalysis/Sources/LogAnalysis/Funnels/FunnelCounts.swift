/// What a funnel counts of a part of a log, such that parts join exactly: the paths that
/// ended in the part, by the steps they reached, the seconds between steps, and per client
/// what joining the part to the one before needs.
///
/// A path is matched greedily: it reaches step `k + 1` at its first visit of a page of that
/// step after it reached step `k`. A client's first path in a part may have begun in the part
/// before, at any step: so for each step it may have reached there, the part keeps the times
/// at which it reaches the next ones (its head). When a gap ends that path within the part,
/// the path begun after the last gap is kept as the step it reached and when (its tail); the
/// paths between are counted.
struct FunnelCounts: Sendable {
  let steps: FunnelSteps
  let sessionGap: Int64?
  /// Per page id: the steps it is a page of (`FunnelSteps.mask`), learnt as visits are read
  /// (`learn`); joining parts needs none.
  var masks: [UInt16] = []
  /// Paths that ended, by how many steps they reached (0 to the step count).
  var ended: [Int]
  /// Per step after the first: how many paths took how many seconds from the step before.
  var durations: [[Int64: Int]]
  /// Per client: the times of its first and last visits.
  var first: [Int64] = []
  var last: [Int64] = []
  /// Per client: whether a gap ended its first path within the part.
  var closed: [Bool] = []
  /// Per client: its row in `heads`, or -1 when its first path reached no step yet from any
  /// step it may have begun at.
  var headRows: [Int32] = []
  /// Rows of `rowWidth` words: for each step `s` a path may have reached before the part
  /// (0 to count - 1), how many steps it reaches in the part, then the times it reaches them.
  var heads: [Int64] = []
  /// Per client, when `closed`: the steps its current path reached, and when it reached the
  /// last.
  var tailSteps: [UInt8] = []
  var tailTimes: [Int64] = []

  init(steps: [String], sessionGap: Int64?) {
    self.steps = FunnelSteps(steps)
    self.sessionGap = sessionGap
    ended = steps.isEmpty ? [] : Array(repeating: 0, count: steps.count + 1)
    durations = Array(repeating: [:], count: max(0, steps.count - 1))
  }

  var isEmpty: Bool { steps.count == 0 }
  var clientCount: Int { first.count }

  /// Words per row of `heads`: for each step `s`, a count and room for `count - s` times.
  var rowWidth: Int { steps.count + steps.count * (steps.count + 1) / 2 }

  /// Where the count of step `s` lies in a row; its times follow it.
  func slot(_ step: Int) -> Int {
    step * (steps.count + 1) - step * (step - 1) / 2
  }

  /// Notes the masks of pages interned since, up to `pages.count`.
  mutating func learn(_ pages: Interner) {
    while masks.count < pages.count {
      masks.append(pages.bytes(Int32(masks.count)).withUnsafeBytes { steps.mask(of: $0) })
    }
  }

  /// Adds a visit of `client` (the next new one, or one seen) to the page `page` at `time`.
  mutating func visit(client: Int, page: Int32, time: Int64) {
    if client == first.count {
      first.append(time)
      last.append(time)
      closed.append(false)
      headRows.append(-1)
      tailSteps.append(0)
      tailTimes.append(0)
    } else if let sessionGap, time - last[client] > sessionGap {
      if closed[client] {
        ended[Int(tailSteps[client])] += 1
      } else {
        closed[client] = true
      }
      tailSteps[client] = 0
      tailTimes[client] = 0
    }
    last[client] = time
    let mask = masks[Int(page)]
    guard mask != 0 else { return }
    if closed[client] {
      let step = Int(tailSteps[client])
      guard step < steps.count, mask & 1 << step != 0 else { return }
      if step > 0 { durations[step - 1][time - tailTimes[client], default: 0] += 1 }
      tailSteps[client] += 1
      tailTimes[client] = time
      return
    }
    for start in 0..<steps.count {
      let reached = start + head(client, from: start).count
      guard reached < steps.count, mask & 1 << reached != 0 else { continue }
      reach(client, from: start, at: time)
    }
  }

  /// Notes that `client`'s first path, had it reached step `start` before the part, reaches
  /// its next step at `time`.
  private mutating func reach(_ client: Int, from start: Int, at time: Int64) {
    if headRows[client] < 0 {
      headRows[client] = Int32(heads.count / rowWidth)
      heads.append(contentsOf: repeatElement(0, count: rowWidth))
    }
    let row = Int(headRows[client]) * rowWidth + slot(start)
    heads[row + 1 + Int(heads[row])] = time
    heads[row] += 1
  }

  /// The times at which `client`'s first path reaches the steps after `step`, when it had
  /// reached `step` before the part.
  func head(_ client: Int, from step: Int) -> ArraySlice<Int64> {
    guard step < steps.count, headRows[client] >= 0 else { return [] }
    let row = Int(headRows[client]) * rowWidth + slot(step)
    return heads[(row + 1)..<(row + 1 + Int(heads[row]))]
  }

  /// Carries a path that reached `step` at `time` through the times `head` at which it
  /// reaches the next steps: counts the seconds between them; returns the step reached and
  /// when.
  mutating func follow(_ head: ArraySlice<Int64>, from step: Int, at time: Int64) -> (Int, Int64) {
    var (step, time) = (step, time)
    for next in head {
      if step > 0 { durations[step - 1][next - time, default: 0] += 1 }
      step += 1
      time = next
    }
    return (step, time)
  }

  /// Adds the part that follows, whose clients are these by `clientMap` (the next one's id
  /// here for each of its clients; new ones numbered after these, in order).
  mutating func append(_ next: FunnelCounts, clientMap: [Int32]) {
    for (step, count) in next.ended.enumerated() { ended[step] += count }
    for (step, table) in next.durations.enumerated() {
      durations[step].merge(table, uniquingKeysWith: +)
    }
    for old in 0..<next.clientCount {
      let client = Int(clientMap[old])
      if client >= clientCount {
        precondition(client == clientCount, "new clients are numbered in order")
        first.append(next.first[old])
        last.append(next.last[old])
        closed.append(next.closed[old])
        tailSteps.append(next.tailSteps[old])
        tailTimes.append(next.tailTimes[old])
        headRows.append(-1)
        if next.headRows[old] >= 0 {
          headRows[client] = Int32(heads.count / rowWidth)
          let row = Int(next.headRows[old]) * rowWidth
          heads.append(contentsOf: next.heads[row..<row + rowWidth])
        }
        continue
      }
      join(client, with: next, old)
    }
  }

  /// Joins client `old` of the part that follows to `client` here.
  private mutating func join(_ client: Int, with next: FunnelCounts, _ old: Int) {
    let gap = sessionGap.map { next.first[old] - last[client] > $0 } ?? false
    last[client] = next.last[old]
    if closed[client] || gap {
      // The path here goes on (or, after a gap, ends and a new one begins) into the next
      // part's first path, which is known from where it begins.
      var (step, time) = (Int(tailSteps[client]), tailTimes[client])
      if !closed[client] {
        (step, time) = (0, 0)
        closed[client] = true
      } else if gap {
        ended[step] += 1
        (step, time) = (0, 0)
      }
      (step, time) = follow(next.head(old, from: step), from: step, at: time)
      if next.closed[old] {
        ended[step] += 1
        (step, time) = (Int(next.tailSteps[old]), next.tailTimes[old])
      }
      tailSteps[client] = UInt8(step)
      tailTimes[client] = time
      return
    }
    // The first path goes on: from each step it may have begun at, the next part's times
    // follow from the step it reached here.
    for start in 0..<steps.count {
      let reached = start + head(client, from: start).count
      for time in next.head(old, from: reached) { reach(client, from: start, at: time) }
    }
    if next.closed[old] {
      closed[client] = true
      tailSteps[client] = next.tailSteps[old]
      tailTimes[client] = next.tailTimes[old]
    }
  }

  /// The funnel of the whole log these counts are of: every client's first path begins with
  /// it, and its last ends with it.
  func report() -> FunnelReport {
    var counts = self
    for client in 0..<clientCount {
      var (step, _) = counts.follow(head(client, from: 0), from: 0, at: 0)
      if closed[client] {
        counts.ended[step] += 1
        step = Int(tailSteps[client])
      }
      counts.ended[step] += 1
    }
    var reports: [FunnelReport.Step] = []
    var reached = counts.ended.reduce(0, +)
    let paths = reached
    for (index, glob) in steps.globs.enumerated() {
      let before = reached
      reached -= counts.ended[index]
      reports.append(
        FunnelReport.Step(
          glob: String(decoding: glob, as: UTF8.self), paths: reached,
          dropOff: index == 0 ? 0 : before - reached,
          medianSeconds: index == 0 ? nil : Self.median(counts.durations[index - 1])))
    }
    return FunnelReport(steps: reports, paths: paths)
  }

  /// The median of the values `histogram` counts (the mean of the two middle ones for an even
  /// number of them); nil when it counts none.
  static func median(_ histogram: [Int64: Int]) -> Double? {
    let total = histogram.values.reduce(0, +)
    guard total > 0 else { return nil }
    // The middle values' places in the values in order, from 0.
    let (lowerPlace, upperPlace) = ((total - 1) / 2, total / 2)
    var (seen, lower): (Int, Int64?) = (0, nil)
    for (value, count) in histogram.sorted(by: { $0.key < $1.key }) {
      if lower == nil && seen + count > lowerPlace { lower = value }
      if seen + count > upperPlace { return (Double(lower!) + Double(value)) / 2 }
      seen += count
    }
    return nil
  }

}
