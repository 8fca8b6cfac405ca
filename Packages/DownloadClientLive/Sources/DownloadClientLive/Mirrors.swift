import DownloadClient
import Foundation
import Synchronization

/// The URLs a download with mirrors may come from in this run, in order of preference: one
/// that fails is dropped while another is left, and the validator each answered with is kept,
/// so that a range asked of it later is of the same file (`If-Range`).
final class Mirrors: Sendable {
  private struct State {
    var live: [URL]
    /// Each mirror's `ETag` or `Last-Modified`, by its URL without a password.
    var validators: [String: String]
  }

  private let state: Mutex<State>

  /// `urls`, the first preferred, with the validators learned before.
  init(_ urls: [URL], validators: [String: String]) {
    state = Mutex(State(live: urls, validators: validators))
  }

  /// The URL single-connection attempts use: the first left.
  var current: URL { state.withLock { $0.live[0] } }

  /// The URLs left, in order.
  var all: [URL] { state.withLock { $0.live } }

  /// How many are left.
  var count: Int { state.withLock { $0.live.count } }

  /// The URL of segment `index`: the segments are shared out among the mirrors left.
  func url(for index: Int) -> URL {
    state.withLock { $0.live[index % $0.live.count] }
  }

  /// What `drop` did.
  enum Drop {
    case dropped
    /// Another segment dropped it first.
    case alreadyGone
    /// It is the last one left: it is kept.
    case last
  }

  /// Drops `url` after a failure, unless it is the last one left.
  func drop(_ url: URL) -> Drop {
    state.withLock { state in
      guard let index = state.live.firstIndex(of: url) else { return .alreadyGone }
      guard state.live.count > 1 else { return .last }
      state.live.remove(at: index)
      return .dropped
    }
  }

  /// The validator `url` answered with before, if any.
  func validator(for url: URL) -> String? {
    state.withLock { $0.validators[url.redactingPassword.absoluteString] }
  }

  /// Keeps the validator `url` answered with.
  func learn(_ validator: String?, of url: URL) {
    state.withLock { $0.validators[url.redactingPassword.absoluteString] = validator }
  }

  /// What is said when mirror `url` was dropped after `error` for `next`: its URL and the
  /// error (the reason alone when it names the URL: a file of another size), and the next one.
  static func dropped(_ url: URL, after error: DownloadError, next: URL) -> String {
    let shown = url.redactingPassword.absoluteString
    var failure = "\(shown): \(error)"
    switch error {
    case .notContinued(let reason) where reason.hasPrefix(shown),
      .unrecoverable(let reason) where reason.hasPrefix(shown):
      failure = reason
    default: break
    }
    return "\(failure); going on with \(next.redactingPassword)"
  }

  /// Every validator learned, to keep in the record.
  var validators: [String: String] { state.withLock { $0.validators } }
}

extension DownloadError {
  /// Whether the failure is the server's (an answer, or none), so that another mirror may do
  /// better; not a local one (a file, a checksum, a limit of this run).
  var isMirrorFailure: Bool {
    switch self {
    case .httpStatus, .transport, .idleTimeout, .tooSlow, .unrecoverable, .notContinued,
      .unsupportedURL:
      return true
    default:
      return false
    }
  }
}
