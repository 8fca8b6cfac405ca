import Foundation

/// How the live client reaches servers: proxy, trusted certificates, redirects.
public struct HTTPConfiguration: Sendable, Equatable {
  /// The proxy for every request (`http://host:port`, `socks5://…`); nil takes it from the
  /// environment as curl does (`http_proxy`, `https_proxy`, `ALL_PROXY`, `no_proxy`), and ""
  /// uses none.
  public var proxy: String?
  /// A PEM file of the certificate authorities to trust instead of the system's.
  public var caFile: String?
  /// Accept any certificate and host name (curl's `--insecure`).
  public var insecure: Bool
  /// The most redirects followed (curl's default is 50).
  public var maxRedirects: Int
  /// Where to find user names and passwords by host, as curl's `--netrc`; nil for nowhere.
  public var netrc: Netrc?
  /// The cookies to send and to keep, as curl's `--cookie` and `--cookie-jar`.
  public var cookies: Cookies
  /// A Unix socket to send every request through instead of a connection to the URL's host,
  /// as curl's `--unix-socket`.
  public var unixSocket: String?

  public init(
    proxy: String? = nil, caFile: String? = nil, insecure: Bool = false, maxRedirects: Int = 50,
    netrc: Netrc? = nil, cookies: Cookies = Cookies()
  ) {
    self.proxy = proxy
    self.caFile = caFile
    self.insecure = insecure
    self.maxRedirects = maxRedirects
    self.netrc = netrc
    self.cookies = cookies
  }

  /// A `.netrc` file: its `machine` entries log in to their hosts. A user name and password
  /// in the URL win, as in curl.
  public enum Netrc: Sendable, Equatable {
    /// `$HOME/.netrc` (`--netrc`).
    case home
    /// This file (`--netrc-file`).
    case file(String)
  }

  /// libcurl's cookie engine, shared by every request of the client: cookies a server sets
  /// are sent back to it by the requests after.
  public struct Cookies: Sendable, Equatable {
    /// The cookies to start with: a Netscape cookie file (or one of `Set-Cookie` lines).
    public var file: String?
    /// Cookies to send to every host, as `name=value; name2=value2`.
    public var header: String?
    /// Where to write every cookie at the end of each request, in Netscape format: replaced
    /// as a whole (a new `0600` file renamed over it), never written through a link.
    public var jar: String?

    public init(file: String? = nil, header: String? = nil, jar: String? = nil) {
      self.file = file
      self.header = header
      self.jar = jar
    }

    /// Whether the engine is on: a file to read or a jar to write.
    var engineOn: Bool { file != nil || jar != nil }
  }

  /// The certificate file that curl's tool would take from the environment:
  /// `CURL_CA_BUNDLE`, else `SSL_CERT_FILE`.
  public static func caFile(
    from environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String? {
    [environment["CURL_CA_BUNDLE"], environment["SSL_CERT_FILE"]]
      .compactMap { $0 }.first { !$0.isEmpty }
  }
}
