// libFuzzer target: the partial-result reader on any bytes, compiled with LogAnalysis's
// sources by Fuzz/run.sh. What it accepts ranks, merges, and reads back the same once written.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPartialFile(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let data = Data(UnsafeRawBufferPointer(start: start, count: count))
  guard let partial = try? Partial(serialized: data) else { return 0 }
  let ranking = partial.ranking(top: 0)
  guard let again = try? Partial(serialized: partial.serialized()) else {
    preconditionFailure("a partial that was read cannot be read back once written")
  }
  precondition(again.ranking(top: 0) == ranking, "the written partial ranks otherwise")
  for end in PathEnd.allCases {
    precondition(
      again.ranking(of: end, top: 0) == partial.ranking(of: end, top: 0),
      "the written partial ranks its \(end) pages otherwise")
  }
  var merged = partial
  merged.append(again)
  precondition(merged.lines == partial.lines * 2, "a merge lost lines")
  return 0
}
