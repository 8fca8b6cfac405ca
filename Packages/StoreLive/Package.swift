// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "StoreLive",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "StoreLive", targets: ["StoreLive"])],
  dependencies: [
    .package(path: "../Store")
  ],
  targets: [
    .target(name: "StoreLive", dependencies: ["Store"]),
    .testTarget(name: "StoreLiveTests", dependencies: ["StoreLive"]),
  ]
)
