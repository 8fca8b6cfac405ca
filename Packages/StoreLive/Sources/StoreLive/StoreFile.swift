import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A dictionary kept in a JSON file, read and written under a file lock.
struct StoreFile<Key: Hashable & Codable, Value: Codable>: Sendable {
  let url: URL

  var lockURL: URL { url.appendingPathExtension("lock") }

  /// The stored dictionary (empty when the file does not exist yet), read under a shared lock.
  func read() throws -> [Key: Value] {
    try FileLock.holding(lockURL, exclusive: false) { try decode() }
  }

  /// Reads the dictionary, lets `change` modify it, and writes it back atomically, all under
  /// an exclusive lock. Nothing is written when reading or `change` throws.
  func modify<T>(_ change: (inout [Key: Value]) throws -> T) throws -> T {
    try FileLock.holding(lockURL, exclusive: true) {
      var values = try decode()
      let result = try change(&values)
      try write(values)
      return result
    }
  }

  private func decode() throws -> [Key: Value] {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
      return [:]
    } catch {
      throw StoreFileError.unreadable(path: url.path, reason: error.localizedDescription)
    }
    do {
      return try JSONDecoder().decode([Key: Value].self, from: data)
    } catch {
      throw StoreFileError.corrupt(path: url.path, reason: Self.describe(error))
    }
  }

  private func write(_ values: [Key: Value]) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let data: Data
    do {
      data = try encoder.encode(values)
    } catch {
      throw StoreFileError.unwritable(path: url.path, reason: error.localizedDescription)
    }
    try AtomicFile.replace(url, with: data)
  }

  private static func describe(_ error: any Error) -> String {
    switch error {
    case DecodingError.dataCorrupted(let context):
      return context.underlyingError.map { "\($0.localizedDescription)" } ?? "not valid JSON"
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
      return context.debugDescription
    default:
      return error.localizedDescription
    }
  }
}
