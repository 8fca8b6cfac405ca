/// An entity's replacement `text` with each CR of its character data written as `&#13;`.
/// CRs inside markup (a tag, CDATA, a comment, a processing instruction) are left as they are:
/// there a reference would mean something else.
func carriageReturnsAsReferences(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8] {
  var result: [UInt8] = []
  result.reserveCapacity(text.count + 8)
  var index = 0
  while index < text.count {
    let byte = text[index]
    if byte == UInt8(ascii: "<") {
      let end = endOfMarkup(text, from: index)
      result.append(contentsOf: text[index..<end])
      index = end
      continue
    }
    if byte == 13 {
      result.append(contentsOf: Array("&#13;".utf8))
    } else {
      result.append(byte)
    }
    index += 1
  }
  return result
}

/// Where the markup that starts at `start` (a `<`) ends: past its closing delimiter, or at the
/// end of `text` when it has none (libxml2 then reports the fault).
private func endOfMarkup(_ text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
  let rest = text[start...]
  for (opening, closing) in [("<![CDATA[", "]]>"), ("<!--", "-->"), ("<?", "?>")]
  where rest.starts(with: opening.utf8) {
    return end(of: Array(closing.utf8), in: text, from: start + opening.utf8.count)
  }
  // A tag: a `>` inside a quoted attribute value does not close it.
  var quote: UInt8?
  var index = start + 1
  while index < text.count {
    let byte = text[index]
    index += 1
    if let open = quote {
      if byte == open { quote = nil }
    } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
      quote = byte
    } else if byte == UInt8(ascii: ">") {
      return index
    }
  }
  return index
}

/// The index past the first `closing` in `text` at or after `start`, or the end of `text`.
private func end(of closing: [UInt8], in text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
  var index = start
  while index + closing.count <= text.count {
    if text[index..<index + closing.count].elementsEqual(closing) { return index + closing.count }
    index += 1
  }
  return text.count
}
