// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "DownloadClient",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "DownloadClient", targets: ["DownloadClient"])],
  dependencies: [
    .package(path: "../Unimplemented"),
    .package(path: "../HTTPClient"),
  ],
  targets: [
    .target(name: "DownloadClient", dependencies: ["HTTPClient", "Unimplemented"]),
    .testTarget(
      name: "DownloadClientTests",
      dependencies: [
        .product(name: "UnimplementedTesting", package: "Unimplemented"), "DownloadClient",
        "HTTPClient", "Unimplemented",
      ]),
  ]
)
