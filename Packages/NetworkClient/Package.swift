// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "NetworkClient",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "NetworkClient", targets: ["NetworkClient"])],
  targets: [
    .target(name: "NetworkClient", dependencies: []),
    .testTarget(name: "NetworkClientTests", dependencies: ["NetworkClient"]),
  ]
)
