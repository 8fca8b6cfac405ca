/// An element that matched a registered path: its identifier, its text (character data and
/// CDATA of the element and its descendants, entities decoded) and all its attributes.
public struct XMLMatch<ID: Sendable>: Sendable {
  public let id: ID
  public let text: String
  public let attributes: [String: String]

  public init(id: ID, text: String, attributes: [String: String]) {
    self.id = id
    self.text = text
    self.attributes = attributes
  }
}

extension XMLMatch: Equatable where ID: Equatable {}

/// A document's root element: its name as written (`feed`, `rss`, `html`) and its attributes,
/// namespace declarations (`xmlns:im`) among them. It tells what kind of document was read.
public struct XMLRoot: Equatable, Sendable {
  public let name: String
  public let attributes: [String: String]

  public init(name: String, attributes: [String: String]) {
    self.name = name
    self.attributes = attributes
  }
}

/// Why a path could not be registered or a document could not be read.
public enum XMLPathError: Error, Equatable, Sendable, CustomStringConvertible {
  case invalidPath(String, reason: String)
  /// The document is not well-formed XML; `line` and `column` (from 1, in characters) are
  /// where the fault is, or where the parser stopped.
  case malformed(line: Int, column: Int, reason: String)
  /// The document has no bytes at all.
  case empty

  public var description: String {
    switch self {
    case .invalidPath(let path, let reason):
      return "invalid XML path \"\(path)\": \(reason)"
    case .malformed(let line, let column, let reason):
      return "malformed XML at line \(line), column \(column): \(reason)"
    case .empty:
      return "the document is empty (0 bytes)"
    }
  }
}
