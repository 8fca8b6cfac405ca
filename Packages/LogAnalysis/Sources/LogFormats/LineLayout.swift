/// A log format made ready to read lines: W3C's fields found in its header.
package enum LineLayout: Sendable, Equatable {
  case apache(ApacheLayout)
  case w3c(W3CLayout)
  case json(JSONLayout)
  case haproxy

  /// The layout of `format` for a log that starts with `sample`; W3C needs its `#Fields:`
  /// header there.
  package init(_ format: LogFormat, sample: UnsafeRawBufferPointer) throws(AnalysisOptionError) {
    switch format {
    case .haproxy: self = .haproxy
    case .apache: self = .apache(try ApacheLayout(format))
    case .json(let keys): self = .json(JSONLayout(keys))
    case .w3c:
      // The directives, blank lines among them (IIS Advanced Logging writes some, of spaces).
      var start = 0
      let scanner = ByteScanner(bytes: sample)
      while start < sample.count {
        let end = scanner.newline(from: start)
        let cut = end > start && sample[end - 1] == UInt8(ascii: "\r") ? end - 1 : end
        if LineParser.isBlank(UnsafeRawBufferPointer(rebasing: sample[start..<cut])) {
          start = end + 1
          continue
        }
        guard sample[start] == UInt8(ascii: "#") else { break }
        if let layout = W3CLayout(header: UnsafeRawBufferPointer(rebasing: sample[start..<cut])) {
          guard layout.isUsable else {
            throw AnalysisOptionError("the W3C log's #Fields header has no c-ip or no cs-uri-stem")
          }
          self = .w3c(layout)
          return
        }
        start = end + 1
      }
      throw AnalysisOptionError("a W3C log needs a #Fields: header line before its first entry")
    }
  }

  /// Reads the fields of `line`; false when it does not follow the format, or a field does
  /// not hold what it must (a time that reads, a status of three digits).
  package func parse(_ line: UnsafeRawBufferPointer, into record: inout LogRecord, arena: ByteArena)
    -> Bool
  {
    switch self {
    case .apache(let layout):
      if !layout.parse(line, into: &record) { return false }
      layout.readTarget(of: &record, arena: arena)
      return true
    case .w3c(let layout): return layout.parse(line, into: &record) && record.fieldsHoldTheirValues
    case .json(let layout):
      return layout.parse(line, into: &record, arena: arena) && record.fieldsHoldTheirValues
    case .haproxy: return HAProxyLayout.parse(line, into: &record) && record.fieldsHoldTheirValues
    }
  }
}
