// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "CounterStoreLive",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "CounterStoreLive", targets: ["CounterStoreLive"])],
  dependencies: [
    .package(path: "../CounterStore"),
    .package(path: "../Store"),
    .package(path: "../StoreLive"),
    .package(path: "../Unimplemented"),
  ],
  targets: [
    .target(name: "CounterStoreLive", dependencies: ["CounterStore", "StoreLive"]),
    .testTarget(
      name: "CounterStoreLiveTests",
      dependencies: [
        .product(name: "UnimplementedTesting", package: "Unimplemented"), "CounterStoreLive",
        "Store",
      ]),
  ]
)
