// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "CounterStore",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "CounterStore", targets: ["CounterStore"])],
  dependencies: [
    .package(path: "../Store"),
    .package(path: "../Unimplemented"),
  ],
  targets: [
    .target(name: "CounterStore", dependencies: ["Store"]),
    .testTarget(
      name: "CounterStoreTests",
      dependencies: [
        .product(name: "UnimplementedTesting", package: "Unimplemented"), "CounterStore",
      ]),
  ]
)
