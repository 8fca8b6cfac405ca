import DownloadClient

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension DownloadError {
  /// The failure's number in aria2c's list (aria2c(1), "EXIT STATUS"): its exit status, and
  /// the `errorCode` of its RPC, so that scripts and front ends written for it branch the same
  /// way. 1 for a cause aria2c has no number of its own for.
  public var aria2Code: Int32 {
    switch self {
    case .idleTimeout, .resourceTimeout: return 2
    case .httpStatus(404): return 3
    case .tooSlow: return 5
    case .notContinued: return 8
    case .busy: return 11
    case .destinationExists: return 13
    case .file(let reason) where reason.contains(String(cString: strerror(ENOSPC))): return 9
    case .file: return 17
    // HTTPClient's description of a failed name lookup.
    case .transport(let reason) where reason.hasPrefix("cannot find host"): return 19
    case .httpStatus(401), .httpStatus(407): return 24
    case .httpStatus(502), .httpStatus(503), .httpStatus(504): return 29
    case .httpStatus: return 22
    case .checksumMismatch: return 32
    case .unsupportedURL, .transport, .tooLarge, .lengthMismatch, .unknownDownload,
      .unrecoverable, .missingSecrets:
      return 1
    }
  }
}
