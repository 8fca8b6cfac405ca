/// The comparison of an RPC secret.
enum Secret {
  /// Whether `given` is `expected`, in a time that depends on their lengths only, so that a
  /// client cannot find the secret a byte at a time by timing the answers.
  static func matches(_ given: String, _ expected: String) -> Bool {
    let a = Array(given.utf8)
    let b = Array(expected.utf8)
    var difference = UInt8(a.count == b.count ? 0 : 1)
    for index in 0..<max(a.count, b.count) {
      difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
    }
    return difference == 0
  }
}
