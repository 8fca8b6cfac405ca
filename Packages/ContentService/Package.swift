// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "ContentService",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "ContentService", targets: ["ContentService"])],
  dependencies: [.package(path: "../Unimplemented")],
  targets: [
    .target(name: "ContentService", dependencies: ["Unimplemented"]),
    .testTarget(
      name: "ContentServiceTests",
      dependencies: [
        .product(name: "UnimplementedTesting", package: "Unimplemented"), "ContentService",
        "Unimplemented",
      ]),
  ]
)
