// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "XMLPathParser",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [.library(name: "XMLPathParser", targets: ["XMLPathParser"])],
  targets: [
    .systemLibrary(
      name: "CLibXML2", pkgConfig: "libxml-2.0",
      providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]),
    .target(name: "XMLPathParser", dependencies: ["CLibXML2"]),
    .testTarget(name: "XMLPathParserTests", dependencies: ["XMLPathParser"]),
  ]
)
