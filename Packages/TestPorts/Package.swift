// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "TestPorts",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "TestPorts", targets: ["TestPorts"])],
  targets: [
    .target(name: "TestPorts", dependencies: []),
    .testTarget(name: "TestPortsTests", dependencies: ["TestPorts"]),
  ]
)
