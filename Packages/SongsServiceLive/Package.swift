// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "SongsServiceLive",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "SongsServiceLive", targets: ["SongsServiceLive"])],
  dependencies: [
    .package(path: "../DownloadClient"),
    .package(path: "../SongsService"),
    .package(path: "../NetworkClient"),
    .package(path: "../XMLPathParser"),
    .package(path: "../NetworkClientTestSupport"),
    .package(path: "../Unimplemented"),
  ],
  targets: [
    .target(
      name: "SongsServiceLive",
      dependencies: ["DownloadClient", "SongsService", "NetworkClient", "XMLPathParser"]),
    .testTarget(
      name: "SongsServiceLiveTests",
      dependencies: [
        .product(name: "UnimplementedTesting", package: "Unimplemented"), "SongsServiceLive",
        "NetworkClientTestSupport",
      ]),
  ]
)
