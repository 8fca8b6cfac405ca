import ArgumentParser
import Foundation
import HTTPClient
import HTTPClientLive
import StyleGuide

/// How to reach servers, with curl's option names: a proxy, the certificates to trust, the
/// `.netrc` and the cookies.
struct ConnectionOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Use this proxy (http://host:port, socks5://host:port); \"\" for none.",
      discussion: "Without it, http_proxy, https_proxy, ALL_PROXY and no_proxy apply, as in curl."
    ))
  var proxy: String?

  @Option(
    help: ArgumentHelp(
      "Trust the certificate authorities in this PEM file instead of the system's.",
      discussion: "Without it, CURL_CA_BUNDLE or SSL_CERT_FILE, when set.",
      valueName: "file"))
  var cacert: String?

  @Flag(name: [.customShort("k"), .long], help: "Accept any TLS certificate (unsafe).")
  var insecure = false

  @Flag(
    name: [.customShort("n"), .long],
    help: "Log in with the user and password ~/.netrc gives for the host (a URL's own win).")
  var netrc = false

  @Option(
    name: .customLong("netrc-file"),
    help: ArgumentHelp("--netrc with this file.", valueName: "file"))
  var netrcFile: String?

  @Option(
    name: [.customShort("b"), .long],
    help: ArgumentHelp(
      "Send cookies: NAME=VALUE[; NAME2=VALUE2], or those of a cookie file.",
      discussion:
        "A value without '=' is a file: Netscape format, as curl and browsers write it, whose "
        + "cookies go to their own domains. NAME=VALUE is a secret, as a Cookie header is: it "
        + "goes only to the origin named on the command line.",
      valueName: "data|file"))
  var cookie: String?

  @Option(
    name: [.customShort("c"), .customLong("cookie-jar")],
    help: ArgumentHelp(
      "Keep the cookies servers set, and write them all to this file (Netscape format).",
      valueName: "file"))
  var cookieJar: String?

  func validate() throws {
    // aria2c's -c (continue) is curl's -c (the cookie jar) here: a URL after it was meant to
    // be downloaded.
    if let cookieJar, cookieJar.contains("://") {
      throw ValidationError(
        "-c is curl's --cookie-jar FILE here, and took \(cookieJar.printable) for the file; "
          + "aria2c's -c (continue) is what fetcher does by itself: leave it out, or write "
          + "--continue")
    }
    if let cacert, !FileManager.default.isReadableFile(atPath: cacert) {
      throw ValidationError("--cacert: cannot read \(cacert)")
    }
    if let netrcFile, !FileManager.default.isReadableFile(atPath: netrcFile) {
      throw ValidationError("--netrc-file: cannot read \(netrcFile)")
    }
    // A jar named by -b too starts empty, the first time (curl -b jar -c jar).
    if let file = cookieFile, file != cookieJar, !FileManager.default.isReadableFile(atPath: file) {
      throw ValidationError("--cookie: cannot read the cookie file \(file)")
    }
    if let cookieData, cookieData.contains(where: { $0 == "\r" || $0 == "\n" }) {
      throw ValidationError("--cookie takes NAME=VALUE on one line")
    }
    if let cookieJar {
      // The jar is replaced as a whole, never written through: a name that is a link, a FIFO
      // or a device is refused rather than replaced.
      var status = stat()
      if lstat(cookieJar, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
        let kind = status.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : "not a regular file"
        throw ValidationError(
          "--cookie-jar: \(cookieJar) is \(kind); name the file the cookies are written to")
      }
      let folder = URL(fileURLWithPath: cookieJar).deletingLastPathComponent().path
      guard FileManager.default.isWritableFile(atPath: folder) else {
        throw ValidationError("--cookie-jar: cannot write in \(folder)")
      }
    }
  }

  /// `--cookie` when it names a file (it has no `=`), as curl reads it.
  private var cookieFile: String? { cookie.flatMap { $0.contains("=") ? nil : $0 } }
  /// `--cookie` when it gives cookies (NAME=VALUE): a `Cookie` header of the request headers
  /// (`RequestHeaderOptions.adding(cookies:)`), a secret, not cookies for every host.
  var cookieData: String? { cookieFile == nil ? cookie : nil }

  /// The HTTP client for these options; `--insecure` is said on standard error.
  func httpClient() -> HTTPClient {
    if insecure {
      Terminal.writeError("fetcher: warning: --insecure: TLS certificates are not checked\n")
    }
    var configuration = HTTPConfiguration(proxy: proxy, caFile: cacert, insecure: insecure)
    configuration.netrc = netrcFile.map { .file($0) } ?? (netrc ? .home : nil)
    configuration.cookies = HTTPConfiguration.Cookies(file: cookieFile, jar: cookieJar)
    return .configured(configuration)
  }
}

/// What every request carries, with curl's option names: Basic auth and extra headers.
/// Passwords and secret headers (`HTTPHeaders.isSecret`) are never stored nor shown, and go
/// only to the origin the user named.
struct RequestHeaderOptions: ParsableArguments {
  @Option(name: [.customShort("u"), .long], help: "Send Basic auth as USER:PASSWORD.")
  var user: String?

  @Option(
    name: [.customShort("H"), .customLong("header")],
    help: ArgumentHelp("Add a header to every request; repeat for more.", valueName: "Name: value"))
  var headerLines: [String] = []

  func validate() throws {
    if let user, !user.contains(":") {
      throw ValidationError("--user takes USER:PASSWORD")
    }
    for line in headerLines {
      guard Self.field(line) != nil else {
        throw ValidationError("--header takes 'Name: value' on one line, not '\(line)'")
      }
    }
  }

  /// These options with `cookies` (`--cookie NAME=VALUE`) as a `Cookie` header, joined to the
  /// one `--header` gives: a secret like the others.
  func adding(cookies: String?) -> RequestHeaderOptions {
    guard let cookies else { return self }
    var copy = self
    if let index = headerLines.firstIndex(where: { Self.field($0)?.name.lowercased() == "cookie" })
    {
      copy.headerLines[index] += "; " + cookies
    } else {
      copy.headerLines.append("Cookie: " + cookies)
    }
    return copy
  }

  /// The headers to send: `--header`s, and `Authorization` from `--user`.
  var headers: [String: String] {
    var headers: [String: String] = [:]
    for field in headerLines.compactMap(Self.field) { headers[field.name] = field.value }
    if let user {
      headers["Authorization"] = "Basic " + Data(user.utf8).base64EncodedString()
    }
    return headers
  }

  /// The same, as HTTP header fields.
  var fields: HTTPHeaders {
    HTTPHeaders(headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) })
  }

  /// The headers to send to `url` when the user named `origin`: the secret ones only to
  /// that origin (see `HTTPHeaders.sendable(to:trusting:)`).
  func headers(for url: URL, trusting origin: URL) -> [String: String] {
    Dictionary(
      fields.sendable(to: url, trusting: origin).map { ($0.name, $0.value) },
      uniquingKeysWith: { first, _ in first })
  }

  private static func field(_ line: String) -> (name: String, value: String)? {
    guard let colon = line.firstIndex(of: ":"),
      !line.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" })
    else { return nil }
    let name = line[..<colon].trimmingCharacters(in: .whitespaces)
    guard !name.isEmpty, !name.contains(" ") else { return nil }
    return (name, line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
  }
}
