// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "StoreLive",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "StoreLive", targets: ["StoreLive"])],
  dependencies: [
    .package(path: "../Store"),
    .package(path: "../Unimplemented"),
  ],
  targets: [
    .target(name: "StoreLive", dependencies: ["Store"]),
    .testTarget(
      name: "StoreLiveTests",
      dependencies: [
        .product(name: "UnimplementedTesting", package: "Unimplemented"), "StoreLive",
      ]),
  ]
)
