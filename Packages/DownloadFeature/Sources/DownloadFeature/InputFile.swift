import ChecksumTypes
import DownloadClient
import Foundation
import HTTPClient

/// A list of downloads in aria2c's input-file format: a URL on a line of its own (further
/// tab-separated URLs on it are mirrors of the same file), followed by indented
/// option lines for it: `dir=FOLDER`, `out=NAME` (inside the folder, as aria2c keeps it) and
/// `checksum=TYPE=HEX` (md5, sha-1, sha-224, sha-256, sha-384 or sha-512, as aria2c takes it).
/// Blank lines and lines starting with `#` are skipped.
public struct InputFile: Equatable, Sendable {
  /// One download of the list.
  public struct Entry: Equatable, Sendable {
    public var url: String
    /// The other URLs of the same file, in order.
    public var mirrors: [String]
    public var dir: String?
    public var out: String?
    public var checksum: FileChecksum?

    public init(
      url: String, mirrors: [String] = [], dir: String? = nil, out: String? = nil,
      checksum: FileChecksum? = nil
    ) {
      self.url = url
      self.mirrors = mirrors
      self.dir = dir
      self.out = out
      self.checksum = checksum
    }
  }

  /// A line that cannot be read, with its number (from 1).
  public struct Error: Swift.Error, Equatable, CustomStringConvertible {
    public var line: Int
    public var reason: String
    public var description: String { "line \(line): \(reason)" }

    public init(line: Int, reason: String) {
      self.line = line
      self.reason = reason
    }
  }

  public var entries: [Entry]

  /// Reads `text`; throws on a URL line that is not a URL, an option line before any URL, an
  /// unknown option, an `out` that leaves the folder, or a checksum that is not `sha-256=`
  /// and 64 hex digits.
  public init(_ text: String) throws(Error) {
    entries = []
    // "\r\n" is one Character, and a newline.
    let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    for (index, line) in lines.enumerated() {
      let trimmed = line.trimmingWhitespace
      if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
      guard line.first == " " || line.first == "\t" else {
        let urls = trimmed.split(separator: "\t").map {
          $0.trimmingWhitespace
        }.filter { !$0.isEmpty }
        for url in urls where URL(string: url)?.scheme == nil {
          throw Error(line: index + 1, reason: "not a URL: \(url)")
        }
        entries.append(Entry(url: urls[0], mirrors: Array(urls.dropFirst())))
        continue
      }
      guard !entries.isEmpty else {
        throw Error(line: index + 1, reason: "an option line before any URL")
      }
      try apply(trimmed, to: &entries[entries.count - 1], line: index + 1)
    }
  }

  private func apply(_ option: String, to entry: inout Entry, line: Int) throws(Error) {
    guard let equals = option.firstIndex(of: "=") else {
      throw Error(line: line, reason: "'\(option)' is not NAME=VALUE")
    }
    let name = option[..<equals].trimmingWhitespace
    let value = option[option.index(after: equals)...].trimmingWhitespace
    switch name {
    case "dir": entry.dir = value
    case "out":
      // As in aria2c, the name is always inside the entry's folder: a leading / is dropped.
      let relative = String(value.drop { $0 == "/" })
      guard !relative.isEmpty, !relative.split(separator: "/").contains("..") else {
        throw Error(line: line, reason: "out=\(value) leaves the download folder")
      }
      entry.out = relative
    case "checksum":
      guard let checksum = FileChecksum(value) else {
        throw Error(
          line: line,
          reason: "checksum=\(value) is not TYPE=HEX with a type of \(FileChecksum.typeNames) "
            + "and its number of hex digits")
      }
      entry.checksum = checksum
    default:
      throw Error(line: line, reason: "unknown option '\(name)' (dir, out and checksum are read)")
    }
  }
}
