// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "ResponseCodeStore",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "ResponseCodeStore", targets: ["ResponseCodeStore"])],
  dependencies: [
    .package(path: "../Store")
  ],
  targets: [
    .target(name: "ResponseCodeStore", dependencies: ["Store"]),
    .testTarget(name: "ResponseCodeStoreTests", dependencies: ["ResponseCodeStore"]),
  ]
)
