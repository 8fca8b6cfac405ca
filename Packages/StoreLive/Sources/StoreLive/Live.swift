import Foundation
import Store

extension Store where Key: Codable, Value: Codable {
  /// A durable store kept as one JSON file at `url`.
  ///
  /// Writes are atomic (a temporary file, fsync, rename), so a crash leaves either the old
  /// or the new file. Every endpoint holds a lock on `<file>.lock`, exclusive for changes, so
  /// `update` is atomic across threads and processes. A file that cannot be read or decoded
  /// is an error (`StoreFileError`) and is never overwritten.
  public static func file(at url: URL) -> Store {
    let file = StoreFile<Key, Value>(url: url)
    return Store(
      load: { key in try file.read()[key] },
      save: { key, value in try file.modify { $0[key] = value } },
      delete: { key in try file.modify { $0[key] = nil } },
      update: { key, transform in
        try file.modify { values in
          values[key] = try transform(values[key])
          return values[key]
        }
      }
    )
  }
}
