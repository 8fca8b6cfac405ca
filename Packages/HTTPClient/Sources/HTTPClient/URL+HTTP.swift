import Foundation

extension URL {
  /// Whether this is an absolute http or https URL with a host: one this client can fetch.
  public var isHTTP: Bool {
    guard let scheme = scheme?.lowercased(), scheme == "http" || scheme == "https" else {
      return false
    }
    return host.map { !$0.isEmpty } ?? false
  }
}
