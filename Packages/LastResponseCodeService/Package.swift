// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "LastResponseCodeService",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "LastResponseCodeService", targets: ["LastResponseCodeService"])],
  dependencies: [.package(path: "../Unimplemented")],
  targets: [
    .target(name: "LastResponseCodeService", dependencies: ["Unimplemented"]),
    .testTarget(
      name: "LastResponseCodeServiceTests",
      dependencies: [
        .product(name: "UnimplementedTesting", package: "Unimplemented"), "LastResponseCodeService",
        "Unimplemented",
      ]),
  ]
)
