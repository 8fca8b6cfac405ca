// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "ReachabilityLive",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "ReachabilityLive", targets: ["ReachabilityLive"])],
  dependencies: [
    .package(path: "../Reachability")
  ],
  targets: [
    .target(name: "ReachabilityLive", dependencies: ["Reachability"]),
    .testTarget(name: "ReachabilityLiveTests", dependencies: ["ReachabilityLive", "Reachability"]),
  ]
)
