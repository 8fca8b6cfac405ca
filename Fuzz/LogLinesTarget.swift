// libFuzzer target: the access-log parser and analyzer on any bytes, compiled with
// LogAnalysis's sources by Fuzz/run.sh. Parsing always moves forward, and an analysis cut
// into chunks ranks exactly as one pass does.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLogLines(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let bytes = UnsafeRawBufferPointer(start: start, count: count)
  let variants = [
    AnalysisOptions(length: 3),
    AnalysisOptions(length: 2, uniqueClients: true, stripQuery: true, excludeStatic: true),
  ]
  for options in variants {
    var position = 0
    while position < bytes.count {
      let end = LineParser.parse(bytes, from: position, options: options).end
      precondition(end >= position && end <= bytes.count, "the parser did not move forward")
      position = end + 1
    }
    let one = LogAnalyzer.analyze(bytes, options: options, chunks: 1)
    let three = LogAnalyzer.analyze(bytes, options: options, chunks: 3)
    precondition(one.lines == three.lines, "chunks count other lines than one pass")
    precondition(one.malformedLines == three.malformedLines, "chunks count other malformed lines")
    precondition(one.ranking(top: 0) == three.ranking(top: 0), "chunks rank otherwise")
  }
  return 0
}
