// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "SongsService",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "SongsService", targets: ["SongsService"])],
  dependencies: [.package(path: "../Unimplemented")],
  targets: [
    .target(name: "SongsService", dependencies: ["Unimplemented"]),
    .testTarget(
      name: "SongsServiceTests",
      dependencies: [
        .product(name: "UnimplementedTesting", package: "Unimplemented"), "SongsService",
        "Unimplemented",
      ]),
  ]
)
