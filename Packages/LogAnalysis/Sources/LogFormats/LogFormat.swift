/// How the lines of a log are written.
public enum LogFormat: Sendable, Equatable {
  /// An Apache `LogFormat` string, such as `%h %l %u %t "%r" %>s %b`.
  case apache(String)
  /// IIS / W3C extended (CloudFront too): the fields named by the `#Fields:` header line.
  case w3c
  /// One JSON object a line, its keys named by `JSONKeys`.
  case json(JSONKeys)

  /// Apache's and nginx's default: `%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i"`.
  public static let combined = apache(#"%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i""#)
  /// The Common Log Format: `%h %l %u %t "%r" %>s %b`.
  public static let common = apache(#"%h %l %u %t "%r" %>s %b"#)
  /// A virtual host first, with its port (Apache's vhost_combined, `%v:%p`) or without (`%v`,
  /// as Matomo's common_vhost and common_complete and many distributions write it), then a
  /// combined line, or a common one.
  public static let vcombined = apache(
    #"%v %h %l %u %t "%r" %>s %O "%{Referer}i" "%{User-Agent}i""#)

  /// Amazon S3's server access log: owner, bucket, `[time]`, remote IP, requester, request
  /// ID, operation, key, `"request"`, status, error code, bytes sent, object size, total and
  /// turn-around times, `"referer"`, `"user agent"`, then the fields AWS adds (read past).
  public static let s3 = apache(
    #"%{owner}x %{bucket}x %t %a %{requester}x %{id}x %{operation}x %{key}x "%r" %>s %{error}x %b %{size}x %{total}x %{turnaround}x "%{Referer}i" "%{User-Agent}i""#
  )

  /// Classic Elastic Load Balancing (AWS): the time, the balancer, `client:port`, the back
  /// end, three durations, its and the back end's status, bytes received and sent, `"request"`
  /// with an absolute URL (read as its path), `"user agent"`, the TLS cipher and protocol.
  public static let elb = apache(
    #"%{%Y-%m-%dT%H:%M:%S}t.%{usec_frac}tZ %{elb}x %a:%{remote}p %{backend}x %{request_time}x %{backend_time}x %{response_time}x %>s %{backend_status}x %{received}x %b "%r" "%{User-Agent}i" %{cipher}x %{protocol}x"#
  )

  /// Application Load Balancer (AWS): the classic load balancer's fields up to the user agent
  /// after the type of the request (`http`, `https`, `h2`, `grpcs`, `ws`, `wss`); the fields
  /// after the agent are read past.
  public static let alb = apache(
    #"%{type}x %{%Y-%m-%dT%H:%M:%S}t.%{usec_frac}tZ %{elb}x %a:%{remote}p %{target}x %{request_time}x %{target_time}x %{response_time}x %>s %{target_status}x %{received}x %b "%r" "%{User-Agent}i""#
  )

  /// Squid's native access log: seconds since 1970 and milliseconds, the duration (padded
  /// with spaces), the client, `TCP_MISS/200`, bytes, method, URL (kept whole: a proxy's
  /// pages are on many sites), user, `HIER_DIRECT/address`, content type.
  public static let squid = apache(
    #"%{sec}t.%{msec_frac}t %{elapsed}x %a %{result}x/%>s %b %m %U %{user}x %{hierarchy}x %{type}x"#
  )

  /// Lines of `docker compose logs` (or `docker-compose logs`): the service's name padded
  /// with spaces and `|` before a combined or common line (`web_1  | 1.2.3.4 - - […] …`).
  public static let compose = apache(
    #"%{service}x %{bar}x %h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i""#)

  /// HAProxy's HTTP log (`option httplog`), with a syslog header or without, with captured
  /// headers or without (read by `HAProxyLayout`; the string names its fields).
  public static let haproxy = apache(
    #"%a:%{port}p [%{%d/%b/%Y:%H:%M:%S}t.%{msec_frac}t] %{frontend}x %{backend}x %{timers}x %>s %b %{request_cookie}x %{response_cookie}x %{termination}x %{connections}x %{queues}x "%r""#
  )

  /// The names of the formats that `init(_:jsonKeys:)` reads.
  public static let names = [
    "combined", "common", "vcombined", "w3c", "json", "caddy", "traefik", "traefik-json", "s3",
    "elb", "alb", "squid", "compose", "haproxy",
  ]

  /// The format `text` names: `combined`, `common`, `vcombined`, `w3c`, `json`, `caddy`,
  /// `traefik`, `traefik-json`, `s3`, `elb`, `alb`, `squid`, `compose`, `haproxy`, or an Apache `LogFormat` string
  /// (anything with a `%`). Throws for anything else, and for a
  /// `LogFormat` string that cannot be read.
  public init(_ text: String, jsonKeys: JSONKeys = JSONKeys()) throws(AnalysisOptionError) {
    switch text.lowercased() {
    case "combined": self = .combined
    case "common", "clf": self = .common
    case "vcombined", "vhost_combined", "common_vhost", "common_complete": self = .vcombined
    case "w3c", "iis", "cloudfront": self = .w3c
    case "json": self = .json(jsonKeys)
    case "caddy": self = .json(.caddy)
    // Traefik's CLF is combined with more fields after the agent, which combined allows.
    case "traefik": self = .combined
    case "traefik-json": self = .json(.traefik)
    case "s3": self = .s3
    case "elb": self = .elb
    case "alb": self = .alb
    case "squid": self = .squid
    case "compose", "docker-compose": self = .compose
    case "haproxy": self = .haproxy
    default:
      guard text.contains("%") else {
        throw AnalysisOptionError(
          "unknown log format '\(text)': use \(Self.names.joined(separator: ", ")), or an "
            + #"Apache LogFormat string such as '%h %l %u %t "%r" %>s %b'"#)
      }
      _ = try ApacheLayout(text)
      self = .apache(text)
    }
  }

  /// Whether lines of this format are read by the fastest path, which finds only the client
  /// (the first field) and the page (in the first quoted field).
  package var isCombinedOrCommon: Bool { self == .combined || self == .common }

  /// The name the summary gives the format: a name `init(_:jsonKeys:)` reads, or the
  /// LogFormat string.
  public var name: String {
    switch self {
    case .combined: "combined"
    case .common: "common"
    case .vcombined: "vcombined"
    case .s3: "s3"
    case .elb: "elb"
    case .alb: "alb"
    case .squid: "squid"
    case .compose: "compose"
    case .haproxy: "haproxy"
    case .w3c: "w3c"
    case .json(.caddy): "caddy"
    case .json(.traefik): "traefik-json"
    case .json: "json"
    case .apache(let text): "LogFormat '\(text)'"
    }
  }

  /// The format of a log that starts with `sample`: W3C when a `#Version:` or `#Fields:`
  /// directive comes before its first entry; else, by that entry (other `#` lines, a banner or
  /// notes, passed over), JSON when it is an object, S3, ALB, ELB or Squid when it reads as
  /// theirs; otherwise combined, common or vcombined, as most of its first lines read
  /// (`apacheFormat`).
  package static func detect(_ sample: UnsafeRawBufferPointer) -> LogFormat {
    let scanner = ByteScanner(bytes: sample)
    var start = 0
    while start < sample.count {
      let end = scanner.newline(from: start)
      let line = UnsafeRawBufferPointer(rebasing: sample[start..<end])
      if let first = line.firstIndex(where: { !isSpace($0) }), line[first] != UInt8(ascii: "#") {
        start += first
        break
      }
      if line.starts(with: "#Version:".utf8) || line.starts(with: "#Fields:".utf8) {
        return .w3c
      }
      start = end + 1
    }
    guard start < sample.count else { return .combined }
    switch sample[start] {
    case UInt8(ascii: "{"): return jsonFormat(UnsafeRawBufferPointer(rebasing: sample[start...]))
    default:
      let rest = UnsafeRawBufferPointer(rebasing: sample[start...])
      if isS3(rest) { return .s3 }
      let line = UnsafeRawBufferPointer(
        rebasing: rest[..<ByteScanner(bytes: rest).newline(from: 0)])
      if let logged = withoutComposePrefix(line), LineParser.shape(of: logged) != nil {
        return .compose
      }
      var record = LogRecord()
      if HAProxyLayout.parse(line, into: &record) && record.fieldsHoldTheirValues {
        return .haproxy
      }
      return [.alb, .elb, .squid].first { reads(line, as: $0) } ?? apacheFormat(sample)
    }
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
  }

  /// Whether `line` reads as a line of `format`, an Apache LogFormat.
  private static func reads(_ line: UnsafeRawBufferPointer, as format: LogFormat) -> Bool {
    var record = LogRecord()
    guard let layout = try? ApacheLayout(format) else { return false }
    return layout.parse(line, into: &record)
  }

  /// Combined, common or vcombined: what most of the first lines of `sample` read as (twenty
  /// at most, blank and `#` lines aside). A vhost-prefixed log (`www.example.com:443 1.2.3.4 -
  /// - […] …`, or without the port) read as combined would take the vhost for the client.
  private static func apacheFormat(_ sample: UnsafeRawBufferPointer) -> LogFormat {
    var (combined, common, vhosts) = (0, 0, 0)
    let scanner = ByteScanner(bytes: sample)
    var (start, seen) = (0, 0)
    while start < sample.count && seen < 20 {
      let end = scanner.newline(from: start)
      defer { start = end + 1 }
      let cut = end > start && sample[end - 1] == UInt8(ascii: "\r") ? end - 1 : end
      let line = UnsafeRawBufferPointer(rebasing: sample[start..<cut])
      guard let first = line.first, first != UInt8(ascii: "#") else { continue }
      seen += 1
      switch LineParser.shape(of: line) {
      case .combined: combined += 1
      case .common: common += 1
      case nil: break
      }
      if let rest = withoutVhost(line), LineParser.shape(of: rest) != nil { vhosts += 1 }
    }
    if vhosts > combined + common { return .vcombined }
    return common > combined ? .common : .combined
  }

  /// Whether `sample` starts as an S3 server access log line: a canonical user ID (64 hex
  /// digits), a bucket name, and `[` a time.
  private static func isS3(_ sample: UnsafeRawBufferPointer) -> Bool {
    let isHex = { (byte: UInt8) in
      LineParser.isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }
    guard sample.count > 66, sample.prefix(64).allSatisfy(isHex),
      sample[64] == UInt8(ascii: " "),
      let space = sample[65...].firstIndex(of: UInt8(ascii: " ")), space + 1 < sample.count
    else { return false }
    return sample[space + 1] == UInt8(ascii: "[") && ApacheTime.isBracketed(sample, at: space + 1)
  }

  /// JSON lines of Caddy or Traefik, known by keys of theirs in the first line, or of nginx.
  private static func jsonFormat(_ sample: UnsafeRawBufferPointer) -> LogFormat {
    let end = ByteScanner(bytes: sample).newline(from: 0)
    let line = String(decoding: UnsafeRawBufferPointer(rebasing: sample[..<end]), as: UTF8.self)
    if line.contains(#""logger":"http.log.access"#)
      || line.contains(#""request":{"#) && line.contains(#""uri":"#)
    {
      return .json(.caddy)
    }
    if line.contains(#""ClientHost":"#) && line.contains(#""RequestPath":"#) {
      return .json(.traefik)
    }
    return .json(JSONKeys())
  }

  /// `line` after a `docker compose logs` prefix (a name, spaces, `| `); nil without one.
  private static func withoutComposePrefix(_ line: UnsafeRawBufferPointer)
    -> UnsafeRawBufferPointer?
  {
    guard let space = line.prefix(128).firstIndex(of: UInt8(ascii: " ")), space > 0 else {
      return nil
    }
    var bar = space
    while bar < line.count && line[bar] == UInt8(ascii: " ") { bar += 1 }
    guard bar + 1 < line.count, line[bar] == UInt8(ascii: "|"), line[bar + 1] == UInt8(ascii: " ")
    else { return nil }
    return UnsafeRawBufferPointer(rebasing: line[(bar + 2)...])
  }

  /// `line` after its first field (a virtual host, `host:port` or `host`) and its space; nil
  /// without one.
  private static func withoutVhost(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
    guard let space = line.firstIndex(of: UInt8(ascii: " ")), space > 0 else { return nil }
    return UnsafeRawBufferPointer(rebasing: line[(space + 1)...])
  }
}

/// The keys of a JSON log line that hold each field. The defaults are nginx's variable names,
/// as in `log_format main escape=json '{"remote_addr":"$remote_addr",…}'`. A key with dots
/// names a field inside objects (`request.headers.User-Agent`; a key that has a dot itself is
/// found whole too), and of an array, the first string is the value.
public struct JSONKeys: Sendable, Equatable {
  /// The client's address.
  public var client = "remote_addr"
  /// Tried when `client` is missing; empty for none.
  public var alternativeClient = ""
  /// The request line, `GET /page HTTP/1.1`.
  public var request = "request"
  /// The page, when there is no request line.
  public var path = "request_uri"
  /// The method, when there is no request line.
  public var method = "request_method"
  public var status = "status"
  /// The time: Apache's `10/Oct/2000:13:55:36 -0700`, ISO 8601, or seconds since 1970.
  public var time = "time_local"
  /// Tried when `time` is missing.
  public var alternativeTime = "time_iso8601"
  public var userAgent = "http_user_agent"
  public var referer = "http_referer"
  /// The bytes sent to the client.
  public var size = "body_bytes_sent"

  public init() {}

  /// Caddy's access log (`http.log.access`): the request as an object, its headers as
  /// arrays, `ts` in seconds.
  public static let caddy = {
    var keys = JSONKeys()
    keys.client = "request.client_ip"
    keys.alternativeClient = "request.remote_ip"
    keys.request = ""
    keys.path = "request.uri"
    keys.method = "request.method"
    keys.status = "status"
    keys.time = "ts"
    keys.alternativeTime = "ts"
    keys.userAgent = "request.headers.User-Agent"
    keys.referer = "request.headers.Referer"
    keys.size = "size"
    return keys
  }()

  /// Traefik's JSON access log; the headers are there when its configuration keeps them.
  public static let traefik = {
    var keys = JSONKeys()
    keys.client = "ClientHost"
    keys.request = ""
    keys.path = "RequestPath"
    keys.method = "RequestMethod"
    keys.status = "DownstreamStatus"
    keys.time = "StartUTC"
    keys.alternativeTime = "StartLocal"
    keys.userAgent = "request_User-Agent"
    keys.referer = "request_Referer"
    keys.size = "DownstreamContentSize"
    return keys
  }()

  /// The fields that `--json-keys` may name.
  public static let fieldNames = [
    "client", "request", "path", "method", "status", "time", "user-agent", "referer", "size",
  ]

  /// The defaults with the mappings of `text` applied: `field=key` pairs separated by
  /// commas, as in `client=ip,time=ts`.
  public init(mapping text: String) throws(AnalysisOptionError) {
    for pair in text.split(separator: ",") {
      let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, !parts[1].isEmpty else {
        throw AnalysisOptionError("'\(pair)' is not FIELD=KEY")
      }
      switch parts[0] {
      case "client": client = parts[1]
      case "request": request = parts[1]
      case "path": path = parts[1]
      case "method": method = parts[1]
      case "status": status = parts[1]
      case "time":
        time = parts[1]
        alternativeTime = parts[1]
      case "user-agent": userAgent = parts[1]
      case "referer": referer = parts[1]
      case "size": size = parts[1]
      default:
        throw AnalysisOptionError(
          "unknown JSON field '\(parts[0])': use "
            + Self.fieldNames.joined(separator: ", "))
      }
    }
  }
}
