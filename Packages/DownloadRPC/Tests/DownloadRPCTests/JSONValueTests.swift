import DownloadRPC
import Foundation
import Testing

/// `JSONValue`'s text, written directly, against `JSONEncoder`'s with the same options, on
/// every kind of value and on values drawn at random.
@Suite struct JSONValueTests {
  private func encoded(_ value: JSONValue) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  @Test(arguments: [
    JSONValue.null, .bool(true), .bool(false), .integer(0), .integer(-42), .integer(.max),
    .number(3), .number(0.1), .number(1e20), .number(1e-7), .number(1.0 / 3),
    .string(""), .string("a/b \" \\ \u{1} \u{8} \u{C} \n \r \t \u{1F} \u{7F} é \u{2028} 😀"),
    .array([]), .object([:]),
    .object([
      "b": .integer(1),
      "a": [.null, "x", .object(["B": .integer(3), "aa": .number(5.5), "é": "4"])],
      "": .bool(true),
    ]),
    // Ordered by their UTF-8, as JSONEncoder orders them, not as String's `<` (which compares
    // "\u{37E}" as ";", and a compatibility ideograph as the ideograph it stands for), nor
    // as UTF-16 (which puts U+10000 before U+FFFD).
    .object(["C": .integer(1), "\u{37E}": .integer(2), "\u{931F}": .null, "\u{2F919}": .null]),
    .object(["\u{FFFD}": .null, "\u{10000}": .null]),
  ])
  func isWhatJSONEncoderWrites(_ value: JSONValue) throws {
    #expect(String(decoding: value.json, as: UTF8.self) == (try encoded(value)))
    // Read back, it writes the same text (a whole number reads back as an integer).
    #expect(try JSONValue(json: value.json).json == value.json)
  }

  @Test func randomValuesAreWhatJSONEncoderWrites() throws {
    var generator = SplitMix64(seed: 72)
    for _ in 0..<2000 {
      let value = Self.random(depth: 4, using: &generator)
      #expect(String(decoding: value.json, as: UTF8.self) == (try encoded(value)))
    }
  }

  @Test func aNumberThatIsNotFiniteIsNullAndMinusZeroIsKept() throws {
    #expect(JSONValue.array([.number(.infinity), .number(.nan)]).json == Data("[null,null]".utf8))
    #expect(String(decoding: JSONValue.number(-0.0).json, as: UTF8.self) == "-0")
    #expect(try encoded(.number(-0.0)) == "-0")
  }

  /// A value nested at most `depth` deep, of characters from all of Unicode's planes.
  private static func random(
    depth: Int, using generator: inout SplitMix64
  ) -> JSONValue {
    let kinds = depth == 0 ? 5 : 7
    switch Int.random(in: 0..<kinds, using: &generator) {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &generator))
    case 2: return .integer(Int.random(in: Int.min...Int.max, using: &generator))
    case 3:
      let bits = UInt64.random(in: 0...UInt64.max, using: &generator)
      let number = Double(bitPattern: bits)
      return .number(number.isFinite ? number : Double(bits % 1000) / 7)
    case 4: return .string(randomString(using: &generator))
    case 5:
      return .array(
        (0..<Int.random(in: 0..<4, using: &generator)).map { _ in
          random(depth: depth - 1, using: &generator)
        })
    default:
      var members: [String: JSONValue] = [:]
      for _ in 0..<Int.random(in: 0..<4, using: &generator) {
        members[randomString(using: &generator)] = random(depth: depth - 1, using: &generator)
      }
      return .object(members)
    }
  }

  private static func randomString(using generator: inout SplitMix64) -> String {
    let ranges: [ClosedRange<UInt32>] = [
      0...0x7F, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF,
    ]
    var text = ""
    for _ in 0..<Int.random(in: 0..<8, using: &generator) {
      let range = ranges.randomElement(using: &generator)!
      text.unicodeScalars.append(Unicode.Scalar(UInt32.random(in: range, using: &generator))!)
    }
    return text
  }
}

/// SplitMix64: the same values from the same seed, so that a failure comes back on every run.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var value = state
    value = (value ^ (value >> 30)) &* 0xbf58_476d_1ce4_e5b9
    value = (value ^ (value >> 27)) &* 0x94d0_49bb_1331_11eb
    return value ^ (value >> 31)
  }
}
