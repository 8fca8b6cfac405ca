// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "TestClocks",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "TestClocks", targets: ["TestClocks"])],
  targets: [
    .target(name: "TestClocks", dependencies: []),
    .testTarget(name: "TestClocksTests", dependencies: ["TestClocks"]),
  ]
)
