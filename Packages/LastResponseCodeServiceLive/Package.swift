// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "LastResponseCodeServiceLive",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    .library(name: "LastResponseCodeServiceLive", targets: ["LastResponseCodeServiceLive"])
  ],
  dependencies: [
    .package(path: "../LastResponseCodeService"),
    .package(path: "../ResponseCodeStore"),
    .package(path: "../Store"),
    .package(path: "../Unimplemented"),
  ],
  targets: [
    .target(
      name: "LastResponseCodeServiceLive",
      dependencies: ["LastResponseCodeService", "ResponseCodeStore"]),
    .testTarget(
      name: "LastResponseCodeServiceLiveTests",
      dependencies: [
        .product(name: "UnimplementedTesting", package: "Unimplemented"),
        "LastResponseCodeServiceLive", "Store",
      ]),
  ]
)
