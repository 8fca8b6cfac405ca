extension Duration {
  /// The duration in seconds, with their fraction.
  var inSeconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
