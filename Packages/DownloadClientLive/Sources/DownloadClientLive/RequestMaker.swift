import DownloadClient
import Foundation
import HTTPClient

/// Makes the requests of one download from what the engine knew when the attempt began, so
/// that they can be made away from the engine too (a segment moving to another mirror).
struct RequestMaker: Sendable {
  /// The request as given in this process, with its secrets.
  let given: DownloadRequest
  let record: DownloadRecord
  let configuration: DownloadConfiguration
  let rateLimit: RateLimit?
  /// The download is fetched again only if it changed (`ifChanged`).
  let revalidating: Bool
  let mirrors: Mirrors?

  /// The request for the rest of the file from byte `offset`, of `url` (by default the
  /// mirror in use, else the download's URL). Headers the user gave win over ours; the secret
  /// ones go only to the given URL's origin.
  func request(from offset: Int64, url: URL? = nil) -> HTTPRequest {
    let target = url ?? currentURL
    var request = HTTPRequest(url: target, idleTimeout: configuration.requestTimeout)
    request.rateLimit = rateLimit
    request.minimumSpeed = configuration.minimumSpeed
    request.headers["User-Agent"] = configuration.userAgent
    // A coded body is written decoded, so that the file and its checksum are the file's own
    // bytes; a range (a resume, a segment) is of those bytes and never asks for a coding.
    request.acceptsCompression = configuration.compressed
    if !configuration.compressed { request.headers["Accept-Encoding"] = "identity" }
    let headers = HTTPHeaders(given.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    for field in headers.sendable(to: target, trusting: given.url) {
      request.headers[field.name] = field.value
    }
    // Only a request for the whole file asks whether it changed: once a probe found that it
    // did and planned segments, their ranges are not conditional.
    if revalidating, offset == 0, record.segments == nil {
      if let entityTag = record.entityTag { request.headers["If-None-Match"] = entityTag }
      if let lastModified = record.lastModified {
        request.headers["If-Modified-Since"] = lastModified
      }
    }
    if offset > 0 {
      request.rangeStart = offset
      request.ifRange = validator(for: target)
    }
    return request
  }

  /// The request for the rest of `segment`, of `url` (by default the mirror in use).
  func request(for segment: Segment, url: URL? = nil) -> HTTPRequest {
    var request = request(from: segment.next, url: url)
    request.rangeStart = segment.next
    request.rangeEnd = segment.end - 1
    request.ifRange = validator(for: request.url)
    return request
  }

  /// The URL a single connection asks: the mirror in use, else the download's.
  var currentURL: URL { mirrors?.current ?? given.url }

  /// What proves a range of `url` continues the bytes on disk: with mirrors, the one that
  /// mirror answered with (none for a mirror not asked yet: its answer must then have the
  /// download's size); else the record's.
  func validator(for url: URL) -> String? {
    mirrors.map { $0.validator(for: url) } ?? record.rangeValidator
  }
}
