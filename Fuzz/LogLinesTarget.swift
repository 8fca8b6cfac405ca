// libFuzzer target: reading lines of any bytes, compiled with LogFormats' sources alone by
// Fuzz/run.sh. The fast combined reader always moves forward; every format's layout reads
// every line without a crash; and a line the fast reader takes, the combined format's layout
// takes too, with the same client and page.

/// A layout of every kind (built for each input: a global's arrays read as leaks at exit).
private func everyLayout() -> [LineLayout] {
  let empty = UnsafeRawBufferPointer(start: nil, count: 0)
  let w3c = Array("#Fields: date time c-ip cs-method cs-uri-stem sc-status cs(User-Agent)\n".utf8)
  var layouts = [LogFormat.combined, .common, .elb, .squid, .haproxy, .json(JSONKeys())].map {
    try! LineLayout($0, sample: empty)
  }
  layouts.append(w3c.withUnsafeBytes { try! LineLayout(.w3c, sample: $0) })
  return layouts
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLogLines(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let bytes = UnsafeRawBufferPointer(start: start, count: count)
  let arena = ByteArena()
  let layouts = everyLayout()
  var position = 0
  while position < bytes.count {
    let (fields, end) = LineParser.fields(bytes, from: position)
    precondition(end >= position && end <= bytes.count, "the fast reader did not move forward")
    // As the analysis hands a layout a line: without its `\r`.
    let cut = end > position && bytes[end - 1] == UInt8(ascii: "\r") ? end - 1 : end
    let line = UnsafeRawBufferPointer(rebasing: bytes[position..<cut])
    var records: [LogRecord] = []
    for layout in layouts {
      var record = LogRecord()
      _ = layout.parse(line, into: &record, arena: arena)
      records.append(record)
    }
    if let fields, fields.hasPage {
      var record = LogRecord()
      precondition(
        layouts[0].parse(line, into: &record, arena: arena), "the combined layout refused a line")
      let client = UnsafeRawBufferPointer(rebasing: bytes[fields.client])
      precondition(record.client.map(Array.init) == Array(client), "the readers' clients differ")
      let page = UnsafeRawBufferPointer(rebasing: bytes[fields.page])
      precondition(
        record.request.flatMap { RequestLine.methodAndPage($0)?.page }.map(Array.init)
          == Array(page), "the readers' pages differ")
    }
    arena.removeAll()
    position = end + 1
  }
  return 0
}
