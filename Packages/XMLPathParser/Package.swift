// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "XMLPathParser",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "XMLPathParser", targets: ["XMLPathParser"])],
  targets: [
    .target(name: "XMLPathParser", dependencies: []),
    .testTarget(name: "XMLPathParserTests", dependencies: ["XMLPathParser"]),
  ]
)
