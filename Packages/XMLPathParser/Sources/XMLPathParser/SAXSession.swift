internal import CLibXML2
import Foundation

/// One parse by libxml2's push parser with SAX2 callbacks: the document is fed in pieces, and
/// libxml2 calls back with each element's start and end, its text, and its errors. libxml2
/// reads the encodings, expands the document's own entities (within its limits: no
/// `XML_PARSE_HUGE`), and checks the DOCTYPE; an external entity, DTD or network resource is
/// never read.
class SAXReceiver {
  /// The first error, in words, where it was found; it wins over later ones.
  var firstError: XMLPathError?
  /// The parser of the document (an entity's text may get a parser of its own).
  fileprivate var document: xmlParserCtxtPtr?
  /// What the DTD has added to the document so far (`EntityExpansion`).
  private var expansion = EntityExpansion()

  /// The receiver of the parse running on this thread.
  fileprivate static var current: SAXReceiver? {
    get { Thread.current.threadDictionary[key] as? SAXReceiver }
    set { Thread.current.threadDictionary[key] = newValue }
  }
  private static let key = "XMLPathParser.SAXReceiver"

  /// An element starts; `attributes` reads its attributes (namespace declarations among them).
  func start(_ name: String, attributes: () -> [String: String]) {}
  func end() {}
  func text(_ bytes: UnsafeBufferPointer<UInt8>) {}
  /// Whether the receiver stopped the parse (a handler threw).
  var stopped: Bool { false }

  /// Notes `reason` at the parser's place, unless an error came first.
  final func fail(_ context: xmlParserCtxtPtr, _ reason: String) {
    guard firstError == nil else { return }
    let input = context.pointee.input
    firstError = .malformed(
      line: Int(input?.pointee.line ?? 0), column: Int(input?.pointee.col ?? 0), reason: reason)
  }

  /// Counts `length` bytes that the DTD adds to the document (an entity's replacement text, a
  /// defaulted attribute), met by `context`, against `EntityExpansion`'s bound. Past the bound
  /// the parse fails, at the place in the document, and stops: no parser reads another byte
  /// of an entity, nor falls back on looking one up itself.
  final func admits(adding length: Int, _ context: xmlParserCtxtPtr) -> Bool {
    guard firstError == nil else { return false }
    guard let document, let input = document.pointee.inputTab[0] else { return true }
    let read = Int(input.pointee.consumed) + input.pointee.base.distance(to: input.pointee.cur)
    if expansion.add(length, read: read) { return true }
    firstError = .malformed(
      line: Int(input.pointee.line), column: Int(input.pointee.col),
      reason: EntityExpansion.reason)
    context.pointee.wellFormed = 0
    document.pointee.wellFormed = 0
    xmlStopParser(context)
    return false
  }

  /// Parses what `next` returns, piece by piece, until it returns nil; an error is in
  /// `firstError`.
  final func parse(_ next: () throws -> Data?) throws {
    // libxml2 may report errors before the context is made, or for a parser of its own.
    let outer = Self.current
    Self.current = self
    defer { Self.current = outer }
    fetcher_xml_silence_generic_errors()  // for this thread: errors come through `serror`
    var handler = saxHandler()
    // At least four bytes, by which the encoding is known.
    var first = Data()
    while first.count < 4, let more = try next() { first += more }
    var utf32 = UTF32Input(first)
    if utf32 != nil { first = try utf32!.utf8(first) }
    // The first bytes go with the context, which tells the encoding by them (UTF-8 or UTF-16,
    // with or without a byte order mark).
    let head = first.prefix(4)
    first.removeFirst(head.count)
    let created = head.withUnsafeBytes { bytes in
      xmlCreatePushParserCtxt(
        &handler, nil, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count),
        nil)
    }
    guard let context = created else {
      throw XMLPathError.malformed(line: 0, column: 0, reason: "libxml2 could not start")
    }
    defer {
      if let document = context.pointee.myDoc { xmlFreeDoc(document) }
      xmlFreeParserCtxt(context)
    }
    context.pointee._private = Unmanaged.passUnretained(self).toOpaque()
    document = context
    defer { document = nil }
    // Entities expanded, nothing from the network, no external DTD; libxml2's limits kept.
    var options = XML_PARSE_NOENT.rawValue | XML_PARSE_NONET.rawValue
    if utf32 != nil { options |= XML_PARSE_IGNORE_ENC.rawValue }  // it is UTF-8 by now
    xmlCtxtUseOptions(context, Int32(options))
    var piece: Data? = first
    while let current = piece {
      current.withUnsafeBytes { bytes in
        // Pieces of at most 4 MiB: libxml2 refuses a chunk over 10 MB without XML_PARSE_HUGE.
        var offset = 0
        while offset < bytes.count && !stopped && firstError == nil {
          let count = min(bytes.count - offset, 4 << 20)
          let start = bytes.baseAddress!.advanced(by: offset).assumingMemoryBound(to: CChar.self)
          _ = xmlParseChunk(context, start, Int32(count), 0)
          offset += count
        }
      }
      if stopped || firstError != nil { return }
      piece = try next()
      if utf32 != nil, let read = piece { piece = try utf32!.utf8(read) }
    }
    _ = xmlParseChunk(context, nil, 0, 1)
  }
}

