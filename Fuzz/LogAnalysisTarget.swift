// libFuzzer target: the analysis of any bytes, compiled with LogFormats' and LogAnalysis's
// sources by Fuzz/run.sh, from the LogLines seeds. An analysis cut into chunks ranks exactly as
// one pass does, and the fast path reads combined lines exactly as the full reading of the
// combined format does (which line is malformed never depends on the options). Each input runs
// one of these checks, chosen by its length: an analysis costs about a millisecond under the
// sanitizer whatever the input's size, so libFuzzer tries about nine times as many inputs as
// it would running all of them on each.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLogAnalysis(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let bytes = UnsafeRawBufferPointer(start: start, count: count)
  let sessions = AnalysisOptions(
    length: 3, sessionGap: 60, client: .addressAndUserAgent,
    filters: VisitFilters(statuses: [200, 304], excludeBots: true))
  var funnel = AnalysisOptions(length: 1, sessionGap: 60)
  funnel.funnel = ["/*", "*a*", "/"]
  var endless = AnalysisOptions(length: 2)
  endless.funnel = ["*", "/b*"]
  let variants: [(AnalysisOptions, LogFormat?)] = [
    (AnalysisOptions(length: 3), nil),
    (AnalysisOptions(length: 2, uniqueClients: true, stripQuery: true, excludeStatic: true), nil),
    (sessions, .combined), (sessions, .json(JSONKeys())), (sessions, .w3c),
    (funnel, nil), (endless, .elb), (funnel, .squid),
  ]
  let check = count % (variants.count + 1)
  if check < variants.count {
    let (options, format) = variants[check]
    // A format that cannot be read from these bytes (W3C without its header) is refused
    // before any line is read.
    guard let layout = try? LogAnalyzer.layout(format, options, sample: bytes) else { return 0 }
    let one = LogAnalyzer.analyze(bytes, options: options, layout: layout, chunks: 1)
    let three = LogAnalyzer.analyze(bytes, options: options, layout: layout, chunks: 3)
    precondition(one.lines == three.lines, "chunks count other lines than one pass")
    precondition(one.malformedLines == three.malformedLines, "chunks count other malformed lines")
    precondition(one.ranking(top: 0) == three.ranking(top: 0), "chunks rank otherwise")
    precondition(one.funnel() == three.funnel(), "chunks count another funnel")
    return 0
  }
  let fast = LogAnalyzer.analyze(
    bytes, options: AnalysisOptions(), layout: nil, chunks: 1)
  if let full = try? LineLayout(.combined, sample: bytes) {
    let read = LogAnalyzer.analyze(bytes, options: AnalysisOptions(), layout: full, chunks: 1)
    precondition(fast.lines == read.lines, "the two paths count other lines")
    precondition(fast.malformedLines == read.malformedLines, "the two paths disagree on a line")
    precondition(fast.commentLines == read.commentLines, "the two paths count other comments")
    precondition(fast.ranking(top: 0) == read.ranking(top: 0), "the two paths rank otherwise")
  }
  return 0
}
