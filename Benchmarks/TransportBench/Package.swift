// swift-tools-version: 6.0
// The transport's floor for `Benchmarks/queue.sh`: fetches each URL of a list through
// HTTPClientLive alone, as many at a time as it is told (queue.sh gives it fetcher's
// `--concurrency`), each body written to a file of its own and each response head answered on
// an actor, as the download engine answers it; no queue, no names, no part files, no events.
import PackageDescription

let package = Package(
  name: "TransportBench",
  dependencies: [
    .package(path: "../../Packages/HTTPClient"),
    .package(path: "../../Packages/HTTPClientLive"),
  ],
  targets: [
    .executableTarget(
      name: "transportbench",
      dependencies: [
        .product(name: "HTTPClient", package: "HTTPClient"),
        .product(name: "HTTPClientLive", package: "HTTPClientLive"),
      ])
  ]
)
