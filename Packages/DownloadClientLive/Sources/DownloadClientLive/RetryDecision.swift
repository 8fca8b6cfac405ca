import DownloadClient

/// What to do after a failed attempt: wait and try again, or give up.
enum RetryDecision: Equatable {
  case retry(after: Duration)
  case giveUp(DownloadError)

  /// The decision after `error`, when `retries` retries were made already and `timeLeft`
  /// remains before the resource timeout. Errors that cannot heal give up at once; the
  /// backoff (or the server's `Retry-After`) must end before the resource timeout, or the
  /// download gives up with `resourceTimeout`.
  static func after(
    _ error: DownloadError, retryAfter: Duration?, retries: Int, maxRetries: Int,
    backoff: Backoff, unit: Double, timeLeft: Duration, resourceTimeout: DownloadError
  ) -> RetryDecision {
    guard error.isRetryable, retries < maxRetries else { return .giveUp(error) }
    let delay = backoff.delay(beforeRetry: retries + 1, retryAfter: retryAfter, unit: unit)
    guard delay < timeLeft else { return .giveUp(resourceTimeout) }
    return .retry(after: delay)
  }
}
