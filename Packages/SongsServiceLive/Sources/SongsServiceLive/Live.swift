import Foundation
import NetworkClient
import SongsService
import XMLPathParser

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension SongsService {
  /// Fetches the feed with `client` and maps its entries to songs, in iTunes RSS (XML) or the
  /// JSON of Apple's RSS generator, told apart by the content. Entries without a name or an
  /// artist are skipped and listed. Network and HTTP failures are `NetworkError`s; a feed
  /// that is not well-formed is `SongsError.malformedFeed`, a document that is no songs feed
  /// `.notASongsFeed`, and a feed none of whose entries is a song `.noUsableEntries`.
  public static func live(client: NetworkClient) -> SongsService {
    SongsService { url in
      var request = URLRequest(url: url)
      request.setValue(
        "application/atom+xml, application/xml;q=0.9, application/json;q=0.9, */*;q=0.5",
        forHTTPHeaderField: "Accept")
      let (data, _) = try await client.data(for: request)
      let feed: SongFeed
      do {
        switch FeedKind(of: data) {
        case .json: feed = try AppleJSONReader.feed(in: data)
        case .html: throw FeedKind.Other(found: "an HTML page")
        case .xml: feed = try ITunesRSSReader.feed(in: data)
        }
      } catch let error as XMLPathError {
        throw SongsError.malformedFeed(url: url.absoluteString, reason: error.description)
      } catch let error as MalformedJSON {
        throw SongsError.malformedFeed(url: url.absoluteString, reason: error.description)
      } catch let other as FeedKind.Other {
        throw SongsError.notASongsFeed(url: url.absoluteString, found: other.found)
      }
      if feed.songs.isEmpty, !feed.skipped.isEmpty {
        throw SongsError.noUsableEntries(url: url.absoluteString, skipped: feed.skipped)
      }
      return feed
    }
  }
}
