// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "DataFetchFeature",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "DataFetchFeature", targets: ["DataFetchFeature"])],
  dependencies: [
    .package(path: "../ContentService"),
    .package(path: "../CounterService"),
    .package(path: "../LastResponseCodeService"),
    .package(path: "../Reachability"),
    .package(path: "../Unimplemented"),
  ],
  targets: [
    .target(
      name: "DataFetchFeature",
      dependencies: [
        "ContentService", "CounterService", "LastResponseCodeService", "Reachability",
      ]),
    .testTarget(
      name: "DataFetchFeatureTests",
      dependencies: [
        "DataFetchFeature", "Reachability",
        .product(name: "UnimplementedTesting", package: "Unimplemented"),
      ]),
  ]
)
