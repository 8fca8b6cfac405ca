import ArgumentParser
import HTTPClient

/// The options that say how to reach the server.
struct ServerOptions: ParsableArguments {
  static let defaultRootURL = "http://localhost:8000"
  static let defaultRetries = 3

  @Option(name: .customLong("root-url"), help: "The server's root URL.")
  var rootURL = defaultRootURL

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "How often to retry an exchange that another client interrupted, or a failure that may heal (a dropped connection, 408, 429, 5xx).",
      discussion: "The server hands out one valid path at a time; see server.py."))
  var retries = defaultRetries

  func validate() throws {
    guard retries >= 0 else { throw ValidationError("--retries must be 0 or more") }
  }
}

extension AppEnvironment {
  /// The live environment for the server these options name, over `http` with `headers`,
  /// each exchange within `maxTime`.
  static func live(
    server: ServerOptions, http: HTTPClient = .configured(), headers: HTTPHeaders = [:],
    maxTime: Duration = ExchangeTimeOptions.defaultMaxTime.duration
  ) -> AppEnvironment {
    live(
      http: http, headers: headers, rootURL: server.rootURL, retries: server.retries,
      maxTime: maxTime)
  }
}
