import DownloadRPC

/// The values of an aria2 options object, read as aria2c reads them (strings; numbers taken
/// too), each wrong one refused with an error that names its option.
struct OptionValues {
  let options: [String: JSONValue]

  init(_ value: JSONValue?) { options = value?.object ?? [:] }

  /// The text of `key`; nil when it is not given.
  func text(_ key: String) throws(RPCError) -> String? {
    guard let option = options[key] else { return nil }
    guard let text = option.string ?? option.integer.map(String.init) else {
      throw .failure("\(key): expected a string")
    }
    return text
  }

  /// `key` as `true` or `false`.
  func flag(_ key: String) throws(RPCError) -> Bool? {
    guard let text = try text(key) else { return nil }
    guard text == "true" || text == "false" else {
      throw .failure("\(key): true or false, not \(text)")
    }
    return text == "true"
  }

  /// `key` as a number of bytes, with K or M after it (`Aria2Options.bytes`).
  func bytes(_ key: String) throws(RPCError) -> Int64? {
    guard let text = try text(key) else { return nil }
    guard let bytes = Aria2Options.bytes(text) else {
      throw .failure("\(key): a number of bytes, with K or M, not \(text)")
    }
    return bytes
  }

  /// `key` as a number from 1.
  func count(_ key: String) throws(RPCError) -> Int? {
    guard let text = try text(key) else { return nil }
    guard let number = Int(text), number >= 1 else {
      throw .failure("\(key): a number from 1, not \(text)")
    }
    return number
  }
}
