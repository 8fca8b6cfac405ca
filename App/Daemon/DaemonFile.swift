import Foundation
import StoreLive

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `daemon.json` in the state folder: where the running daemon listens and its secret (the
/// file is `0600`). The daemon holds a lock on it while it runs, so a file left by a daemon
/// that was killed says nothing.
struct DaemonFile: Codable, Equatable {
  var pid: Int32
  var port: UInt16
  var secret: String?

  /// The daemon's RPC address.
  var url: URL { URL(string: "http://127.0.0.1:\(port)/jsonrpc")! }

  static var location: URL { Directories.state.appendingPathComponent("daemon.json") }

  /// The running daemon's file; nil when no daemon runs.
  static func running() -> DaemonFile? {
    let descriptor = open(location.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    guard FileLock.tryExclusive(descriptor) == .heldElsewhere else { return nil }
    let data = FileHandle(fileDescriptor: descriptor).readDataToEndOfFile()
    return try? JSONDecoder().decode(DaemonFile.self, from: data)
  }

  /// Takes the daemon's place: the open, locked file, which stays locked until the process
  /// ends. Throws when another daemon holds it.
  static func claim() throws -> Int32 {
    try FileManager.default.createDirectory(
      at: Directories.state, withIntermediateDirectories: true)
    let descriptor = open(location.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard descriptor >= 0 else {
      throw failure("cannot open \(location.path): \(String(cString: strerror(errno)))")
    }
    switch FileLock.tryExclusive(descriptor) {
    case .taken:
      // It holds the secret: the user's alone, whatever an older file was.
      fchmod(descriptor, 0o600)
      return descriptor
    case .heldElsewhere:
      close(descriptor)
      let port = running().map { " on port \($0.port)" } ?? ""
      throw failure("a daemon runs already\(port) (fetcher daemon stop stops it)")
    case .failed(let code):
      close(descriptor)
      throw failure("cannot lock \(location.path): \(String(cString: strerror(code)))")
    }
  }

  /// Writes this file's contents into the claimed `descriptor`.
  func write(to descriptor: Int32) throws {
    let data = try JSONEncoder().encode(self)
    guard ftruncate(descriptor, 0) == 0,
      data.withUnsafeBytes({ pwrite(descriptor, $0.baseAddress, $0.count, 0) }) == data.count
    else {
      throw failure("cannot write \(Self.location.path): \(String(cString: strerror(errno)))")
    }
  }
}
