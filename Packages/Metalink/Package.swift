// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Metalink",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "Metalink", targets: ["Metalink"])],
  dependencies: [
    .package(path: "../XMLPathParser"), .package(path: "../Checksum"),
    .package(path: "../HTTPClient"),
  ],
  targets: [
    .target(
      name: "Metalink",
      dependencies: [
        "XMLPathParser", .product(name: "ChecksumTypes", package: "Checksum"),
        .product(name: "HTTPClient", package: "HTTPClient"),
      ]),
    .testTarget(name: "MetalinkTests", dependencies: ["Metalink"]),
  ]
)
