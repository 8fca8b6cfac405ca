// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "HTTPClient",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "HTTPClient", targets: ["HTTPClient"])],
  dependencies: [.package(path: "../Unimplemented")],
  targets: [
    .target(name: "HTTPClient", dependencies: ["Unimplemented"]),
    .testTarget(
      name: "HTTPClientTests",
      dependencies: [
        .product(name: "UnimplementedTesting", package: "Unimplemented"), "HTTPClient",
      ]),
  ]
)
