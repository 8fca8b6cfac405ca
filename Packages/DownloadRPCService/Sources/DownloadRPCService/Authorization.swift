import DownloadRPC
import Synchronization

/// Who may call the daemon: every call of a body must give the secret (`token:SECRET` as its
/// first parameter, each call of a multicall too), checked before any of them runs; and a
/// bound on wrong guesses from the network, so that a web page cannot try secrets by the
/// thousand.
final class Authorization: Sendable {
  /// The secret; nil when the daemon was started without one, and takes every call.
  let secret: String?
  private let guesses = Mutex(GuessBudget())

  init(secret: String?) { self.secret = secret }

  /// Whether `requests` (one body's calls) may run. A caller from the network that guessed
  /// wrong too often lately is refused without a look at its secret; the owner's socket is
  /// not counted.
  func allows(
    _ requests: [RPCRequest], from caller: Aria2Service.Caller,
    at now: ContinuousClock.Instant = .now
  ) -> Bool {
    guard let secret else { return true }
    if caller == .network, !guesses.withLock({ $0.hasGuesses(at: now) }) { return false }
    let right = requests.allSatisfy { Self.gives(secret, $0) }
    if !right, caller == .network { guesses.withLock { $0.spend(at: now) } }
    return right
  }

  /// Whether `request` gives `secret`; the two listings take none, as aria2c's.
  private static func gives(_ secret: String, _ request: RPCRequest) -> Bool {
    switch request.method {
    case "system.listMethods", "system.listNotifications": return true
    case "system.multicall":
      return (request.params.first?.array ?? []).allSatisfy { call in
        let params = call["params"]?.array ?? []
        return gives(
          secret, RPCRequest(id: nil, method: call["methodName"]?.string ?? "", params: params))
      }
    default:
      guard let first = request.params.first?.string, first.hasPrefix("token:") else {
        return false
      }
      return matches(String(first.dropFirst(6)), secret)
    }
  }

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

/// Wrong guesses of the secret allowed: `perSecond` a second, at most `perSecond` saved up.
struct GuessBudget {
  static let perSecond = 10.0
  private var left = perSecond
  private var counted: ContinuousClock.Instant?

  /// Whether a guess may be tried at `now`.
  mutating func hasGuesses(at now: ContinuousClock.Instant) -> Bool {
    refill(at: now)
    return left >= 1
  }

  /// Counts a wrong guess at `now`.
  mutating func spend(at now: ContinuousClock.Instant) {
    refill(at: now)
    left = max(0, left - 1)
  }

  private mutating func refill(at now: ContinuousClock.Instant) {
    if let counted {
      let seconds =
        Double((now - counted).components.seconds)
        + Double((now - counted).components.attoseconds) / 1e18
      left = min(Self.perSecond, left + max(0, seconds) * Self.perSecond)
    }
    counted = now
  }
}
