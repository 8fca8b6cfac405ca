import Foundation

/// Any JSON value, as JSON-RPC carries it: parameters and results whose shape depends on the
/// method.
public enum JSONValue: Sendable, Equatable, Codable {
  case null
  case bool(Bool)
  case integer(Int)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    // Strings first: most of aria2's values are, and each type tried before costs an error.
    if container.decodeNil() {
      self = .null
    } else if let string = try? container.decode(String.self) {
      self = .string(string)
    } else if let object = try? container.decode([String: JSONValue].self) {
      self = .object(object)
    } else if let array = try? container.decode([JSONValue].self) {
      self = .array(array)
    } else if let bool = try? container.decode(Bool.self) {
      self = .bool(bool)
    } else if let integer = try? container.decode(Int.self) {
      self = .integer(integer)
    } else {
      self = .number(try container.decode(Double.self))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .integer(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }

  /// The value parsed from JSON text.
  public init(json: Data) throws {
    self = try JSONDecoder().decode(JSONValue.self, from: json)
  }

  /// The value as JSON text, its object keys sorted.
  public var json: Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // A JSONValue holds nothing an encoder refuses (numbers are finite: they were decoded).
    return (try? encoder.encode(self)) ?? Data("null".utf8)
  }

  public var string: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  public var array: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  public var object: [String: JSONValue]? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// An integer, or a string of one: aria2 writes its numbers as strings.
  public var integer: Int? {
    switch self {
    case .integer(let value): return value
    case .number(let value) where value.rounded() == value && abs(value) < 1e15: return Int(value)
    case .string(let text): return Int(text)
    default: return nil
    }
  }

  /// The value under `key` of an object.
  public subscript(key: String) -> JSONValue? {
    object?[key]
  }
}

extension JSONValue: ExpressibleByStringLiteral {
  public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}
