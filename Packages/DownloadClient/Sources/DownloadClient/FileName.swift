import Foundation

/// Safe file names for downloads: no folders, no `..`, no control characters.
public enum FileName {
  /// `candidate` reduced to a plain file name, or nil when nothing usable is left.
  public static func sanitised(_ candidate: String) -> String? {
    let lastComponent =
      candidate.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last
      .map(String.init) ?? ""
    let cleaned = lastComponent.unicodeScalars.filter {
      !CharacterSet.controlCharacters.contains($0)
    }
    var name = String(String.UnicodeScalarView(cleaned)).trimmingCharacters(in: .whitespaces)
    while name.hasPrefix(".") { name.removeFirst() }
    guard !name.isEmpty else { return nil }
    return String(name.prefix(200))
  }

  /// The name in a `Content-Disposition` header's `filename` (or `filename*=UTF-8''`).
  public static func fromContentDisposition(_ header: String) -> String? {
    for part in header.split(separator: ";") {
      let pair = part.split(separator: "=", maxSplits: 1).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard pair.count == 2 else { continue }
      switch pair[0].lowercased() {
      case "filename*":
        let value = pair[1].components(separatedBy: "''").last ?? ""
        if let decoded = value.removingPercentEncoding { return sanitised(decoded) }
      case "filename":
        return sanitised(pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
      default:
        continue
      }
    }
    return nil
  }

  /// The name for a download of `url`: its last path component, or "download".
  public static func fromURL(_ url: URL) -> String {
    sanitised(url.lastPathComponent.removingPercentEncoding ?? url.lastPathComponent)
      ?? "download"
  }
}
