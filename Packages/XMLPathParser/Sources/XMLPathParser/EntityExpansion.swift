import Foundation

/// The document's own entities, expanded before libxml2 reads it.
///
/// FoundationXML on Linux drops the first piece of text after each reference to an entity the
/// document declares (`_CFXMLInterfaceInRecursiveState`), so `&tag;2024` read as `2024`. This
/// pass reads the DOCTYPE's internal subset, replaces each reference to a declared internal
/// entity by its text (in content, and in attribute values with quotes escaped), and blanks
/// the DOCTYPE out, so libxml2 has nothing to expand, fetch or load:
///
/// - a reference to an external entity (`SYSTEM` or `PUBLIC`) or a parameter entity is an
///   error, and no external DTD or entity is ever read;
/// - expansion is bounded: nested at most `maximumDepth` deep, and the document grows by at
///   most ten times its size plus 1 MiB; a loop is an error;
/// - an `&` that starts no reference, or names an entity never declared, is an error with its
///   line and column, which libxml2 would report in less helpful words.
///
/// Other declarations of the DOCTYPE (attribute defaults among them) are not applied, and
/// comments, CDATA sections and processing instructions are copied as they are.
struct EntityExpansion {
  /// How deep entities may nest: far beyond any real document, and a bound on recursion.
  static let maximumDepth = 40

  /// The document as libxml2 should read it, and how to find its places in the original.
  let document: Data
  let sourceMap: SourceMap

  /// Expands the entities of `data` (UTF-8).
  init(_ data: Data) throws(XMLPathError) {
    // Data's closures do not carry a typed error, so the result comes out as a Result.
    let expanded = data.withUnsafeBytes { raw in
      Result { () throws(XMLPathError) in
        var expander = Expander(input: raw, limit: data.count * 11 + (1 << 20))
        return try expander.document()
      }
    }
    (document, sourceMap) = try expanded.get() ?? (data, SourceMap())
  }
}

/// Where the bytes libxml2 read came from: each replaced reference, by its places in the
/// output and in the original document.
struct SourceMap {
  fileprivate struct Replacement {
    let output: Range<Int>
    let input: Range<Int>
  }
  fileprivate var replacements: [Replacement] = []

  /// The offset in the original document of `offset` in the output: the reference's own
  /// place for a byte of its text.
  func inputOffset(of offset: Int) -> Int {
    guard let last = replacements.last(where: { $0.output.lowerBound <= offset }) else {
      return offset
    }
    if last.output.contains(offset) { return last.input.lowerBound }
    return last.input.upperBound + offset - last.output.upperBound
  }

  /// `position` in the output, as a position in `original`.
  func originalPosition(of position: TextPosition, output: Data, original: Data) -> TextPosition {
    guard !replacements.isEmpty else { return position }
    let offset = output.withUnsafeBytes { position.offset(in: $0) }
    return original.withUnsafeBytes { TextPosition(of: inputOffset(of: offset), in: $0) }
  }
}

/// A declared entity: its replacement text, or the mark of an external one.
private enum Entity {
  case declared(text: [UInt8])
  case external
}

private struct Expander {
  let input: UnsafeRawBufferPointer
  /// The most bytes the output may hold.
  let limit: Int
  var entities: [[UInt8]: Entity] = [:]
  /// Each entity's text once expanded, by context (content or attribute).
  var expandedInContent: [[UInt8]: [UInt8]] = [:]
  var expandedInAttribute: [[UInt8]: [UInt8]] = [:]
  var output: [UInt8] = []
  var map = SourceMap()
  /// Input bytes before this offset are in `output` already.
  var copied = 0
  /// The offset of the top-level reference being expanded, where nested errors point.
  var reference = 0

  init(input: UnsafeRawBufferPointer, limit: Int) {
    self.input = input
    self.limit = limit
  }

  /// The expanded document, or nil when it needs no change.
  mutating func document() throws(XMLPathError) -> (Data, SourceMap)? {
    var index = 0
    while let found = nextMarkup(from: index) {
      if input[found] == UInt8(ascii: "&") {
        index = try replaceReference(at: found)
        continue
      }
      if input.has("<!DOCTYPE", at: found) {
        index = try readDoctype(at: found)
      } else if let end = Markup.end(of: input, at: found) {
        index = end
        if Markup.isTag(input, at: found) { try expandAttributes(from: found, to: end) }
      } else {
        break  // an unfinished comment, section or tag: libxml2 says so
      }
    }
    guard copied > 0 else { return nil }
    output.append(contentsOf: input[copied...])
    return (Data(output), map)
  }

