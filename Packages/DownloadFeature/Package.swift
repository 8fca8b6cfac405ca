// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "DownloadFeature",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "DownloadFeature", targets: ["DownloadFeature"])],
  dependencies: [
    .package(path: "../DownloadClient")
  ],
  targets: [
    .target(name: "DownloadFeature", dependencies: ["DownloadClient"]),
    .testTarget(name: "DownloadFeatureTests", dependencies: ["DownloadFeature", "DownloadClient"]),
  ]
)
