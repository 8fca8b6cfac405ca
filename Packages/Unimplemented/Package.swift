// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Unimplemented",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    .library(name: "Unimplemented", targets: ["Unimplemented"]),
    .library(name: "UnimplementedTesting", targets: ["UnimplementedTesting"]),
  ],
  targets: [
    .target(name: "Unimplemented", dependencies: []),
    .target(name: "UnimplementedTesting", dependencies: ["Unimplemented"]),
    .testTarget(
      name: "UnimplementedTests", dependencies: ["Unimplemented", "UnimplementedTesting"]),
  ]
)
