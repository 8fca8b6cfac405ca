import Foundation

/// Where the repository's files and the built products are.
enum Paths {
  /// The repository's root folder.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static let server = root.appendingPathComponent("server.py")
  /// The fault suite's server that lies (see the file).
  static let lyingServer = root.appendingPathComponent("Tests/Faults/lying_server.py")
  static let webHDFS = root.appendingPathComponent("Tests/WebHDFS/webhdfs_server.py")

  /// The built `fetcher`, beside the test bundle in the build products folder.
  static let fetcher: URL = {
    let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    return products.appendingPathComponent("fetcher")
  }()
}
