/// Why a store file could not be used. The file is left as it is in every case.
public enum StoreFileError: Error, Equatable, Sendable {
  /// The file exists but does not hold what the store wrote.
  case corrupt(path: String, reason: String)
  /// The file or its lock could not be read.
  case unreadable(path: String, reason: String)
  /// The new contents could not be written (a full disk, a read-only folder).
  case unwritable(path: String, reason: String)
}

extension StoreFileError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .corrupt(let path, let reason):
      return
        "the state file \(path) is corrupt (\(reason)); it was left untouched: repair or remove it"
    case .unreadable(let path, let reason):
      return "cannot read the state file \(path): \(reason)"
    case .unwritable(let path, let reason):
      return "cannot write the state file \(path): \(reason)"
    }
  }
}
