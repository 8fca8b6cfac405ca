import DownloadClient
import DownloadRPC

/// The exit status of `download` and `downloads resume` by the cause of a failure, with
/// aria2c's numbers where the idea is the same (aria2c(1), "EXIT STATUS"), so that scripts
/// written for it branch the same way. With several downloads, the status is the last
/// failure's, as in aria2c.
enum DownloadExitCode {
  /// The status for a download that failed with `error`: its aria2 number.
  static func of(_ error: DownloadError) -> Int32 { error.aria2Code }

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
