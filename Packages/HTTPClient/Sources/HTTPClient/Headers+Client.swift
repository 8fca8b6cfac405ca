import Foundation

extension HTTPClient {
  /// This client with `headers` added to its requests; a request's own headers of the same
  /// name win. The secret ones (`HTTPHeaders.isSecret`) go only to `origin`, the server the
  /// user named, as curl's redirect rule has it: a URL that a server or a document names is
  /// another origin, and gets the other headers only.
  public func adding(_ headers: HTTPHeaders, sendingSecretsTo origin: URL) -> HTTPClient {
    guard headers.fields.isEmpty == false else { return self }
    return HTTPClient { request, receiver in
      var request = request
      for field in headers.sendable(to: request.url, trusting: origin)
      where request.headers[field.name] == nil {
        request.headers.append(name: field.name, value: field.value)
      }
      try await stream(request, receiver)
    }
  }
}
