import DownloadClient
import Foundation
import HTTPClient
import Metalink
import StyleGuide

extension Metalink.File {
  /// The download of this file into `folder`: its best URL with the others as mirrors
  /// (`locations` first, then by priority), its strongest hash as the checksum and its piece
  /// digests, and its size as one the file must have. Folders in its name are kept inside
  /// `folder`, each name sanitised (no `..`). Throws when it has no http or https URL, no name
  /// is left, or its pieces do not cover its size.
  public func request(
    in folder: URL, preferring locations: [String] = [], headers: [String: String] = [:]
  ) throws(MetalinkError) -> DownloadRequest {
    let urls = orderedURLs(preferring: locations)
    guard let url = urls.first else {
      throw MetalinkError("\(name.printable): no http or https URL")
    }
    let parts = name.split(separator: "/").compactMap { FileName.sanitised(String($0)) }
    guard !parts.isEmpty else { throw MetalinkError("\(name.printable): not a file name") }
    if let size, let pieces, !pieces.fits(size: size) {
      throw MetalinkError(
        "\(name.printable): its \(pieces.hashes.count) pieces of \(pieces.length) bytes do not "
          + "cover its size of \(size) bytes")
    }
    let destination = parts.reduce(folder) { $0.appendingPathComponent($1) }
    var request = DownloadRequest(
      url: url, destination: destination, expectedChecksum: strongestHash, headers: headers,
      mirrors: Array(urls.dropFirst()), pieceChecksums: pieces)
    request.expectedSize = size
    return request
  }
}

extension Metalink {
  /// The Metalink document that `request` fetches through `http` (`download -M URL`): an
  /// answer of status 2xx that reads as one. Throws `MetalinkError` for another status or a
  /// body that is no Metalink, and the client's `HTTPError` when the exchange fails.
  public static func fetched(_ request: HTTPRequest, http: HTTPClient) async throws -> Metalink {
    let (head, body) = try await http.data(for: request)
    guard (200..<300).contains(head.status) else {
      throw MetalinkError("the server answered HTTP \(head.status)")
    }
    return try Metalink(body)
  }
}
