// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Metalink",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "Metalink", targets: ["Metalink"])],
  dependencies: [.package(path: "../XMLPathParser"), .package(path: "../Checksum")],
  targets: [
    .target(
      name: "Metalink",
      dependencies: [
        "XMLPathParser", .product(name: "ChecksumTypes", package: "Checksum"),
      ]),
    .testTarget(name: "MetalinkTests", dependencies: ["Metalink"]),
  ]
)
