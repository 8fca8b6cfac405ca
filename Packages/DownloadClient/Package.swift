// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "DownloadClient",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "DownloadClient", targets: ["DownloadClient"])],
  targets: [
    .target(name: "DownloadClient"),
    .testTarget(name: "DownloadClientTests", dependencies: ["DownloadClient"]),
  ]
)
