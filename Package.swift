// swift-tools-version: 6.0
// The composition root: the `fetcher` executable, and one test target per local package so
// that a single `swift test` builds once and runs every package's tests plus the end-to-end
// tests. The package list is read from `Packages/`, and each package's test dependencies
// from its own manifest, so adding a package needs no change here.
import Foundation
import PackageDescription

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

/// The local packages: the folders of `Packages/` that hold a manifest.
let localPackages: [String] = {
  let folder = root.appendingPathComponent("Packages")
  let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
  return names.filter {
    FileManager.default.fileExists(
      atPath: folder.appendingPathComponent("\($0)/Package.swift").path)
  }.sorted()
}()

/// The local packages that `name`'s manifest depends on (its `.package(path: "../X")` lines).
func localDependencies(of name: String) -> [String] {
  let manifest = root.appendingPathComponent("Packages/\(name)/Package.swift")
  let text = (try? String(contentsOf: manifest, encoding: .utf8)) ?? ""
  return text.components(separatedBy: ".package(path: \"../").dropFirst().compactMap {
    $0.components(separatedBy: "\"").first
  }
}

/// A local package's library product of its own name.
func library(_ name: String) -> Target.Dependency {
  .product(name: name, package: name)
}

/// Every library product of local package `name` (its `.library(name: "X"` lines), so that a
/// test target reaches test helpers such as `UnimplementedTesting`.
func libraries(of name: String) -> [Target.Dependency] {
  let manifest = root.appendingPathComponent("Packages/\(name)/Package.swift")
  let text = (try? String(contentsOf: manifest, encoding: .utf8)) ?? ""
  return text.components(separatedBy: ".library(name: \"").dropFirst().compactMap {
    $0.components(separatedBy: "\"").first
  }.map { .product(name: $0, package: name) }
}

let package = Package(
  name: "Fetcher",
  platforms: [.macOS(.v15)],
  products: [.executable(name: "fetcher", targets: ["fetcher"])],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
  ] + localPackages.map { .package(path: "Packages/\($0)") },
  targets: [
    .executableTarget(
      name: "fetcher",
      dependencies: [
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        library("AnalysisReport"),
        library("Checksum"),
        library("ContentService"),
        library("ContentServiceLive"),
        library("CounterService"),
        library("CounterServiceLive"),
        library("CounterStore"),
        library("CounterStoreLive"),
        library("DataFetchFeature"),
        library("DownloadClient"),
        library("DownloadClientLive"),
        library("DownloadFeature"),
        library("HTTPClient"),
        library("HTTPClientLive"),
        library("LastResponseCodeService"),
        library("LogAnalysis"),
        library("LogAnalysisFeature"),
        library("LastResponseCodeServiceLive"),
        library("NetworkClient"),
        library("Reachability"),
        library("ReachabilityLive"),
        library("ResponseCodeStore"),
        library("ResponseCodeStoreLive"),
        library("StoreLive"),
        library("SongsService"),
        library("SongsServiceLive"),
        library("StyleGuide"),
        library("TopSongsFeature"),
      ],
      path: "App"
    ),
    .testTarget(
      name: "EndToEndTests",
      dependencies: ["fetcher"],
      path: "Tests/EndToEndTests"
    ),
  ]
    + localPackages.map { name in
      .testTarget(
        name: "\(name)Tests",
        dependencies: ([name] + localDependencies(of: name)).flatMap(libraries(of:)),
        path: "Packages/\(name)/Tests/\(name)Tests"
      )
    }
)
