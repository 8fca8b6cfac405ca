// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "DownloadClientLive",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "DownloadClientLive", targets: ["DownloadClientLive"])],
  dependencies: [
    .package(path: "../Checksum"),
    .package(path: "../DownloadClient"),
    .package(path: "../DownloadRPC"),
    .package(path: "../HTTPClient"),
    .package(path: "../Reachability"),
    .package(path: "../StoreLive"),
    .package(path: "../TestClocks"),
    .package(path: "../Unimplemented"),
  ],
  targets: [
    .target(
      name: "DownloadClientLive",
      dependencies: [
        "Checksum", "DownloadClient", "DownloadRPC", "HTTPClient", "Reachability", "StoreLive",
      ]),
    .testTarget(
      name: "DownloadClientLiveTests",
      dependencies: [
        .product(name: "UnimplementedTesting", package: "Unimplemented"),
        "Checksum", "DownloadClient", "DownloadClientLive", "DownloadRPC", "HTTPClient",
        "Reachability", "StoreLive", "TestClocks",
      ]),
  ]
)
