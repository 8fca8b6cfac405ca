extension HTTPClient {
  /// This client with `headers` added to every request; a request's own headers of the same
  /// name win.
  public func adding(_ headers: HTTPHeaders) -> HTTPClient {
    guard headers.fields.isEmpty == false else { return self }
    return HTTPClient { request, receiver in
      var request = request
      for field in headers where request.headers[field.name] == nil {
        request.headers.append(name: field.name, value: field.value)
      }
      try await stream(request, receiver)
    }
  }
}
