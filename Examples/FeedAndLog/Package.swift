// swift-tools-version: 6.0
// An app's manifest that uses six of fetcher's libraries, reached as any project reaches them:
// by the repository's URL and a version. FETCHER_URL names the repository (CI sets it to a
// tagged clone through file://); without it, the repository this example sits in, which must
// then have a tag.
import Foundation
import PackageDescription

let fetcher =
  Context.environment["FETCHER_URL"]
  ?? URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("../..")
  .standardizedFileURL.absoluteString

let package = Package(
  name: "FeedAndLog",
  platforms: [.macOS(.v15), .iOS(.v18)],
  dependencies: [
    // snippet: manifest
    .package(url: fetcher, from: "6.0.0")
    // end
  ],
  targets: [
    .executableTarget(
      name: "feed-and-log",
      dependencies: [
        // snippet: products
        .product(name: "DownloadClientLive", package: "fetcher"),
        .product(name: "HTTPClientLive", package: "fetcher"),
        .product(name: "ReachabilityLive", package: "fetcher"),
        .product(name: "XMLPathParser", package: "fetcher"),
        .product(name: "LogAnalysisLive", package: "fetcher"),
        .product(name: "LogFormats", package: "fetcher"),
        // end
      ]
    )
  ]
)
