import Foundation

/// The one way fetcher writes JSON: keys sorted, slashes as they are (`http://`, not
/// `http:\/\/`), dates in ISO 8601, and numbers that are not finite as strings ("nan"), so
/// that encoding a value of strings, numbers, dates and arrays of them cannot fail.
public enum JSONOutput {
  /// `value` as JSON on one line, or indented with `pretty`.
  public static func string(_ value: some Encodable, pretty: Bool = false) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    if pretty { encoder.outputFormatting.insert(.prettyPrinted) }
    encoder.dateEncodingStrategy = .iso8601
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    do {
      return String(decoding: try encoder.encode(value), as: UTF8.self)
    } catch {
      // Only a type whose own encode(to:) throws gets here: a fault in the program.
      preconditionFailure("cannot write \(type(of: value)) as JSON: \(error)")
    }
  }
}
