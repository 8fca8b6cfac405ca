// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "ResponseCodeStore",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "ResponseCodeStore", targets: ["ResponseCodeStore"])],
  dependencies: [
    .package(path: "../Store"),
    .package(path: "../Unimplemented"),
  ],
  targets: [
    .target(name: "ResponseCodeStore", dependencies: ["Store"]),
    .testTarget(
      name: "ResponseCodeStoreTests",
      dependencies: [
        .product(name: "UnimplementedTesting", package: "Unimplemented"), "ResponseCodeStore",
      ]),
  ]
)
