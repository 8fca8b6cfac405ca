import Foundation
import HTTPClient

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension NetworkClient {
  /// Sends `request` and returns the body when the status is in `accepted`.
  ///
  /// Throws `NetworkError.transport` when there is no HTTP answer (an error that is not an
  /// `HTTPError`, as `URLSession`'s, counts as `HTTPError.other`, which may heal) and
  /// `NetworkError.unacceptableStatus` (with a short excerpt of the body) otherwise.
  public func data(
    for request: URLRequest,
    accepting accepted: Range<Int> = 200..<300
  ) async throws(NetworkError) -> (Data, HTTPURLResponse) {
    let url = request.url?.redactingPassword.absoluteString ?? "(no URL)"
    let data: Data
    let response: URLResponse
    do {
      (data, response) = try await send(request)
    } catch let error as NetworkError {
      throw error
    } catch let error as HTTPError {
      throw .transport(url: url, error: error)
    } catch {
      throw .transport(url: url, error: .other(Self.reason(for: error)))
    }
    guard let http = response as? HTTPURLResponse else { throw .notHTTP(url: url) }
    guard accepted.contains(http.statusCode) else {
      throw .unacceptableStatus(
        url: url, status: http.statusCode, bodyExcerpt: Self.excerpt(of: data))
    }
    return (data, http)
  }

  /// Sends `request`, checks the status, and decodes the body as `T`.
  public func decoded<T: Decodable>(
    _ type: T.Type,
    for request: URLRequest,
    decoder: JSONDecoder = JSONDecoder()
  ) async throws(NetworkError) -> T {
    let (data, _) = try await data(for: request)
    do {
      return try decoder.decode(T.self, from: data)
    } catch {
      throw .decoding(
        url: request.url?.redactingPassword.absoluteString ?? "(no URL)",
        type: String(describing: T.self),
        reason: Self.reason(for: error))
    }
  }

  /// The first line of the body, cut to 200 characters, for error messages.
  static func excerpt(of data: Data) -> String {
    let text = String(decoding: data.prefix(400), as: UTF8.self)
    let firstLine = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    return String(firstLine.prefix(200)).trimmingCharacters(in: .whitespaces)
  }

  static func reason(for error: any Error) -> String {
    switch error {
    case let error as DecodingError:
      return decodingReason(error)
    case let error as URLError:
      return error.localizedDescription
    default:
      return (error as NSError).localizedDescription
    }
  }

  private static func decodingReason(_ error: DecodingError) -> String {
    func path(_ context: DecodingError.Context) -> String {
      context.codingPath.map(\.stringValue).joined(separator: ".")
    }
    switch error {
    case .keyNotFound(let key, _):
      return "missing key \"\(key.stringValue)\""
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return "wrong value at \"\(path(context))\": \(context.debugDescription)"
    case .dataCorrupted(let context):
      let location = path(context)
      return location.isEmpty
        ? "not valid JSON" : "invalid value at \"\(location)\": \(context.debugDescription)"
    @unknown default:
      return "\(error)"
    }
  }
}
