// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "CounterService",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "CounterService", targets: ["CounterService"])],
  targets: [
    .target(name: "CounterService", dependencies: []),
    .testTarget(name: "CounterServiceTests", dependencies: ["CounterService"]),
  ]
)
