// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "NetworkClientTestSupport",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "NetworkClientTestSupport", targets: ["NetworkClientTestSupport"])],
  dependencies: [
    .package(path: "../NetworkClient"),
    .package(path: "../Unimplemented"),
  ],
  targets: [
    .target(name: "NetworkClientTestSupport", dependencies: ["NetworkClient"]),
    .testTarget(
      name: "NetworkClientTestSupportTests",
      dependencies: [
        .product(name: "UnimplementedTesting", package: "Unimplemented"),
        "NetworkClientTestSupport",
      ]),
  ]
)
