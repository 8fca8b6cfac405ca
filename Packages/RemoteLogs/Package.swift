// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "RemoteLogs",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "RemoteLogs", targets: ["RemoteLogs"])],
  dependencies: [
    .package(path: "../Checksum"),
    .package(path: "../DownloadClient"),
    .package(path: "../HTTPClient"),
    .package(path: "../LogAnalysis"),
  ],
  targets: [
    .target(
      name: "RemoteLogs",
      dependencies: [
        .product(name: "Checksum", package: "Checksum"),
        .product(name: "DownloadClient", package: "DownloadClient"),
        .product(name: "HTTPClient", package: "HTTPClient"),
        .product(name: "LogAnalysisLive", package: "LogAnalysis"),
      ]),
    .testTarget(
      name: "RemoteLogsTests",
      dependencies: ["RemoteLogs", .product(name: "DownloadClient", package: "DownloadClient")]),
  ]
)
