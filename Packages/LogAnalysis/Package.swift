// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "LogAnalysis",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "LogAnalysis", targets: ["LogAnalysis"])],
  targets: [
    .target(name: "LogAnalysis"),
    .testTarget(name: "LogAnalysisTests", dependencies: ["LogAnalysis"]),
  ]
)
