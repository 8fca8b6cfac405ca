import Foundation
import HTTPClient
import LogAnalysisLive

/// A file named by a WebHDFS URL (Hadoop's REST API: `http://NAMENODE:9870/webhdfs/v1/PATH`,
/// `op=OPEN` or no `op`), read by ranges as WebHDFS gives them: `op=OPEN&offset=&length=`
/// (the name node redirects to a data node, which HTTPClient follows), its size from
/// `op=GETFILESTATUS`. Other parameters (`user.name`, `delegation`) go with every request.
struct WebHDFSFile {
  private let url: URL

  /// Nil for a URL that is not a WebHDFS file's.
  init?(_ url: URL) {
    guard url.path.hasPrefix("/webhdfs/v1/"),
      let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    else { return nil }
    let operation = components.queryItems?.first { $0.name.lowercased() == "op" }?.value
    guard operation == nil || operation?.uppercased() == "OPEN" else { return nil }
    self.url = url
  }

  /// The reader of the file, whose size WebHDFS says first.
  func open(http: HTTPClient, headers: HTTPHeaders) async throws -> RangeReader {
    let name = url.redactingPassword.absoluteString
    let (head, body) = try await http.data(
      for: HTTPRequest(url: self.url(["op": "GETFILESTATUS"]), headers: headers))
    guard head.status == 200 else {
      // WebHDFS says why in a RemoteException.
      let reason = (try? JSONDecoder().decode(Failure.self, from: body)).map {
        ": \($0.exception.message)"
      }
      throw LogInputError(
        "\(name): WebHDFS answered HTTP \(head.status) to GETFILESTATUS\(reason ?? "")")
    }
    guard let status = try? JSONDecoder().decode(Status.self, from: body) else {
      throw LogInputError("\(name): WebHDFS's GETFILESTATUS names no length")
    }
    let size = try HTTPRangeReader.checked(status.file.length, of: name)
    return RangeReader(size: size) { range in
      try HTTPRangeReader.blocking {
        let read = self.url([
          "op": "OPEN", "offset": "\(range.lowerBound)", "length": "\(range.count)",
        ])
        let (head, body) = try await http.data(for: HTTPRequest(url: read, headers: headers))
        guard head.status == 200, body.count == range.count else {
          throw HTTPRangeReader.unexpected(name, range, head, body)
        }
        return body
      }
    }
  }

  /// The file's URL with `parameters` in place of its `op`, `offset` and `length`.
  private func url(_ parameters: [String: String]) -> URL {
    var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
    let replaced: Set<String> = ["op", "offset", "length"]
    components.queryItems =
      (components.queryItems ?? []).filter { !replaced.contains($0.name.lowercased()) }
      + parameters.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
    return components.url!
  }

  /// What WebHDFS answers with an error status: `{"RemoteException":{"message":…,…}}`.
  private struct Failure: Decodable {
    struct Exception: Decodable { let message: String }
    let exception: Exception

    enum CodingKeys: String, CodingKey { case exception = "RemoteException" }
  }

  /// What `op=GETFILESTATUS` answers, as far as it is read: `{"FileStatus":{"length":N,…}}`.
  private struct Status: Decodable {
    struct File: Decodable { let length: Int64 }
    let file: File

    enum CodingKeys: String, CodingKey { case file = "FileStatus" }
  }
}
