import ArgumentParser

/// The total deadline of each exchange of `fetch` and `songs`, with curl's option name: an
/// answer that does not end in time fails, whatever the server sends meanwhile (a trickle,
/// endless `100 Continue`).
struct ExchangeTimeOptions: ParsableArguments {
  static let defaultMaxTime = TimeSpan(argument: "60")!

  @Option(
    name: .customLong("max-time"),
    help: ArgumentHelp(
      "The longest one request may take in all (90, 1.5m, 2h).",
      valueName: "duration"))
  var maxTime = Self.defaultMaxTime
}
