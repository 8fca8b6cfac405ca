// swift-tools-version: 6.0
// The benchmark's harness: parses a file with XMLPathParser, three paths registered, and
// prints the number of matches. Benchmarks/xml.sh builds it against this checkout's package
// and against an earlier commit's.
import PackageDescription

let package = Package(
  name: "XMLBench",
  dependencies: [.package(path: "../../Packages/XMLPathParser")],
  targets: [
    .executableTarget(
      name: "xmlbench",
      dependencies: [.product(name: "XMLPathParser", package: "XMLPathParser")])
  ]
)
