// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "TopSongsFeature",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "TopSongsFeature", targets: ["TopSongsFeature"])],
  dependencies: [
    .package(path: "../SongsService"),
    .package(path: "../StyleGuide"),
    .package(path: "../Unimplemented"),
  ],
  targets: [
    .target(
      name: "TopSongsFeature", dependencies: ["SongsService", "StyleGuide"]),
    .testTarget(
      name: "TopSongsFeatureTests",
      dependencies: [
        "TopSongsFeature", "SongsService",
        .product(name: "UnimplementedTesting", package: "Unimplemented"),
      ]),
  ]
)
