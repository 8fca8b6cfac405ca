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

  /// The value parsed from JSON text; throws when it nests arrays and objects deeper than
  /// `JSONValue.maxDepth`, before decoding any of it. Parsed by `JSONSerialization`: twenty
  /// times as fast as this type's `Decodable` conformance, which tries each kind of value in
  /// turn (2 MB of numbers: 0.3 s against 6.7 s).
  public init(json: Data) throws {
    guard Self.shape(of: json).depth <= Self.maxDepth else { throw JSONTooDeep() }
    try self.init(measured: json)
  }

  /// The value parsed from JSON text whose `shape(of:)` the caller has checked.
  init(measured json: Data) throws {
    self = Self(parsed: try JSONSerialization.jsonObject(with: json, options: .fragmentsAllowed))
  }

  /// The value of what `JSONSerialization` parsed.
  private init(parsed: Any) {
    switch parsed {
    case let text as String: self = .string(text)
    case let list as [Any]: self = .array(list.map(JSONValue.init(parsed:)))
    case let object as [String: Any]: self = .object(object.mapValues(JSONValue.init(parsed:)))
    case let number as NSNumber:
      // A Boolean is a number of type "c"; an integer one of the integer types.
      switch String(cString: number.objCType) {
      case "c": self = .bool(number.boolValue)
      case "d", "f", "Q": self = .number(number.doubleValue)
      default: self = .integer(number.intValue)
      }
    default: self = .null
    }
  }

  /// The deepest nesting of arrays and objects `init(json:)` reads: aria2's deepest calls (a
  /// multicall of calls with options) take six, and decoding costs more than linear time
  /// past a few hundred.
  public static let maxDepth = 32

  /// How deep `json` nests arrays and objects, and how many entries its outermost array has
  /// (0 when it is no array), read in one pass over its bytes without parsing them: a bound
  /// checked before the parser's work (malformed text is the parser's to refuse).
  static func shape(of json: Data) -> (depth: Int, entries: Int) {
    json.withUnsafeBytes { bytes in
      var depth = 0
      var deepest = 0
      var separators = 0
      var inString = false
      var escaped = false
      var outermost: UInt8?
      for byte in bytes {
        if inString {
          if escaped {
            escaped = false
          } else if byte == UInt8(ascii: "\\") {
            escaped = true
          } else if byte == UInt8(ascii: "\"") {
            inString = false
          }
          continue
        }
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "["), UInt8(ascii: "{"):
          if depth == 0 { outermost = outermost ?? byte }
          depth += 1
          deepest = max(deepest, depth)
        case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
        case UInt8(ascii: ","): if depth == 1 { separators += 1 }
        default: break
        }
      }
      return (deepest, outermost == UInt8(ascii: "[") ? separators + 1 : 0)
    }
  }

  /// The value as JSON text, its object keys in the order of their UTF-8 bytes.
  /// The same text as `JSONEncoder`'s with `.sortedKeys` and `.withoutEscapingSlashes`,
  /// written directly: the encoder's generic machinery took 40 ms for the 640 KB answer to
  /// `tellWaiting(0, 1000)`, most of the daemon's time on it.
  public var json: Data {
    var text: [UInt8] = []
    write(to: &text)
    return Data(text)
  }

  private func write(to text: inout [UInt8]) {
    switch self {
    case .null: text += "null".utf8
    case .bool(let value): text += (value ? "true" : "false").utf8
    case .integer(let value): text += String(value).utf8
    case .number(let value) where !value.isFinite: text += "null".utf8
    case .number(let value):
      // Swift's shortest form that reads back the same, without a whole number's ".0".
      let written = "\(value)"
      text += (written.hasSuffix(".0") ? written.dropLast(2) : Substring(written)).utf8
    case .string(let value): Self.write(value, to: &text)
    case .array(let values):
      text.append(UInt8(ascii: "["))
      for (index, value) in values.enumerated() {
        if index > 0 { text.append(UInt8(ascii: ",")) }
        value.write(to: &text)
      }
      text.append(UInt8(ascii: "]"))
    case .object(let members):
      text.append(UInt8(ascii: "{"))
      for (index, member) in members.sorted(by: {
        $0.key.utf8.lexicographicallyPrecedes($1.key.utf8)
      }).enumerated() {
        if index > 0 { text.append(UInt8(ascii: ",")) }
        Self.write(member.key, to: &text)
        text.append(UInt8(ascii: ":"))
        member.value.write(to: &text)
      }
      text.append(UInt8(ascii: "}"))
    }
  }

  /// `string` quoted, with the quote, the backslash and control characters escaped.
  private static func write(_ string: String, to text: inout [UInt8]) {
    text.append(UInt8(ascii: "\""))
    for byte in string.utf8 {
      switch byte {
      case UInt8(ascii: "\""): text += #"\""#.utf8
      case UInt8(ascii: "\\"): text += #"\\"#.utf8
      case 0x08: text += #"\b"#.utf8
      case 0x0C: text += #"\f"#.utf8
      case 0x0A: text += #"\n"#.utf8
      case 0x0D: text += #"\r"#.utf8
      case 0x09: text += #"\t"#.utf8
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        text += #"\u00"#.utf8
        text += [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      default: text.append(byte)
      }
    }
    text.append(UInt8(ascii: "\""))
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

/// JSON text that nests deeper than `JSONValue.maxDepth`.
public struct JSONTooDeep: Error, CustomStringConvertible {
  public var description: String {
    "the JSON nests deeper than \(JSONValue.maxDepth) arrays and objects"
  }
}
