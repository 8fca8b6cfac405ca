// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "DownloadFeature",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "DownloadFeature", targets: ["DownloadFeature"])],
  dependencies: [
    .package(path: "../Checksum"),
    .package(path: "../DownloadClient"),
    .package(path: "../HTTPClient"),
    .package(path: "../Metalink"),
    .package(path: "../StyleGuide"),
    .package(path: "../Unimplemented"),
  ],
  targets: [
    .target(
      name: "DownloadFeature",
      dependencies: [
        .product(name: "ChecksumTypes", package: "Checksum"),
        .product(name: "DownloadClient", package: "DownloadClient"),
        .product(name: "HTTPClient", package: "HTTPClient"),
        .product(name: "Metalink", package: "Metalink"),
        .product(name: "StyleGuide", package: "StyleGuide"),
      ]),
    .testTarget(
      name: "DownloadFeatureTests",
      dependencies: [
        .product(name: "UnimplementedTesting", package: "Unimplemented"), "DownloadFeature",
        "DownloadClient", .product(name: "Metalink", package: "Metalink"),
        .product(name: "HTTPClient", package: "HTTPClient"),
      ]),
  ]
)
