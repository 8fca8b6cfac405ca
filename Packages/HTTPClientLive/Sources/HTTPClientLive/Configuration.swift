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

  public init(
    proxy: String? = nil, caFile: String? = nil, insecure: Bool = false, maxRedirects: Int = 50
  ) {
    self.proxy = proxy
    self.caFile = caFile
    self.insecure = insecure
    self.maxRedirects = maxRedirects
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