  /// Replaces the reference at `start` of the document's content; returns where it ends.
  private mutating func replaceReference(at start: Int) throws(XMLPathError) -> Int {
    reference = start
    guard let (name, end) = Reference.read(input, at: start) else { throw strayAmpersand() }
    guard let name else { return end }
    try replace(start..<end, with: try expanded(name, inAttribute: nil, depth: 1, open: []))
    return end
  }

  /// Expands the references inside the quoted attribute values of the tag `start..<end`.
  private mutating func expandAttributes(from start: Int, to end: Int) throws(XMLPathError) {
    var index = start
    while index < end {
      let byte = input[index]
      guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") else {
        index += 1
        continue
      }
      let close = input[(index + 1)..<end].firstIndex(of: byte) ?? end
      var at = index + 1
      while let amp = input[at..<close].firstIndex(of: UInt8(ascii: "&")) {
        reference = amp
        guard let (name, after) = Reference.read(input, at: amp) else { throw strayAmpersand() }
        if let name {
          try replace(amp..<after, with: try expanded(name, inAttribute: byte, depth: 1, open: []))
        }
        at = after
      }
      index = close + 1
    }
  }

  /// Reads the DOCTYPE at `start`, keeps its entities, and blanks it out (line ends stay, so
  /// positions after it do not move). Returns where it ends.
  private mutating func readDoctype(at start: Int) throws(XMLPathError) -> Int {
    var index = start + 9
    var inSubset = false
    while index < input.count {
      let byte = input[index]
      if !inSubset {
        if byte == UInt8(ascii: ">") { return blank(start..<(index + 1)) }
        if byte == UInt8(ascii: "[") { inSubset = true }
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
          index = input[(index + 1)...].firstIndex(of: byte) ?? input.count
        }
        index += 1
      } else if byte == UInt8(ascii: "]") {
        inSubset = false
        index += 1
      } else if byte == UInt8(ascii: "%") {
        throw error(at: index, "parameter entities (`%name;`) are not supported")
      } else if input.has("<!ENTITY", at: index) {
        index = try readEntityDeclaration(at: index)
      } else if byte == UInt8(ascii: "<"), let end = Markup.end(of: input, at: index) {
        index = end
      } else {
        index += 1
      }
    }
    throw error(at: start, "the DOCTYPE is not closed with `]>`")
  }

  /// Reads `<!ENTITY name "value">` (or an external one) at `start`; returns where it ends.
  private mutating func readEntityDeclaration(at start: Int) throws(XMLPathError) -> Int {
    var index = start + 8
    index = input.skippingSpace(from: index)
    if index < input.count, input[index] == UInt8(ascii: "%") {
      throw error(at: index, "parameter entities (`%name;`) are not supported")
    }
    let nameEnd = input.nameEnd(from: index)
    guard nameEnd > index else { throw error(at: index, "an entity declaration has no name") }
    let name = Array(input[index..<nameEnd])
    index = input.skippingSpace(from: nameEnd)
    let entity: Entity
    if index < input.count, input[index] == UInt8(ascii: "\"") || input[index] == UInt8(ascii: "'")
    {
      let quote = input[index]
      guard let close = input[(index + 1)...].firstIndex(of: quote) else {
        throw error(
          at: index,
          "the value of the entity `&\(String(decoding: name, as: UTF8.self));` is not closed")
      }
      entity = .declared(text: try literalValue((index + 1)..<close))
      index = close + 1
    } else {
      entity = .external
    }
    if entities[name] == nil { entities[name] = entity }  // the first declaration counts
    guard let end = Markup.end(of: input, at: start, from: index) else {
      throw error(at: start, "an entity declaration is not closed with `>`")
    }
    return end
  }

  /// An entity's value as declared, character references decoded (the replacement text).
  private func literalValue(_ range: Range<Int>) throws(XMLPathError) -> [UInt8] {
    var value: [UInt8] = []
    var index = range.lowerBound
    while index < range.upperBound {
      let byte = input[index]
      if byte == UInt8(ascii: "%") {
        throw error(at: index, "parameter entities (`%name;`) are not supported")
      }
      if byte == UInt8(ascii: "&"), input.has("&#", at: index),
        let (scalar, end) = Reference.character(input, at: index), end <= range.upperBound
      {
        value += Array(String(scalar).utf8)
        index = end
      } else {
        value.append(byte)
        index += 1
      }
    }
    return value
  }

  /// The text of entity `name` with the entities it refers to expanded, for content
  /// (`quote` nil) or for an attribute value in `quote`s.
  private mutating func expanded(
    _ name: [UInt8], inAttribute quote: UInt8?, depth: Int, open: [[UInt8]]
  ) throws(XMLPathError) -> [UInt8] {
    let shown = "`&\(String(decoding: name, as: UTF8.self));`"
    if let done = quote == nil ? expandedInContent[name] : expandedInAttribute[name] {
      return done
    }
    guard let entity = entities[name] else {
      throw error(at: reference, "the entity \(shown) is not declared")
    }
    guard case .declared(let text) = entity else {
      throw error(
        at: reference, "the entity \(shown) is external, and external entities are never read")
    }
    guard !open.contains(name) else {
      throw error(at: reference, "the entity \(shown) refers to itself")
    }
    guard depth <= EntityExpansion.maximumDepth else {
      throw error(
        at: reference, "entities are nested more than \(EntityExpansion.maximumDepth) deep")
    }
    var result: [UInt8] = []
    var index = 0
    while index < text.count {
      let byte = text[index]
      if byte == UInt8(ascii: "&") {
        guard let (inner, end) = text.withUnsafeBytes({ Reference.read($0, at: index) }) else {
          throw strayAmpersand()
        }
        if let inner {
          result += try expanded(inner, inAttribute: quote, depth: depth + 1, open: open + [name])
        } else {
          result += text[index..<end]
        }
        index = end
      } else if quote != nil && byte == UInt8(ascii: "<") {
        throw error(at: reference, "the entity \(shown) puts a `<` in an attribute value")
      } else if quote != nil && byte == UInt8(ascii: "\"") {
        result += Array("&quot;".utf8)
        index += 1
      } else if quote != nil && byte == UInt8(ascii: "'") {
        result += Array("&apos;".utf8)
        index += 1
      } else {
        result.append(byte)
        index += 1
      }
      if result.count > limit { throw tooLarge() }
    }
    if quote == nil { expandedInContent[name] = result } else { expandedInAttribute[name] = result }
    return result
  }

  /// Copies the input before `range`, then `text` in its place.
  private mutating func replace(_ range: Range<Int>, with text: [UInt8]) throws(XMLPathError) {
    output.append(contentsOf: input[copied..<range.lowerBound])
    let start = output.count
    output.append(contentsOf: text)
    guard output.count <= limit else { throw tooLarge() }
    map.replacements.append(.init(output: start..<output.count, input: range))
    copied = range.upperBound
  }

  /// Blanks `range` out but for its line ends; returns its end.
  private mutating func blank(_ range: Range<Int>) -> Int {
    output.append(contentsOf: input[copied..<range.lowerBound])
    output += input[range].map { $0 == UInt8(ascii: "\n") ? $0 : UInt8(ascii: " ") }
    copied = range.upperBound
    return range.upperBound
  }

  private func position(of offset: Int) -> TextPosition {
    TextPosition(of: offset, in: input)
  }

  private func error(at offset: Int, _ reason: String) -> XMLPathError {
    let place = position(of: offset)
    return .malformed(line: place.line, column: place.column, reason: reason)
  }

  private func strayAmpersand() -> XMLPathError {
    error(at: reference, "an `&` that does not start an entity (write `&amp;`)")
  }

  private func tooLarge() -> XMLPathError {
    error(
      at: reference,
      "entity expansion stopped past \(limit) bytes (ten times the document plus 1 MiB)")
  }

  /// The offset of the next `<` or `&` from `index`.
  private func nextMarkup(from index: Int) -> Int? {
    var index = index
    while index < input.count {
      let byte = input[index]
      if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") { return index }
      index += 1
    }
    return nil
  }
}
