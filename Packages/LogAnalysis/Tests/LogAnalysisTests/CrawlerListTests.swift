import LogAnalysisTestSupport
import Testing

@testable import LogAnalysis

/// The crawlers of GoAccess's and Matomo's lists that name no "bot": feed readers and
/// fetchers were visits (the issue's UniversalFeedParser, Tiny Tiny RSS, FeedBurner).
@Suite struct CrawlerListTests {
  @Test(arguments: [
    "UniversalFeedParser/5.2.1 +https://code.google.com/p/feedparser/",
    "Tiny Tiny RSS/21.05 (http://tt-rss.org/)", "FeedBurner/1.0 (http://www.FeedBurner.com)",
    "Feedly/1.0 (+http://www.feedly.com/fetcher.html; 3 subscribers)",
  ])
  func feedReadersAreCrawlers(agent: String) {
    let text =
      #"1.2.3.4 - - [10/Oct/2023:13:55:36 +0000] "GET /feed HTTP/1.1" 200 1 "-" "\#(agent)""#
    let partial = analyze(text, options: AnalysisOptions(filters: VisitFilters(excludeBots: true)))
    #expect(partial.filteredLines == 1)
  }

  @Test func aBrowserIsNot() {
    let agent = "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0"
    let text =
      #"1.2.3.4 - - [10/Oct/2023:13:55:36 +0000] "GET /feed HTTP/1.1" 200 1 "-" "\#(agent)""#
    let partial = analyze(text, options: AnalysisOptions(filters: VisitFilters(excludeBots: true)))
    #expect(partial.filteredLines == 0)
  }
}
