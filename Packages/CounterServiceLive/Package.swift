// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "CounterServiceLive",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "CounterServiceLive", targets: ["CounterServiceLive"])],
  dependencies: [
    .package(path: "../CounterService"),
    .package(path: "../CounterStore"),
    .package(path: "../Store"),
    .package(path: "../Unimplemented"),
  ],
  targets: [
    .target(name: "CounterServiceLive", dependencies: ["CounterService", "CounterStore"]),
    .testTarget(
      name: "CounterServiceLiveTests",
      dependencies: [
        .product(name: "UnimplementedTesting", package: "Unimplemented"), "CounterServiceLive",
        "Store",
      ]),
  ]
)
