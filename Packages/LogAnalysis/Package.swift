// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "LogAnalysis",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    .library(name: "LogFormats", targets: ["LogFormats"]),
    .library(name: "LogAnalysis", targets: ["LogAnalysis"]),
    .library(name: "LogAnalysisLive", targets: ["LogAnalysisLive"]),
  ],
  dependencies: [.package(path: "../StoreLive"), .package(path: "../TestClocks")],
  targets: [
    .systemLibrary(
      name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
    .target(name: "CPrefetch"),
    .target(name: "LogFormats"),
    .target(name: "LogAnalysis", dependencies: ["LogFormats", "CPrefetch"]),
    .target(
      name: "LogAnalysisLive",
      dependencies: ["LogAnalysis", "CZlib", .product(name: "StoreLive", package: "StoreLive")]),
    .target(name: "LogAnalysisTestSupport", dependencies: ["LogAnalysis"]),
    .testTarget(name: "LogFormatsTests", dependencies: ["LogFormats"]),
    .testTarget(name: "LogAnalysisTests", dependencies: ["LogAnalysis", "LogAnalysisTestSupport"]),
    .testTarget(
      name: "LogAnalysisLiveTests",
      dependencies: [
        "LogAnalysisLive", "LogAnalysisTestSupport",
        .product(name: "TestClocks", package: "TestClocks"),
      ]),
  ]
)
