// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "HTTPClientLive",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "HTTPClientLive", targets: ["HTTPClientLive"])],
  dependencies: [
    .package(path: "../HTTPClient"),
    .package(path: "../StoreLive"),
    .package(path: "../TestPorts"),
    .package(path: "../Unimplemented"),
  ],
  targets: [
    .systemLibrary(
      name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
    .target(name: "HTTPClientLive", dependencies: ["HTTPClient", "CCurl", "StoreLive"]),
    .testTarget(
      name: "HTTPClientLiveTests",
      dependencies: [
        "HTTPClientLive", "HTTPClient", "TestPorts",
        .product(name: "UnimplementedTesting", package: "Unimplemented"),
      ]),
  ]
)
