// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "LastResponseCodeService",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "LastResponseCodeService", targets: ["LastResponseCodeService"])],
  targets: [
    .target(name: "LastResponseCodeService", dependencies: []),
    .testTarget(name: "LastResponseCodeServiceTests", dependencies: ["LastResponseCodeService"]),
  ]
)
