import DownloadClient

/// aria2's name for a download: 16 hex digits. A download's ID (8 hex digits) is written
/// with 8 zeros before it, so that front ends that expect 16 digits take it; an ID of another
/// length is its own GID.
public enum GID {
  /// The GID of `id`.
  public static func of(_ id: DownloadID) -> String {
    id.rawValue.count == 8 ? String(repeating: "0", count: 8) + id.rawValue : id.rawValue
  }

  /// The ID a GID names.
  public static func id(_ gid: String) -> DownloadID {
    let padding = String(repeating: "0", count: 8)
    return gid.count == 16 && gid.hasPrefix(padding)
      ? DownloadID(String(gid.dropFirst(8))) : DownloadID(gid)
  }
}
