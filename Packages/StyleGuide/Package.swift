// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "StyleGuide",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "StyleGuide", targets: ["StyleGuide"])],
  dependencies: [
    .package(path: "../TestClocks")
  ],
  targets: [
    .target(name: "StyleGuide", dependencies: []),
    .testTarget(name: "StyleGuideTests", dependencies: ["StyleGuide", "TestClocks"]),
  ]
)
