// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "LogAnalysis",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "LogAnalysis", targets: ["LogAnalysis"])],
  targets: [
    .systemLibrary(
      name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
    .target(name: "CPrefetch"),
    .target(name: "LogAnalysis", dependencies: ["CZlib", "CPrefetch"]),
    .testTarget(name: "LogAnalysisTests", dependencies: ["LogAnalysis"]),
  ]
)
