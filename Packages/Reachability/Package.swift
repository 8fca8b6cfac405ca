// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Reachability",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "Reachability", targets: ["Reachability"])],
  dependencies: [.package(path: "../Unimplemented")],
  targets: [
    .target(name: "Reachability", dependencies: ["Unimplemented"]),
    .testTarget(
      name: "ReachabilityTests",
      dependencies: [
        .product(name: "UnimplementedTesting", package: "Unimplemented"), "Reachability",
      ]),
  ]
)
