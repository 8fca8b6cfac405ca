// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "HTTPClient",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "HTTPClient", targets: ["HTTPClient"])],
  targets: [
    .target(name: "HTTPClient"),
    .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient"]),
  ]
)
