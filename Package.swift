// swift-tools-version: 6.0
// The repository as one package: every local package's libraries and tests, with their
// targets at their folders under Packages/, and the `fetcher` command-line tool (App/, with
// the download daemon's server in Daemon/) with its end-to-end tests. Another project depends on it by URL and a version and picks single
// libraries (see the README); each package under Packages/ still builds and tests alone with
// its own manifest, which is where its targets are declared: the part below the MARK line is
// generated from those manifests.
import PackageDescription

/// Whether another project reads this manifest as its dependency: SwiftPM reads it first
/// from the repository itself (its directory is then `/`), then from a `checkouts` folder
/// (Xcode's too; a registry's is `registry`). The command-line tool, the daemon's server, their
/// tests, swift-argument-parser and Hummingbird are then left out: SwiftPM resolves, fetches and builds the plugins
/// of every dependency a manifest declares, used or not, and a project that picks a library
/// must get nothing it did not ask for.
let readAsADependency =
  Context.packageDirectory == "/"
  || Context.packageDirectory.split(separator: "/").contains {
    $0 == "checkouts" || $0 == "registry"
  }

/// The `fetcher` executable, the daemon's server it links (`Daemon`, on Hummingbird), the
/// server's tests in process, its end-to-end tests and the tests of its option parsing.
let commandLineTool: [Target] = [
  .executableTarget(
    name: "fetcher",
    dependencies: [
      .product(name: "ArgumentParser", package: "swift-argument-parser"),
      "AnalysisReport", "Checksum", "ChecksumTypes", "ContentService", "ContentServiceLive",
      "CounterService",
      "CounterServiceLive", "CounterStore", "CounterStoreLive", "DataFetchFeature",
      "DownloadClient", "DownloadClientLive", "DownloadFeature", "DownloadRPC",
      "DownloadRPCService", "HTTPClient",
      "HTTPClientLive",
      "LastResponseCodeService", "LastResponseCodeServiceLive", "LogAnalysisLive",
      "LogAnalysisFeature", "Metalink", "NetworkClient", "Reachability", "ReachabilityLive",
      "RemoteLogs",
      "ResponseCodeStore", "ResponseCodeStoreLive", "SongsService", "SongsServiceLive",
      "StoreLive", "StyleGuide", "TopSongsFeature", "Daemon",
    ],
    path: "App"
  ),
  .target(
    name: "Daemon",
    dependencies: [
      .product(name: "Hummingbird", package: "hummingbird"),
      .product(name: "HummingbirdCore", package: "hummingbird"),
      .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
      .product(name: "HTTPTypes", package: "swift-http-types"),
      .product(name: "Logging", package: "swift-log"),
      .product(name: "NIOCore", package: "swift-nio"),
      .product(name: "NIOHTTP1", package: "swift-nio"),
      .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
      .product(name: "NIOWebSocket", package: "swift-nio"),
      .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      "DownloadRPCService",
    ],
    path: "Daemon",
    resources: [
      .embedInCode("WebPage/index.html"), .embedInCode("WebPage/page.js"),
      .embedInCode("WebPage/page.css"),
    ]
  ),
  .testTarget(
    name: "RPCServerTests",
    dependencies: [
      "Daemon", "DownloadClient", "DownloadClientLive", "DownloadRPCService", "HTTPClient",
      "HTTPClientLive", "TestClocks",
      .product(name: "HTTPTypes", package: "swift-http-types"),
      .product(name: "NIOEmbedded", package: "swift-nio"),
      .product(name: "NIOHTTP1", package: "swift-nio"),
      .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
    ],
    path: "Tests/RPCServerTests"),
  .testTarget(
    name: "EndToEndTests", dependencies: ["fetcher", "TestPorts"], path: "Tests/EndToEndTests"),
  .testTarget(
    name: "AppTests",
    dependencies: [
      "fetcher", "HTTPClient",
      .product(name: "ArgumentParser", package: "swift-argument-parser"),
    ],
    path: "Tests/AppTests"),
]

