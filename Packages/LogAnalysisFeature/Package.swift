// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "LogAnalysisFeature",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "LogAnalysisFeature", targets: ["LogAnalysisFeature"])],
  dependencies: [
    .package(path: "../AnalysisReport"),
    .package(path: "../LogAnalysis"),
    .package(path: "../StyleGuide"),
    .package(path: "../TestClocks"),
  ],
  targets: [
    .target(
      name: "LogAnalysisFeature",
      dependencies: ["AnalysisReport", "LogAnalysis", "StyleGuide"]),
    .testTarget(
      name: "LogAnalysisFeatureTests",
      dependencies: [
        "AnalysisReport", "LogAnalysisFeature",
        .product(name: "LogAnalysisLive", package: "LogAnalysis"), "TestClocks",
      ]),
  ]
)
