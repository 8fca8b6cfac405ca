// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "CounterService",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "CounterService", targets: ["CounterService"])],
  dependencies: [.package(path: "../Unimplemented")],
  targets: [
    .target(name: "CounterService", dependencies: ["Unimplemented"]),
    .testTarget(
      name: "CounterServiceTests",
      dependencies: [
        .product(name: "UnimplementedTesting", package: "Unimplemented"), "CounterService",
        "Unimplemented",
      ]),
  ]
)
