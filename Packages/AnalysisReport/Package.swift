// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "AnalysisReport",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "AnalysisReport", targets: ["AnalysisReport"])],
  targets: [
    .target(name: "AnalysisReport"),
    .testTarget(name: "AnalysisReportTests", dependencies: ["AnalysisReport"]),
  ]
)
