// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Store",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "Store", targets: ["Store"])],
  dependencies: [.package(path: "../Unimplemented")],
  targets: [
    .target(name: "Store", dependencies: ["Unimplemented"]),
    .testTarget(
      name: "StoreTests",
      dependencies: [
        .product(name: "UnimplementedTesting", package: "Unimplemented"), "Store", "Unimplemented",
      ]),
  ]
)
