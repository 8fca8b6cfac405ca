// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "NetworkClient",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "NetworkClient", targets: ["NetworkClient"])],
  dependencies: [
    .package(path: "../Unimplemented"),
    .package(path: "../HTTPClient"),
  ],
  targets: [
    .target(name: "NetworkClient", dependencies: ["HTTPClient", "Unimplemented"]),
    .testTarget(
      name: "NetworkClientTests",
      dependencies: [
        .product(name: "UnimplementedTesting", package: "Unimplemented"), "NetworkClient",
        "HTTPClient",
      ]),
  ]
)
