// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "ResponseCodeStoreLive",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "ResponseCodeStoreLive", targets: ["ResponseCodeStoreLive"])],
  dependencies: [
    .package(path: "../ResponseCodeStore"),
    .package(path: "../Store"),
    .package(path: "../StoreLive"),
    .package(path: "../Unimplemented"),
  ],
  targets: [
    .target(name: "ResponseCodeStoreLive", dependencies: ["ResponseCodeStore", "StoreLive"]),
    .testTarget(
      name: "ResponseCodeStoreLiveTests",
      dependencies: [
        .product(name: "UnimplementedTesting", package: "Unimplemented"), "ResponseCodeStoreLive",
        "Store",
      ]),
  ]
)
