import Foundation

extension URL {
  /// The URL with the password of its `user:password@`, if any, replaced by `***`: the form
  /// to show and to keep.
  public var redactingPassword: URL {
    // No `@`, no user: most URLs, without taking them apart (a tenth of adding a download).
    guard absoluteString.utf8.contains(UInt8(ascii: "@")),
      var components = URLComponents(url: self, resolvingAgainstBaseURL: false),
      components.password != nil
    else { return self }
    components.percentEncodedPassword = "***"
    return components.url ?? self
  }
}