/// The receiver of the parse that `context` belongs to: the one its parser names, or, for a
/// parser libxml2 made on its own (an entity's) without naming it, this thread's parse.
private func receiver(_ context: UnsafeMutableRawPointer?) -> SAXReceiver {
  if let parser = context?.assumingMemoryBound(to: xmlParserCtxt.self),
    let named = parser.pointee._private
  {
    return Unmanaged<SAXReceiver>.fromOpaque(named).takeUnretainedValue()
  }
  return SAXReceiver.current!
}

private func string(_ text: UnsafePointer<xmlChar>?) -> String {
  text.map { String(cString: $0) } ?? ""
}

/// libxml2's SAX2 handler (so that the DOCTYPE's declarations are kept where entities are
/// looked up), with the element, text and error callbacks ours and nothing built.
private func saxHandler() -> xmlSAXHandler {
  var handler = xmlSAXHandler()
  xmlSAXVersion(&handler, 2)
  handler.startElementNs = {
    context, localName, prefix, _, namespaceCount, namespaces,
    attributeCount, defaultedCount, attributes in
    let receiver = receiver(context)
    guard !receiver.stopped else { return }
    // The defaulted attributes come last; their values are the DTD's additions.
    let defaulted = (Int(attributeCount - defaultedCount)..<Int(attributeCount)).reduce(0) {
      $0 + attributes![5 * $1 + 3]!.distance(to: attributes![5 * $1 + 4]!)
    }
    guard
      defaulted == 0
        || receiver.admits(adding: defaulted, context!.assumingMemoryBound(to: xmlParserCtxt.self))
    else { return }
    var name = string(localName)
    if let prefix { name = string(prefix) + ":" + name }
    receiver.start(name) {
      var values: [String: String] = [:]
      for index in 0..<Int(namespaceCount) {
        let declared = namespaces![2 * index]
        values[declared.map { "xmlns:" + string($0) } ?? "xmlns"] = string(
          namespaces![2 * index + 1])
      }
      for index in 0..<Int(attributeCount) {
        let base = 5 * index
        var key = string(attributes![base])
        if let prefix = attributes![base + 1] { key = string(prefix) + ":" + key }
        let (start, end) = (attributes![base + 3]!, attributes![base + 4]!)
        values[key] = String(
          decoding: UnsafeBufferPointer(start: start, count: start.distance(to: end)),
          as: UTF8.self)
      }
      return values
    }
  }
  handler.endElementNs = { context, _, _, _ in
    let receiver = receiver(context)
    if !receiver.stopped { receiver.end() }
    if receiver.stopped { xmlStopParser(context!.assumingMemoryBound(to: xmlParserCtxt.self)) }
  }
  handler.characters = { context, text, count in
    receiver(context).text(UnsafeBufferPointer(start: text, count: Int(count)))
  }
  handler.ignorableWhitespace = handler.characters
  handler.cdataBlock = { context, text, count in
    receiver(context).text(UnsafeBufferPointer(start: text, count: Int(count)))
  }
  handler.comment = nil
  handler.processingInstruction = nil
  // Errors come through `serror`, in words; nothing is printed.
  handler.warning = nil
  handler.error = nil
  handler.fatalError = nil
  // libxml2 2.9 reads an entity's text as a new input and turns its CRs (there only from
  // `&#13;`) into LFs; XML 1.0 keeps them. As character references they stay CRs.
  handler.entityDecl = { context, name, type, publicId, systemId, content in
    guard type == Int32(XML_INTERNAL_GENERAL_ENTITY.rawValue), let content,
      strchr(UnsafeRawPointer(content).assumingMemoryBound(to: CChar.self), 13) != nil
    else {
      return xmlSAX2EntityDecl(context, name, type, publicId, systemId, content)
    }
    let length = Int(xmlStrlen(content))
    var kept = carriageReturnsAsReferences(UnsafeBufferPointer(start: content, count: length))
    kept.append(0)
    kept.withUnsafeMutableBufferPointer {
      xmlSAX2EntityDecl(context, name, type, publicId, systemId, $0.baseAddress)
    }
  }
  // An external entity is refused before libxml2 would load it.
  handler.getEntity = { context, name in
    bounded(
      refusingExternal(
        xmlSAX2GetEntity(context, name), context, "the entity `&\(string(name));`"),
      context)
  }
  handler.getParameterEntity = { context, name in
    bounded(
      refusingExternal(
        xmlSAX2GetParameterEntity(context, name), context,
        "the parameter entity `%\(string(name));`"),
      context)
  }
  handler.serror = { context, error in
    guard let context, let error else { return }
    let level = error.pointee.level
    // Warnings (an unknown version, say) are not errors; nor are namespace errors: names
    // are matched with their prefixes as written.
    guard level != XML_ERR_WARNING, error.pointee.domain != Int32(XML_FROM_NAMESPACE.rawValue)
    else { return }
    let receiver = receiver(context)
    guard receiver.firstError == nil else { return }
    // An error in an entity's text (found by a parser of its own, or on an input of its
    // own) is placed at the reference, in the document.
    var (line, column) = (Int(error.pointee.line), Int(error.pointee.int2))
    if let parser = receiver.document {
      let inEntity = UnsafeMutableRawPointer(parser) != context || parser.pointee.inputNr > 1
      if inEntity, let document = parser.pointee.inputTab[0] {
        (line, column) = (Int(document.pointee.line), Int(document.pointee.col))
      }
    }
    receiver.firstError = .malformed(
      line: line, column: column,
      reason: ParserErrors.reason(code: Int(error.pointee.code), message: error.pointee.message))
  }
  return handler
}

/// `entity`, or nil when it is external: it is then a failure of the parse, named `what`.
private func refusingExternal(
  _ entity: xmlEntityPtr?, _ context: UnsafeMutableRawPointer?, _ what: @autoclosure () -> String
) -> xmlEntityPtr? {
  guard let entity, isExternal(entity) else { return entity }
  receiver(context).fail(
    context!.assumingMemoryBound(to: xmlParserCtxt.self),
    "\(what()) is external, and external entities are never read")
  return nil
}

/// `entity`, or nil when the parse has failed or a reference to it expands the document past
/// `EntityExpansion`'s bound (the parse then fails).
private func bounded(_ entity: xmlEntityPtr?, _ context: UnsafeMutableRawPointer?)
  -> xmlEntityPtr?
{
  guard let entity, let context else { return entity }
  let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
  return receiver(context).admits(adding: Int(entity.pointee.length), parser) ? entity : nil
}

private func isExternal(_ entity: xmlEntityPtr) -> Bool {
  let type = entity.pointee.etype
  return type == XML_EXTERNAL_GENERAL_PARSED_ENTITY
    || type == XML_EXTERNAL_GENERAL_UNPARSED_ENTITY || type == XML_EXTERNAL_PARAMETER_ENTITY
}
