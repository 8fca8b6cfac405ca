// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "ReachabilityLive",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "ReachabilityLive", targets: ["ReachabilityLive"])],
  dependencies: [
    .package(path: "../Reachability"),
    .package(path: "../Unimplemented"),
    .package(path: "../TestPorts"),
  ],
  targets: [
    .target(name: "ReachabilityLive", dependencies: ["Reachability"]),
    .testTarget(
      name: "ReachabilityLiveTests",
      dependencies: [
        .product(name: "UnimplementedTesting", package: "Unimplemented"), "ReachabilityLive",
        "Reachability", "TestPorts",
      ]),
  ]
)
