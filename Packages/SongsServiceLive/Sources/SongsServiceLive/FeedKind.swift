import Foundation

/// The format of a feed, told by its content rather than its URL or Content-Type: a `{` or `[`
/// first (after white space and a byte order mark) is JSON, an HTML page is named as one
/// before an XML parser stumbles on it, anything else is read as XML.
enum FeedKind: Equatable {
  case json, html, xml

  /// A document that is well-formed but not one of Apple's feeds; `found` says what it is.
  struct Other: Error {
    let found: String
  }

  init(of data: Data) {
    let head = data.prefix(512)
    let start =
      head.starts(with: [0xEF, 0xBB, 0xBF]) ? head.dropFirst(3) : head[head.startIndex...]
    let text = start.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
    if text.first == UInt8(ascii: "{") || text.first == UInt8(ascii: "[") {
      self = .json
      return
    }
    let opening = String(decoding: text.prefix(16), as: UTF8.self).lowercased()
    self = opening.hasPrefix("<!doctype html") || opening.hasPrefix("<html") ? .html : .xml
  }
}
