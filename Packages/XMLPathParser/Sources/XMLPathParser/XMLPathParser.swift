import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Streams an XML document and reports each element at a registered path as it ends. Only
/// the names of the open elements and the text of the open matches are kept, so memory does
/// not grow with the document (unless a path matches an element that holds most of it).
///
/// ```swift
/// let parser = try XMLPathParser([
///   "feed.entry.im:name": Field.name,
///   "feed.entry.im:image@height=170": Field.cover,
/// ])
/// try parser.parse(data) { match in print(match.id, match.text, match.attributes) }
/// ```
public struct XMLPathParser<ID: Sendable>: Sendable {
  private let root: PathNode<ID>

  /// Registers each path with its identifier. An element that matches several paths (say,
  /// several selectors on one path) is reported once per path, in registration order.
  public init(_ paths: KeyValuePairs<String, ID>) throws(XMLPathError) {
    var root = PathNode<ID>()
    for (text, id) in paths {
      let path = try XMLPath(text)
      root.insert(path, id: id, at: path.elements[...])
    }
    self.root = root
  }

  /// Parses `data`, calling `handle` with every match in document order of their ends, and
  /// returns the root element. Throws `XMLPathError` for a document that is empty or not
  /// well-formed, and whatever `handle` throws (parsing stops there).
  ///
  /// The document's own (internal) entities are expanded first; an external entity or DTD is
  /// never read, and expansion is bounded (see `EntityExpansion`). The data is then fed to
  /// libxml2 in pieces, as a stream is: in one piece, a document over 10 MB would pass
  /// libxml2's limit for a chunk.
  @discardableResult
  public func parse(_ data: Data, handle: (XMLMatch<ID>) throws -> Void) throws -> XMLRoot {
    guard !data.isEmpty else { throw XMLPathError.empty }
    let text = try DocumentText.utf8(data)
    let expansion = try EntityExpansion(text)
    let readable = ProcessingInstructions.withData(expansion.document)
    do {
      return try parse(XMLParser(stream: InputStream(data: readable)), handle: handle)
    } catch XMLPathError.malformed(let line, let column, let reason) {
      let place = expansion.sourceMap.originalPosition(
        of: TextPosition(line: line, column: column), output: expansion.document, original: text)
      throw XMLPathError.malformed(line: place.line, column: place.column, reason: reason)
    }
  }

  /// Parses what `stream` yields, reading it in pieces, and returns the root element. Unlike
  /// `parse(_:handle:)`, it has no pre-pass: entities declared in the document lose text (a
  /// FoundationXML bug), and libxml2 reads the document as it is. Give it documents you trust.
  @discardableResult
  public func parse(contentsOf stream: InputStream, handle: (XMLMatch<ID>) throws -> Void)
    throws -> XMLRoot
  {
    try parse(XMLParser(stream: stream), handle: handle)
  }

  private func parse(_ parser: XMLParser, handle: (XMLMatch<ID>) throws -> Void) throws
    -> XMLRoot
  {
    try withoutActuallyEscaping(handle) { handle in
      let delegate = MatchingDelegate(root: root, handle: handle)
      parser.shouldProcessNamespaces = false
      parser.shouldResolveExternalEntities = false
      parser.delegate = delegate
      let succeeded = parser.parse()
      if let failure = delegate.failure { throw failure }
      // libxml2 can report an error (content after the root element, an unfinished
      // document) and still succeed, and succeeds on an empty document: check both here.
      if let (error, line, column) = delegate.firstError {
        throw XMLPathError.malformed(
          line: line, column: column, reason: ParserErrors.reason(for: error))
      }
      guard succeeded, let documentRoot = delegate.documentRoot else {
        throw XMLPathError.malformed(
          line: parser.lineNumber, column: parser.columnNumber,
          reason: succeeded
            ? "the document has no root element" : ParserErrors.reason(for: parser.parserError))
      }
      return documentRoot
    }
  }
}

/// The registered paths as a tree of element names.
struct PathNode<ID: Sendable>: Sendable {
  var children: [String: PathNode] = [:]
  var registrations: [(path: XMLPath, id: ID)] = []

  mutating func insert(_ path: XMLPath, id: ID, at names: ArraySlice<String>) {
    guard let name = names.first else {
      registrations.append((path, id))
      return
    }
    children[name, default: PathNode()].insert(path, id: id, at: names.dropFirst())
  }
}

/// Follows the open elements through the path tree and collects the text of open matches.
private final class MatchingDelegate<ID: Sendable>: NSObject, XMLParserDelegate {
  private struct OpenMatch {
    let id: ID
    let depth: Int
    let attributes: [String: String]
    var text = ""
  }

  private let root: PathNode<ID>
  private let handle: (XMLMatch<ID>) throws -> Void
  /// Per open element: its node in the path tree, if its path leads to any registered path.
  private var nodes: [PathNode<ID>?] = []
  private var openMatches: [OpenMatch] = []
  /// The document's root element, once it has started.
  private(set) var documentRoot: XMLRoot?
  private(set) var failure: (any Error)?
  /// The first error libxml2 reported, where it was found. Namespace errors (an undeclared
  /// prefix, say) do not count: names are matched with their prefixes as written.
  private(set) var firstError: (error: any Error, line: Int, column: Int)?

  init(root: PathNode<ID>, handle: @escaping (XMLMatch<ID>) throws -> Void) {
    self.root = root
    self.handle = handle
  }

  /// After the first error or a failing handler, nothing more is reported.
  private var stopped: Bool { firstError != nil || failure != nil }

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    guard !stopped else { return }
    if documentRoot == nil {
      documentRoot = XMLRoot(name: elementName, attributes: attributes)
    }
    let parent = nodes.isEmpty ? root : nodes[nodes.count - 1]
    let node = parent?.children[elementName]
    nodes.append(node)
    for (path, id) in node?.registrations ?? [] where path.accepts(attributes) {
      openMatches.append(OpenMatch(id: id, depth: nodes.count, attributes: attributes))
    }
  }

  func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
    let namespaceErrors = 200..<300
    guard firstError == nil, failure == nil,
      !namespaceErrors.contains((parseError as NSError).code)
    else { return }
    // libxml2 may go on and report elements that are not there: `stopped` ignores them. The
    // parser is not aborted here: libxml2 2.9 (Debian 12) can crash in xmlParseChunk when it
    // is stopped from its own error callback (found by Fuzz/XMLPathTarget.swift).
    firstError = (parseError, parser.lineNumber, parser.columnNumber)
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    appendText(string)
  }

  func parser(_ parser: XMLParser, foundCDATA cdata: Data) {
    appendText(String(decoding: cdata, as: UTF8.self))
  }

  private func appendText(_ text: String) {
    guard !stopped else { return }
    for index in openMatches.indices { openMatches[index].text += text }
  }

  func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
    qualifiedName: String?
  ) {
    guard !stopped else { return }
    let depth = nodes.count
    let closing = openMatches.firstIndex { $0.depth == depth } ?? openMatches.endIndex
    do {
      for match in openMatches[closing...] {
        try handle(XMLMatch(id: match.id, text: match.text, attributes: match.attributes))
      }
    } catch {
      failure = error
      parser.abortParsing()
    }
    openMatches.removeSubrange(closing...)
    nodes.removeLast()
  }
}
