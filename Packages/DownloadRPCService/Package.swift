// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "DownloadRPCService",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "DownloadRPCService", targets: ["DownloadRPCService"])],
  dependencies: [
    .package(path: "../Checksum"),
    .package(path: "../DownloadClient"),
    .package(path: "../DownloadFeature"),
    .package(path: "../DownloadRPC"),
    .package(path: "../HTTPClient"),
    .package(path: "../Metalink"),
  ],
  targets: [
    .target(
      name: "DownloadRPCService",
      dependencies: [
        .product(name: "ChecksumTypes", package: "Checksum"),
        .product(name: "DownloadClient", package: "DownloadClient"),
        .product(name: "DownloadFeature", package: "DownloadFeature"),
        .product(name: "DownloadRPC", package: "DownloadRPC"),
        .product(name: "HTTPClient", package: "HTTPClient"),
        .product(name: "Metalink", package: "Metalink"),
      ]),
    .testTarget(
      name: "DownloadRPCServiceTests",
      dependencies: [
        "DownloadRPCService", .product(name: "DownloadClient", package: "DownloadClient"),
        .product(name: "DownloadRPC", package: "DownloadRPC"),
      ]),
  ]
)
