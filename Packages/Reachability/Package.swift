// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Reachability",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "Reachability", targets: ["Reachability"])],
  targets: [
    .target(name: "Reachability", dependencies: []),
    .testTarget(name: "ReachabilityTests", dependencies: ["Reachability"]),
  ]
)
