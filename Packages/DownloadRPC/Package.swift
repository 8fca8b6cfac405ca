// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "DownloadRPC",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "DownloadRPC", targets: ["DownloadRPC"])],
  dependencies: [
    .package(path: "../DownloadClient"), .package(path: "../Checksum"),
    .package(path: "../Unimplemented"),
  ],
  targets: [
    .target(
      name: "DownloadRPC",
      dependencies: [
        "DownloadClient", .product(name: "ChecksumTypes", package: "Checksum"),
      ]),
    .testTarget(
      name: "DownloadRPCTests",
      dependencies: [
        .product(name: "UnimplementedTesting", package: "Unimplemented"), "DownloadRPC",
        "DownloadClient", .product(name: "ChecksumTypes", package: "Checksum"),
      ]),
  ]
)
