import Foundation

/// A Linux network namespace of its own, for a machine that goes offline: loopback and a
/// veth pair whose two ends hold `serverAddress` and another address of its network. Taking
/// the links down removes the only routes beyond loopback, as losing Wi-Fi does. Needs root
/// (`ip netns`); deleted when released.
final class NetworkNamespace {
  /// The address a server in the namespace listens on, reached through the veth pair.
  let serverAddress = "10.77.0.2"
  private let name = "fetcher-test-\(UUID().uuidString.prefix(8))"

  /// Whether this machine lets the tests make namespaces (root, with `ip netns`).
  static let canBeMade: Bool = {
    guard getuid() == 0 else { return false }
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    probe.arguments = ["ip", "netns", "list"]
    probe.standardOutput = FileHandle.nullDevice
    probe.standardError = FileHandle.nullDevice
    guard (try? probe.run()) != nil else { return false }
    probe.waitUntilExit()
    return probe.terminationStatus == 0
  }()

  init() throws {
    try Self.ip("netns", "add", name)
    try ip("link", "set", "lo", "up")
    try ip("link", "add", "v0", "type", "veth", "peer", "name", "v1")
    try ip("addr", "add", "10.77.0.1/24", "dev", "v0")
    try ip("addr", "add", "\(serverAddress)/24", "dev", "v1")
    try setLinks(up: true)
  }

  deinit { try? Self.ip("netns", "delete", name) }

  /// The words that run a command inside the namespace.
  var prefix: [String] { ["ip", "netns", "exec", name] }

  /// Brings both ends of the veth pair up or down, with their routes.
  func setLinks(up: Bool) throws {
    for link in ["v0", "v1"] { try ip("link", "set", link, up ? "up" : "down") }
  }

  private func ip(_ arguments: String...) throws {
    try Self.ip(["-n", name] + arguments)
  }

  private static func ip(_ arguments: String...) throws { try ip(arguments) }

  private static func ip(_ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["ip"] + arguments
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      let message = String(
        decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      throw Failure(command: "ip " + arguments.joined(separator: " "), message: message)
    }
  }

  struct Failure: Error, CustomStringConvertible {
    let command: String
    let message: String
    var description: String { "\(command): \(message)" }
  }
}
