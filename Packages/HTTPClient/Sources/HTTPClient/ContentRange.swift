/// The bytes a 206 answer holds, from its `Content-Range: bytes START-END/SIZE` header
/// (RFC 9110, section 14.4). `size` is nil when the server writes `*` for it.
public struct ContentRange: Sendable, Equatable {
  /// The first byte's offset.
  public var start: Int64
  /// The last byte's offset (inclusive, as in the header).
  public var end: Int64
  /// The whole representation's size, when known.
  public var size: Int64?

  public init(start: Int64, end: Int64, size: Int64?) {
    self.start = start
    self.end = end
    self.size = size
  }

  /// The range `header` names; nil for none, another unit than bytes, an unsatisfied range
  /// (`bytes */SIZE`) or bounds out of order.
  public init?(_ header: String?) {
    guard let header, header.lowercased().hasPrefix("bytes ") else { return nil }
    let spec = header.dropFirst(6).split(
      separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
    guard spec.count == 2 else { return nil }
    let bounds = spec[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
    guard bounds.count == 2, let start = Int64(bounds[0]), let end = Int64(bounds[1]),
      start >= 0, start <= end
    else { return nil }
    self.init(start: start, end: end, size: Int64(spec[1]))
  }
}

extension HTTPResponseHead {
  /// What `Content-Range` says, when it reads (`ContentRange`).
  public var contentRange: ContentRange? { ContentRange(headers["Content-Range"]) }
}