let package = Package(
  name: "fetcher",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: (readAsADependency ? [] : [.executable(name: "fetcher", targets: ["fetcher"])])
    + packageProducts,
  dependencies: readAsADependency
    ? []
    : [
      .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
      .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
      .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
      .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
      .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
      .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
      .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
      .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
  targets: (readAsADependency ? [] : commandLineTool) + packageTargets
)

// MARK: - Generated from Packages/*/Package.swift by Scripts/generate-root-manifest.py:
// edit those manifests, then run the script; CI fails when this part differs from its
// output.

/// Every library of the local packages, for another project to pick one by one.
var packageProducts: [Product] {
  [
    .library(name: "AnalysisReport", targets: ["AnalysisReport"]),
    .library(name: "Checksum", targets: ["Checksum"]),
    .library(name: "ChecksumTypes", targets: ["ChecksumTypes"]),
    .library(name: "ContentService", targets: ["ContentService"]),
    .library(name: "ContentServiceLive", targets: ["ContentServiceLive"]),
    .library(name: "CounterService", targets: ["CounterService"]),
    .library(name: "CounterServiceLive", targets: ["CounterServiceLive"]),
    .library(name: "CounterStore", targets: ["CounterStore"]),
    .library(name: "CounterStoreLive", targets: ["CounterStoreLive"]),
    .library(name: "DataFetchFeature", targets: ["DataFetchFeature"]),
    .library(name: "DownloadClient", targets: ["DownloadClient"]),
    .library(name: "DownloadClientLive", targets: ["DownloadClientLive"]),
    .library(name: "DownloadFeature", targets: ["DownloadFeature"]),
    .library(name: "DownloadRPC", targets: ["DownloadRPC"]),
    .library(name: "DownloadRPCService", targets: ["DownloadRPCService"]),
    .library(name: "HTTPClient", targets: ["HTTPClient"]),
    .library(name: "HTTPClientLive", targets: ["HTTPClientLive"]),
    .library(name: "LastResponseCodeService", targets: ["LastResponseCodeService"]),
    .library(name: "LastResponseCodeServiceLive", targets: ["LastResponseCodeServiceLive"]),
    .library(name: "LogFormats", targets: ["LogFormats"]),
    .library(name: "LogAnalysis", targets: ["LogAnalysis"]),
    .library(name: "LogAnalysisLive", targets: ["LogAnalysisLive"]),
    .library(name: "LogAnalysisFeature", targets: ["LogAnalysisFeature"]),
    .library(name: "Metalink", targets: ["Metalink"]),
    .library(name: "NetworkClient", targets: ["NetworkClient"]),
    .library(name: "NetworkClientTestSupport", targets: ["NetworkClientTestSupport"]),
    .library(name: "Reachability", targets: ["Reachability"]),
    .library(name: "ReachabilityLive", targets: ["ReachabilityLive"]),
    .library(name: "RemoteLogs", targets: ["RemoteLogs"]),
    .library(name: "ResponseCodeStore", targets: ["ResponseCodeStore"]),
    .library(name: "ResponseCodeStoreLive", targets: ["ResponseCodeStoreLive"]),
    .library(name: "SongsService", targets: ["SongsService"]),
    .library(name: "SongsServiceLive", targets: ["SongsServiceLive"]),
    .library(name: "Store", targets: ["Store"]),
    .library(name: "StoreLive", targets: ["StoreLive"]),
    .library(name: "StyleGuide", targets: ["StyleGuide"]),
    .library(name: "TestClocks", targets: ["TestClocks"]),
    .library(name: "TestPorts", targets: ["TestPorts"]),
    .library(name: "TopSongsFeature", targets: ["TopSongsFeature"]),
    .library(name: "Unimplemented", targets: ["Unimplemented"]),
    .library(name: "UnimplementedTesting", targets: ["UnimplementedTesting"]),
    .library(name: "XMLPathParser", targets: ["XMLPathParser"]),
  ]
}

/// The targets of the local packages, at their folders under Packages/.
var packageTargets: [Target] {
  [
    // Packages/AnalysisReport
    .target(
      name: "AnalysisReport", dependencies: [],
      path: "Packages/AnalysisReport/Sources/AnalysisReport"),
    .testTarget(
      name: "AnalysisReportTests", dependencies: ["AnalysisReport"],
      path: "Packages/AnalysisReport/Tests/AnalysisReportTests"),
    // Packages/Checksum
    .systemLibrary(
      name: "CCrypto", path: "Packages/Checksum/Sources/CCrypto", pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"])]),
    .target(
      name: "ChecksumTypes", dependencies: [], path: "Packages/Checksum/Sources/ChecksumTypes"),
    .target(
      name: "Checksum", dependencies: ["ChecksumTypes", "CCrypto"],
      path: "Packages/Checksum/Sources/Checksum"),
    .testTarget(
      name: "ChecksumTests", dependencies: ["Checksum", "ChecksumTypes"],
      path: "Packages/Checksum/Tests/ChecksumTests"),
    // Packages/ContentService
    .target(
      name: "ContentService", dependencies: ["Unimplemented"],
      path: "Packages/ContentService/Sources/ContentService"),
    .testTarget(
      name: "ContentServiceTests",
      dependencies: ["UnimplementedTesting", "ContentService", "Unimplemented"],
      path: "Packages/ContentService/Tests/ContentServiceTests"),
    // Packages/ContentServiceLive
    .target(
      name: "ContentServiceLive", dependencies: ["ContentService", "NetworkClient", "HTTPClient"],
      path: "Packages/ContentServiceLive/Sources/ContentServiceLive"),
    .testTarget(
      name: "ContentServiceLiveTests",
      dependencies: [
        "UnimplementedTesting", "ContentServiceLive", "NetworkClientTestSupport", "TestClocks",
      ], path: "Packages/ContentServiceLive/Tests/ContentServiceLiveTests"),
    // Packages/CounterService
    .target(
      name: "CounterService", dependencies: ["Unimplemented"],
      path: "Packages/CounterService/Sources/CounterService"),
    .testTarget(
      name: "CounterServiceTests",
      dependencies: ["UnimplementedTesting", "CounterService", "Unimplemented"],
      path: "Packages/CounterService/Tests/CounterServiceTests"),
    // Packages/CounterServiceLive
    .target(
      name: "CounterServiceLive", dependencies: ["CounterService", "CounterStore"],
      path: "Packages/CounterServiceLive/Sources/CounterServiceLive"),
    .testTarget(
      name: "CounterServiceLiveTests",
      dependencies: ["UnimplementedTesting", "CounterServiceLive", "Store"],
      path: "Packages/CounterServiceLive/Tests/CounterServiceLiveTests"),
    // Packages/CounterStore
    .target(
      name: "CounterStore", dependencies: ["Store"],
      path: "Packages/CounterStore/Sources/CounterStore"),
    .testTarget(
      name: "CounterStoreTests", dependencies: ["UnimplementedTesting", "CounterStore"],
      path: "Packages/CounterStore/Tests/CounterStoreTests"),
    // Packages/CounterStoreLive
    .target(
      name: "CounterStoreLive", dependencies: ["CounterStore", "StoreLive"],
      path: "Packages/CounterStoreLive/Sources/CounterStoreLive"),
    .testTarget(
      name: "CounterStoreLiveTests",
      dependencies: ["UnimplementedTesting", "CounterStoreLive", "Store"],
      path: "Packages/CounterStoreLive/Tests/CounterStoreLiveTests"),
    // Packages/DataFetchFeature
    .target(
      name: "DataFetchFeature",
      dependencies: [
        "ContentService", "CounterService", "LastResponseCodeService", "Reachability",
      ], path: "Packages/DataFetchFeature/Sources/DataFetchFeature"),
    .testTarget(
      name: "DataFetchFeatureTests",
      dependencies: ["DataFetchFeature", "Reachability", "UnimplementedTesting"],
      path: "Packages/DataFetchFeature/Tests/DataFetchFeatureTests"),
    // Packages/DownloadClient
    .target(
      name: "DownloadClient", dependencies: ["HTTPClient", "Unimplemented", "ChecksumTypes"],
      path: "Packages/DownloadClient/Sources/DownloadClient"),
    .testTarget(
      name: "DownloadClientTests",
      dependencies: [
        "UnimplementedTesting", "DownloadClient", "HTTPClient", "Unimplemented", "ChecksumTypes",
      ], path: "Packages/DownloadClient/Tests/DownloadClientTests"),
    // Packages/DownloadClientLive
    .target(
      name: "DownloadClientLive",
      dependencies: [
        "Checksum", "DownloadClient", "DownloadRPC", "HTTPClient", "Reachability", "StoreLive",
      ], path: "Packages/DownloadClientLive/Sources/DownloadClientLive"),
    .testTarget(
      name: "DownloadClientLiveTests",
      dependencies: [
        "UnimplementedTesting", "Checksum", "DownloadClient", "DownloadClientLive", "DownloadRPC",
        "HTTPClient", "Reachability", "StoreLive", "TestClocks",
      ], path: "Packages/DownloadClientLive/Tests/DownloadClientLiveTests"),
    // Packages/DownloadFeature
    .target(
      name: "DownloadFeature",
      dependencies: ["ChecksumTypes", "DownloadClient", "HTTPClient", "Metalink", "StyleGuide"],
      path: "Packages/DownloadFeature/Sources/DownloadFeature"),
    .testTarget(
      name: "DownloadFeatureTests",
      dependencies: [
        "UnimplementedTesting", "DownloadFeature", "DownloadClient", "Metalink", "HTTPClient",
      ], path: "Packages/DownloadFeature/Tests/DownloadFeatureTests"),
    // Packages/DownloadRPC
    .target(
      name: "DownloadRPC", dependencies: ["DownloadClient", "ChecksumTypes"],
      path: "Packages/DownloadRPC/Sources/DownloadRPC"),
    .testTarget(
      name: "DownloadRPCTests",
      dependencies: ["UnimplementedTesting", "DownloadRPC", "DownloadClient", "ChecksumTypes"],
      path: "Packages/DownloadRPC/Tests/DownloadRPCTests"),
    // Packages/DownloadRPCService
    .target(
      name: "DownloadRPCService",
      dependencies: [
        "ChecksumTypes", "DownloadClient", "DownloadFeature", "DownloadRPC", "HTTPClient",
        "Metalink",
      ], path: "Packages/DownloadRPCService/Sources/DownloadRPCService"),
    .testTarget(
      name: "DownloadRPCServiceTests",
      dependencies: ["DownloadRPCService", "DownloadClient", "DownloadRPC"],
      path: "Packages/DownloadRPCService/Tests/DownloadRPCServiceTests"),
    // Packages/HTTPClient
    .target(
      name: "HTTPClient", dependencies: ["Unimplemented"],
      path: "Packages/HTTPClient/Sources/HTTPClient"),
    .testTarget(
      name: "HTTPClientTests", dependencies: ["UnimplementedTesting", "HTTPClient"],
      path: "Packages/HTTPClient/Tests/HTTPClientTests"),
    // Packages/HTTPClientLive
    .systemLibrary(
      name: "CCurl", path: "Packages/HTTPClientLive/Sources/CCurl", pkgConfig: "libcurl",
      providers: [.apt(["libcurl4-openssl-dev"])]),
    .target(
      name: "HTTPClientLive", dependencies: ["HTTPClient", "CCurl", "StoreLive"],
      path: "Packages/HTTPClientLive/Sources/HTTPClientLive"),
    .testTarget(
      name: "HTTPClientLiveTests",
      dependencies: ["HTTPClientLive", "HTTPClient", "TestPorts", "UnimplementedTesting"],
      path: "Packages/HTTPClientLive/Tests/HTTPClientLiveTests"),
    // Packages/LastResponseCodeService
    .target(
      name: "LastResponseCodeService", dependencies: ["Unimplemented"],
      path: "Packages/LastResponseCodeService/Sources/LastResponseCodeService"),
    .testTarget(
      name: "LastResponseCodeServiceTests",
      dependencies: ["UnimplementedTesting", "LastResponseCodeService", "Unimplemented"],
      path: "Packages/LastResponseCodeService/Tests/LastResponseCodeServiceTests"),
    // Packages/LastResponseCodeServiceLive
    .target(
      name: "LastResponseCodeServiceLive",
      dependencies: ["LastResponseCodeService", "ResponseCodeStore"],
      path: "Packages/LastResponseCodeServiceLive/Sources/LastResponseCodeServiceLive"),
    .testTarget(
      name: "LastResponseCodeServiceLiveTests",
      dependencies: ["UnimplementedTesting", "LastResponseCodeServiceLive", "Store"],
      path: "Packages/LastResponseCodeServiceLive/Tests/LastResponseCodeServiceLiveTests"),
    // Packages/LogAnalysis
    .systemLibrary(
      name: "CZlib", path: "Packages/LogAnalysis/Sources/CZlib", pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
    .target(name: "CPrefetch", dependencies: [], path: "Packages/LogAnalysis/Sources/CPrefetch"),
    .target(name: "LogFormats", dependencies: [], path: "Packages/LogAnalysis/Sources/LogFormats"),
    .target(
      name: "LogAnalysis", dependencies: ["LogFormats", "CPrefetch"],
      path: "Packages/LogAnalysis/Sources/LogAnalysis"),
    .target(
      name: "LogAnalysisLive", dependencies: ["LogAnalysis", "CZlib", "StoreLive"],
      path: "Packages/LogAnalysis/Sources/LogAnalysisLive"),
    .target(
      name: "LogAnalysisTestSupport", dependencies: ["LogAnalysis"],
      path: "Packages/LogAnalysis/Sources/LogAnalysisTestSupport"),
    .testTarget(
      name: "LogFormatsTests", dependencies: ["LogFormats"],
      path: "Packages/LogAnalysis/Tests/LogFormatsTests"),
    .testTarget(
      name: "LogAnalysisTests", dependencies: ["LogAnalysis", "LogAnalysisTestSupport"],
      path: "Packages/LogAnalysis/Tests/LogAnalysisTests"),
    .testTarget(
      name: "LogAnalysisLiveTests",
      dependencies: ["LogAnalysisLive", "LogAnalysisTestSupport", "TestClocks"],
      path: "Packages/LogAnalysis/Tests/LogAnalysisLiveTests"),
    // Packages/LogAnalysisFeature
    .target(
      name: "LogAnalysisFeature", dependencies: ["AnalysisReport", "LogAnalysis", "StyleGuide"],
      path: "Packages/LogAnalysisFeature/Sources/LogAnalysisFeature"),
    .testTarget(
      name: "LogAnalysisFeatureTests",
      dependencies: ["AnalysisReport", "LogAnalysisFeature", "LogAnalysisLive", "TestClocks"],
      path: "Packages/LogAnalysisFeature/Tests/LogAnalysisFeatureTests"),
    // Packages/Metalink
    .target(
      name: "Metalink", dependencies: ["XMLPathParser", "ChecksumTypes", "HTTPClient"],
      path: "Packages/Metalink/Sources/Metalink"),
    .testTarget(
      name: "MetalinkTests", dependencies: ["Metalink"],
      path: "Packages/Metalink/Tests/MetalinkTests"),
    // Packages/NetworkClient
    .target(
      name: "NetworkClient", dependencies: ["HTTPClient", "Unimplemented"],
      path: "Packages/NetworkClient/Sources/NetworkClient"),
    .testTarget(
      name: "NetworkClientTests",
      dependencies: ["UnimplementedTesting", "NetworkClient", "HTTPClient"],
      path: "Packages/NetworkClient/Tests/NetworkClientTests"),
    // Packages/NetworkClientTestSupport
    .target(
      name: "NetworkClientTestSupport", dependencies: ["NetworkClient"],
      path: "Packages/NetworkClientTestSupport/Sources/NetworkClientTestSupport"),
    .testTarget(
      name: "NetworkClientTestSupportTests",
      dependencies: ["UnimplementedTesting", "NetworkClientTestSupport"],
      path: "Packages/NetworkClientTestSupport/Tests/NetworkClientTestSupportTests"),
    // Packages/Reachability
    .target(
      name: "Reachability", dependencies: ["Unimplemented"],
      path: "Packages/Reachability/Sources/Reachability"),
    .testTarget(
      name: "ReachabilityTests", dependencies: ["UnimplementedTesting", "Reachability"],
      path: "Packages/Reachability/Tests/ReachabilityTests"),
    // Packages/ReachabilityLive
    .target(
      name: "ReachabilityLive", dependencies: ["Reachability"],
      path: "Packages/ReachabilityLive/Sources/ReachabilityLive"),
    .testTarget(
      name: "ReachabilityLiveTests",
      dependencies: ["UnimplementedTesting", "ReachabilityLive", "Reachability", "TestPorts"],
      path: "Packages/ReachabilityLive/Tests/ReachabilityLiveTests"),
    // Packages/RemoteLogs
    .target(
      name: "RemoteLogs",
      dependencies: ["Checksum", "DownloadClient", "HTTPClient", "LogAnalysisLive"],
      path: "Packages/RemoteLogs/Sources/RemoteLogs"),
    .testTarget(
      name: "RemoteLogsTests", dependencies: ["RemoteLogs", "DownloadClient"],
      path: "Packages/RemoteLogs/Tests/RemoteLogsTests"),
    // Packages/ResponseCodeStore
    .target(
      name: "ResponseCodeStore", dependencies: ["Store"],
      path: "Packages/ResponseCodeStore/Sources/ResponseCodeStore"),
    .testTarget(
      name: "ResponseCodeStoreTests", dependencies: ["UnimplementedTesting", "ResponseCodeStore"],
      path: "Packages/ResponseCodeStore/Tests/ResponseCodeStoreTests"),
    // Packages/ResponseCodeStoreLive
    .target(
      name: "ResponseCodeStoreLive", dependencies: ["ResponseCodeStore", "StoreLive"],
      path: "Packages/ResponseCodeStoreLive/Sources/ResponseCodeStoreLive"),
    .testTarget(
      name: "ResponseCodeStoreLiveTests",
      dependencies: ["UnimplementedTesting", "ResponseCodeStoreLive", "Store"],
      path: "Packages/ResponseCodeStoreLive/Tests/ResponseCodeStoreLiveTests"),
    // Packages/SongsService
    .target(
      name: "SongsService", dependencies: ["Unimplemented"],
      path: "Packages/SongsService/Sources/SongsService"),
    .testTarget(
      name: "SongsServiceTests",
      dependencies: ["UnimplementedTesting", "SongsService", "Unimplemented"],
      path: "Packages/SongsService/Tests/SongsServiceTests"),
    // Packages/SongsServiceLive
    .target(
      name: "SongsServiceLive",
      dependencies: ["DownloadClient", "SongsService", "NetworkClient", "XMLPathParser"],
      path: "Packages/SongsServiceLive/Sources/SongsServiceLive"),
    .testTarget(
      name: "SongsServiceLiveTests",
      dependencies: ["UnimplementedTesting", "SongsServiceLive", "NetworkClientTestSupport"],
      path: "Packages/SongsServiceLive/Tests/SongsServiceLiveTests"),
    // Packages/Store
    .target(name: "Store", dependencies: ["Unimplemented"], path: "Packages/Store/Sources/Store"),
    .testTarget(
      name: "StoreTests", dependencies: ["UnimplementedTesting", "Store", "Unimplemented"],
      path: "Packages/Store/Tests/StoreTests"),
    // Packages/StoreLive
    .target(
      name: "StoreLive", dependencies: ["Store"], path: "Packages/StoreLive/Sources/StoreLive"),
    .testTarget(
      name: "StoreLiveTests", dependencies: ["UnimplementedTesting", "StoreLive"],
      path: "Packages/StoreLive/Tests/StoreLiveTests"),
    // Packages/StyleGuide
    .target(name: "StyleGuide", dependencies: [], path: "Packages/StyleGuide/Sources/StyleGuide"),
    .testTarget(
      name: "StyleGuideTests", dependencies: ["StyleGuide", "TestClocks"],
      path: "Packages/StyleGuide/Tests/StyleGuideTests"),
    // Packages/TestClocks
    .target(name: "TestClocks", dependencies: [], path: "Packages/TestClocks/Sources/TestClocks"),
    .testTarget(
      name: "TestClocksTests", dependencies: ["TestClocks"],
      path: "Packages/TestClocks/Tests/TestClocksTests"),
    // Packages/TestPorts
    .target(name: "TestPorts", dependencies: [], path: "Packages/TestPorts/Sources/TestPorts"),
    .testTarget(
      name: "TestPortsTests", dependencies: ["TestPorts"],
      path: "Packages/TestPorts/Tests/TestPortsTests"),
    // Packages/TopSongsFeature
    .target(
      name: "TopSongsFeature", dependencies: ["SongsService", "StyleGuide"],
      path: "Packages/TopSongsFeature/Sources/TopSongsFeature"),
    .testTarget(
      name: "TopSongsFeatureTests",
      dependencies: ["TopSongsFeature", "SongsService", "UnimplementedTesting"],
      path: "Packages/TopSongsFeature/Tests/TopSongsFeatureTests"),
    // Packages/Unimplemented
    .target(
      name: "Unimplemented", dependencies: [], path: "Packages/Unimplemented/Sources/Unimplemented"),
    .target(
      name: "UnimplementedTesting", dependencies: ["Unimplemented"],
      path: "Packages/Unimplemented/Sources/UnimplementedTesting"),
    .testTarget(
      name: "UnimplementedTests", dependencies: ["Unimplemented", "UnimplementedTesting"],
      path: "Packages/Unimplemented/Tests/UnimplementedTests"),
    // Packages/XMLPathParser
    .systemLibrary(
      name: "CLibXML2", path: "Packages/XMLPathParser/Sources/CLibXML2", pkgConfig: "libxml-2.0",
      providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]),
    .target(
      name: "XMLPathParser", dependencies: ["CLibXML2"],
      path: "Packages/XMLPathParser/Sources/XMLPathParser"),
    .testTarget(
      name: "XMLPathParserTests", dependencies: ["XMLPathParser"],
      path: "Packages/XMLPathParser/Tests/XMLPathParserTests"),
  ]
}

// MARK: - End of the generated part.
