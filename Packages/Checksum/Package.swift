// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Checksum",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    .library(name: "Checksum", targets: ["Checksum"]),
    .library(name: "ChecksumTypes", targets: ["ChecksumTypes"]),
  ],
  targets: [
    .systemLibrary(
      name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
    .target(name: "ChecksumTypes", dependencies: []),
    .target(
      name: "Checksum",
      dependencies: [
        "ChecksumTypes", .target(name: "CCrypto", condition: .when(platforms: [.linux])),
      ]),
    .testTarget(name: "ChecksumTests", dependencies: ["Checksum", "ChecksumTypes"]),
  ]
)
