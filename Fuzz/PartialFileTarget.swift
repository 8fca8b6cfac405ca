// libFuzzer target: the partial-result reader on any bytes, compiled with LogAnalysis's
// sources by Fuzz/run.sh. What it accepts ranks, merges, and reads back the same once written.
// The input is also read as two partials (its first two bytes, big-endian, give the length of
// the first), which are merged both ways as `--merge` does: a merge of partials that read is
// never a crash.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPartialFile(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let data = Data(UnsafeRawBufferPointer(start: start, count: count))
  if let partial = try? Partial(serialized: data) { checkRoundTrip(partial) }
  if data.count >= 2 {
    let rest = data.dropFirst(2)
    let length = Int(data[data.startIndex]) << 8 | Int(data[data.startIndex + 1])
    let cut = rest.startIndex + min(rest.count, length)
    if let one = try? Partial(serialized: Data(rest[..<cut])),
      let two = try? Partial(serialized: Data(rest[cut...])),
      one.options == two.options, one.lines + two.lines <= Partial.maxLines
    {
      for (a, b) in [(one, two), (two, one)] {
        var merged = a
        merged.append(b)
        precondition(merged.lines == a.lines + b.lines, "a merge lost lines")
        _ = merged.ranking(top: 0)
        _ = merged.pathCount
        _ = merged.panels(top: 0)
        _ = merged.funnel()
        for end in PathEnd.allCases { _ = merged.ranking(of: end, top: 0) }
      }
    }
  }
  return 0
}

/// What was read ranks the same once written and read back, and merges with itself.
private func checkRoundTrip(_ partial: Partial) {
  let ranking = partial.ranking(top: 0)
  guard let again = try? Partial(serialized: partial.serialized()) else {
    preconditionFailure("a partial that was read cannot be read back once written")
  }
  precondition(again.ranking(top: 0) == ranking, "the written partial ranks otherwise")
  precondition(again.funnel() == partial.funnel(), "the written partial's funnel differs")
  precondition(
    again.panels(top: 0) == partial.panels(top: 0), "the written partial's panels differ")
  for end in PathEnd.allCases {
    precondition(
      again.ranking(of: end, top: 0) == partial.ranking(of: end, top: 0),
      "the written partial ranks its \(end) pages otherwise")
  }
  var merged = partial
  merged.append(again)
  precondition(merged.lines == partial.lines * 2, "a merge lost lines")
}
