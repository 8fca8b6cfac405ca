import DownloadClient

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The exit status of `download` and `downloads resume` by the cause of a failure, with
/// aria2c's numbers where the idea is the same (aria2c(1), "EXIT STATUS"), so that scripts
/// written for it branch the same way. With several downloads, the status is the last
/// failure's, as in aria2c.
enum DownloadExitCode {
  /// The status for a download that failed with `error`.
  static func of(_ error: DownloadError) -> Int32 {
    switch error {
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

  /// The table of the help and the man page.
  static let table = """
    Exit status, with aria2c's numbers; with several downloads, the last failure's:
      0    all finished
      1    other failures: a refused or lost connection, a size limit, a bad URL
      2    time out (--timeout, --max-time)
      3    not found (HTTP 404)
      5    too slow
      8    the server did not continue the partial file
      9    the disk is full
      11   another process writes the download
      13   the file exists
      17   a file could not be written
      19   the host name did not resolve
      22   another HTTP error status
      24   authorization failed (HTTP 401, 407)
      29   the server is overloaded or down (HTTP 502, 503, 504)
      32   checksum mismatch
      130  interrupted by Ctrl-C: paused, resumable
    """
}
