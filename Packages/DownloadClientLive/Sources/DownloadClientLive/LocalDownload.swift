import ChecksumTypes
import DownloadClient

/// What a `DownloadEngine` knows of one download in this process, beside its record in the
/// queue: never persisted, dropped whole when the download is removed.
struct LocalDownload {
  /// The request with its secrets, as given in this process.
  var secrets: DownloadRequest?
  /// A done download fetched again only if its file changed (`ifChanged`).
  var revalidating = false
  /// Its server was found not to take ranges: it goes over one connection.
  var unsplittable = false
  /// The mirrors left, while it runs with mirrors.
  var mirrors: Mirrors?
  /// The digests of its pieces, when its request gave them in this process (the queue does
  /// not keep them), and how often a piece was mended.
  var pieceChecksums: PieceChecksums?
  var mendings = 0
  /// Paused because its record could not be saved (said once): no more saves are tried until
  /// it runs again. A download paused by hand still saves how far it got.
  var unsaved = false

  /// Done: what held for this run only is dropped (the secrets stay, for a later fetch).
  mutating func finished() {
    revalidating = false
    unsplittable = false
    pieceChecksums = nil
    mendings = 0
  }
}
