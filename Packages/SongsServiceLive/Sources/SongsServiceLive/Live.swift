import Foundation
import NetworkClient
import SongsService
import XMLPathParser

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension SongsService {
  /// Fetches the feed with `client` and maps its entries to songs. Network and HTTP
  /// failures are `NetworkError`s; a feed that is not well-formed XML is
  /// `SongsError.malformedFeed`; an entry without a name or an artist is
  /// `SongsError.missingField`.
  public static func live(client: NetworkClient) -> SongsService {
    SongsService { feed in
      var request = URLRequest(url: feed)
      request.setValue(
        "application/atom+xml, application/xml;q=0.9, */*;q=0.5", forHTTPHeaderField: "Accept")
      let (data, _) = try await client.data(for: request)
      do {
        return try FeedReader.songs(in: data)
      } catch let error as XMLPathError {
        throw SongsError.malformedFeed(url: feed.absoluteString, reason: error.description)
      }
    }
  }
}
