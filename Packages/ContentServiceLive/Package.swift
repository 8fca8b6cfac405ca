// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "ContentServiceLive",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "ContentServiceLive", targets: ["ContentServiceLive"])],
  dependencies: [
    .package(path: "../ContentService"),
    .package(path: "../NetworkClient"),
    .package(path: "../HTTPClient"),
    .package(path: "../NetworkClientTestSupport"),
    .package(path: "../TestClocks"),
    .package(path: "../Unimplemented"),
  ],
  targets: [
    .target(
      name: "ContentServiceLive", dependencies: ["ContentService", "NetworkClient", "HTTPClient"]),
    .testTarget(
      name: "ContentServiceLiveTests",
      dependencies: [
        .product(name: "UnimplementedTesting", package: "Unimplemented"), "ContentServiceLive",
        "NetworkClientTestSupport", "TestClocks",
      ]),
  ]
)
