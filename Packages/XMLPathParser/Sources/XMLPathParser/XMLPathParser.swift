import Foundation

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
  private let root: PathNode
  /// The identifiers, by registration order (the tree holds the order, so that the work per
  /// element is not generic).
  private let ids: [ID]

  /// Registers each path with its identifier. An element that matches several paths (say,
  /// several selectors on one path) is reported once per path, in registration order.
  public init(_ paths: KeyValuePairs<String, ID>) throws(XMLPathError) {
    var root = PathNode()
    var ids: [ID] = []
    for (text, id) in paths {
      let path = try XMLPath(text)
      root.insert(Registration(path: path, order: ids.count), at: path.elements[...])
      ids.append(id)
    }
    self.root = root
    self.ids = ids
  }

  /// Parses `data`, calling `handle` with every match in document order of their ends, and
  /// returns the root element. Throws `XMLPathError` for a document that is empty or not
  /// well-formed, and whatever `handle` throws (parsing stops there).
  ///
  /// libxml2 reads the document (its encoding, its DOCTYPE) and expands its own entities,
  /// within its limits; an external entity, DTD or network resource is never read.
  @discardableResult
  public func parse(_ data: Data, handle: (XMLMatch<ID>) throws -> Void) throws -> XMLRoot {
    guard !data.isEmpty else { throw XMLPathError.empty }
    var fed = false
    return try parse(handle: handle) {
      defer { fed = true }
      return fed ? nil : data
    }
  }

  /// Parses what `stream` yields, reading it in pieces as they come, and returns the root
  /// element, as `parse(_:handle:)` does.
  @discardableResult
  public func parse(contentsOf stream: InputStream, handle: (XMLMatch<ID>) throws -> Void)
    throws -> XMLRoot
  {
    stream.open()
    defer { stream.close() }
    var buffer = [UInt8](repeating: 0, count: 64 << 10)
    return try parse(handle: handle) {
      let count = stream.read(&buffer, maxLength: buffer.count)
      if count < 0 {
        throw XMLPathError.malformed(
          line: 0, column: 0,
          reason: "the document could not be read: \(stream.streamError.map { "\($0)" } ?? "")")
      }
      return count > 0 ? Data(buffer[..<count]) : nil
    }
  }

  private func parse(handle: (XMLMatch<ID>) throws -> Void, next: () throws -> Data?) throws
    -> XMLRoot
  {
    try withoutActuallyEscaping(handle) { handle in
      let matcher = Matcher(root: root) { order, text, attributes in
        try handle(XMLMatch(id: ids[order], text: text, attributes: attributes))
      }
      try matcher.parse(next)
      if let failure = matcher.failure { throw failure }
      if let error = matcher.firstError {
        // Nothing but space (or a declaration): libxml2 says the document ended early.
        if matcher.documentRoot == nil,
          case .malformed(let line, let column, ParserErrors.documentEnd) = error
        {
          throw XMLPathError.malformed(
            line: line, column: column, reason: "the document has no root element")
        }
        throw error
      }
      guard let documentRoot = matcher.documentRoot else {
        throw XMLPathError.malformed(line: 1, column: 1, reason: "the document has no root element")
      }
      return documentRoot
    }
  }
}

/// A registered path, and its place in the registration order.
struct Registration: Sendable {
  let path: XMLPath
  let order: Int
}

/// The registered paths as a tree of element names.
struct PathNode: Sendable {
  var children: [String: PathNode] = [:]
  /// The paths that end here.
  var registrations: [Registration] = []

  mutating func insert(_ registration: Registration, at names: ArraySlice<String>) {
    guard let name = names.first else {
      registrations.append(registration)
      return
    }
    children[name, default: PathNode()].insert(registration, at: names.dropFirst())
  }

  /// The nodes an element named `name` reaches from this one: its own, and the wildcard's.
  func children(named name: String) -> [PathNode] {
    guard let any = children[XMLPath.anyName] else { return children[name].map { [$0] } ?? [] }
    return [children[name], any].compactMap { $0 }
  }
}

/// Follows the open elements through the path tree and collects the text of open matches.
private final class Matcher: SAXReceiver {
  private struct OpenMatch {
    let order: Int
    let depth: Int
    let attributes: [String: String]
    var text: [UInt8] = []
  }

  private let root: PathNode
  private let handle: (Int, String, [String: String]) throws -> Void
  /// Per open element: the nodes of the path tree it reached (none when its path leads to no
  /// registered path).
  private var nodes: [[PathNode]] = []
  private var openMatches: [OpenMatch] = []
  /// The document's root element, once it has started.
  private(set) var documentRoot: XMLRoot?
  /// What the handler threw.
  private(set) var failure: (any Error)?

  /// `handle` gets each match: its path's registration order, its text and its attributes.
  init(root: PathNode, handle: @escaping (Int, String, [String: String]) throws -> Void) {
    self.root = root
    self.handle = handle
  }

  /// After the first error or a failing handler, nothing more is reported.
  override var stopped: Bool { firstError != nil || failure != nil }

  override func start(_ name: String, attributes: () -> [String: String]) {
    let parents = nodes.last ?? [root]
    let reached = parents.isEmpty ? [] : parents.flatMap { $0.children(named: name) }
    nodes.append(reached)
    guard documentRoot == nil || reached.contains(where: { !$0.registrations.isEmpty }) else {
      return
    }
    // The attributes are read only for the root and for elements a path ends at.
    let values = attributes()
    if documentRoot == nil {
      documentRoot = XMLRoot(name: name, attributes: values)
    }
    // In registration order, also across a name's own node and the wildcard's.
    let registered =
      reached.count == 1
      ? reached[0].registrations
      : reached.flatMap { $0.registrations }.sorted { $0.order < $1.order }
    for registration in registered where registration.path.accepts(values) {
      openMatches.append(
        OpenMatch(order: registration.order, depth: nodes.count, attributes: values))
    }
  }

  override func text(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard !stopped, !openMatches.isEmpty else { return }
    for index in openMatches.indices { openMatches[index].text.append(contentsOf: bytes) }
  }

  override func end() {
    let depth = nodes.count
    if let last = openMatches.last, last.depth == depth {
      let closing = openMatches.firstIndex { $0.depth == depth }!
      do {
        for match in openMatches[closing...] {
          try handle(match.order, String(decoding: match.text, as: UTF8.self), match.attributes)
        }
      } catch {
        failure = error
      }
      openMatches.removeSubrange(closing...)
    }
    nodes.removeLast()
  }
}
