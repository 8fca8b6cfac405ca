// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "DownloadClient",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "DownloadClient", targets: ["DownloadClient"])],
  dependencies: [
    .package(path: "../Checksum"),
    .package(path: "../Unimplemented"),
    .package(path: "../HTTPClient"),
  ],
  targets: [
    .target(
      name: "DownloadClient",
      dependencies: [
        "HTTPClient", "Unimplemented", .product(name: "ChecksumTypes", package: "Checksum"),
      ]),
    .testTarget(
      name: "DownloadClientTests",
      dependencies: [
        .product(name: "UnimplementedTesting", package: "Unimplemented"), "DownloadClient",
        "HTTPClient", "Unimplemented", .product(name: "ChecksumTypes", package: "Checksum"),
      ]),
  ]
)
