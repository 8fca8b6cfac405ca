// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "LogAnalysisFeature",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "LogAnalysisFeature", targets: ["LogAnalysisFeature"])],
  dependencies: [
    .package(path: "../AnalysisReport"),
    .package(path: "../Checksum"),
    .package(path: "../DownloadClient"),
    .package(path: "../HTTPClient"),
    .package(path: "../LogAnalysis"),
    .package(path: "../StyleGuide"),
    .package(path: "../TestClocks"),
  ],
  targets: [
    .target(
      name: "LogAnalysisFeature",
      dependencies: [
        "AnalysisReport", "Checksum", "DownloadClient", "HTTPClient", "LogAnalysis", "StyleGuide",
      ]),
    .testTarget(
      name: "LogAnalysisFeatureTests",
      dependencies: [
        "AnalysisReport", "DownloadClient", "LogAnalysisFeature",
        .product(name: "LogAnalysisLive", package: "LogAnalysis"), "TestClocks",
      ]),
  ]
)
