// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "DownloadClient",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "DownloadClient", targets: ["DownloadClient"])],
  dependencies: [
    .package(path: "../HTTPClient")
  ],
  targets: [
    .target(name: "DownloadClient", dependencies: ["HTTPClient"]),
    .testTarget(name: "DownloadClientTests", dependencies: ["DownloadClient"]),
  ]
)
