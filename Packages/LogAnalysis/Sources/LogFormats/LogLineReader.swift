import Foundation

/// Reads lines of an access log into their fields, as `fetcher analyze` reads them (the same
/// layouts, the same checks): for a tool of its own that reads lines, one at a time.
///
/// `LogLineReader(.combined).read(line)` gives a combined line's client, page, status and the
/// rest; `LogLineReader.format(of:)` finds a log's format from its first lines.
public struct LogLineReader: Sendable {
  private let layout: LineLayout

  /// A reader of lines of `format`. `header` is the start of the log, which a W3C log's
  /// `#Fields:` line must be in (other formats need none); throws when the format cannot be
  /// read so (a W3C header without a client or page field, or none).
  public init(_ format: LogFormat, header: String = "") throws(AnalysisOptionError) {
    let made = Array(header.utf8).withUnsafeBytes { sample in
      Result { () throws(AnalysisOptionError) in try LineLayout(format, sample: sample) }
    }
    layout = try made.get()
  }

  /// The format of a log that begins with `sample`, as `fetcher analyze` finds it when no
  /// `--log-format` is given: JSON, W3C, S3, ALB, ELB, Squid, or combined, common or
  /// vcombined as most of its first lines read.
  public static func format(of sample: String) -> LogFormat {
    Array(sample.utf8).withUnsafeBytes { LogFormat.detect($0) }
  }

  /// The fields of `line` (without its line break); nil when the line does not follow the
  /// format or names no client, which the analysis counts as malformed.
  public func read(_ line: String) -> LogLine? {
    Array(line.utf8).withUnsafeBytes { bytes in
      let arena = ByteArena()
      var record = LogRecord()
      guard layout.parse(bytes, into: &record, arena: arena),
        let client = record.client, client.count > 0
      else { return nil }
      return LogLine(record)
    }
  }
}

/// One line of an access log, as `LogLineReader` reads it. A field the format does not have,
/// or the line leaves empty (`-`), is nil.
public struct LogLine: Sendable, Equatable {
  /// The client: its address, or its host name when the format has no address.
  public var client: String
  public var method: String?
  /// The page: the request's target, with its query (`/cart?x=1`); nil when the request
  /// names none.
  public var page: String?
  /// The status code.
  public var status: Int?
  /// The bytes sent (0 for `-`).
  public var bytes: Int
  public var referer: String?
  public var userAgent: String?
  /// The time of the request, in seconds since 1970 (UTC).
  public var time: Int64?

  public init(
    client: String, method: String? = nil, page: String? = nil, status: Int? = nil,
    bytes: Int = 0, referer: String? = nil, userAgent: String? = nil, time: Int64? = nil
  ) {
    self.client = client
    self.method = method
    self.page = page
    self.status = status
    self.bytes = bytes
    self.referer = referer
    self.userAgent = userAgent
    self.time = time
  }

  fileprivate init(_ record: LogRecord) {
    client = record.client.map(Self.text) ?? ""
    var method = record.method.map(Self.text)
    if let request = record.request {
      let tokens = RequestLine.methodAndPage(request)
      method = method ?? tokens.map { Self.text($0.method) }
      page = tokens.map { Self.text($0.page) }
    } else if let path = record.path, path.count > 0 {
      let query = record.query.map(Self.text) ?? ""
      page = Self.text(path) + (query.isEmpty || query.hasPrefix("?") ? query : "?" + query)
    }
    self.method = method
    status = record.statusCode
    bytes = record.sizeValue
    referer = record.referer.map(Self.text).flatMap { $0 == "-" ? nil : $0 }
    userAgent = record.userAgent.map(Self.text).flatMap { $0 == "-" ? nil : $0 }
    time = record.seconds
  }

  private static func text(_ bytes: UnsafeRawBufferPointer) -> String {
    String(decoding: bytes, as: UTF8.self)
  }
}
