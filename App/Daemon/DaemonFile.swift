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
  /// Whether it serves its page at `/` (nil in the file of a daemon older than the page).
  var webPage: Bool?

  /// The address of its page, with the secret in the fragment, which browsers never send.
  var pageAddress: String {
    let fragment = secret.map {
      "#secret=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0)
    }
    return "http://127.0.0.1:\(port)/" + (fragment ?? "")
  }

  /// The RPC's address through `socket`.
  static let socketURL = URL(string: "http://localhost/jsonrpc")!

  static var location: URL { Directories.state.appendingPathComponent("daemon.json") }

  /// The Unix socket the command line calls the daemon through: in the state folder, which
  /// is the owner's alone, so no other user can listen in the daemon's place and be handed
  /// the secret or a download's credentials, as on a port another user can take once free.
  static var socket: URL { Directories.state.appendingPathComponent("daemon.sock") }

  /// The running daemon's file; nil when no daemon runs.
  static func running() -> DaemonFile? {
    switch try? FileLock.acquire(location.path, .init(creating: false)) {
    case .heldElsewhere(let descriptor)?:
      defer { close(descriptor) }
      let data = FileHandle(fileDescriptor: descriptor).readDataToEndOfFile()
      return try? JSONDecoder().decode(DaemonFile.self, from: data)
    case .taken(let descriptor)?:
      close(descriptor)  // a file left by a daemon that was killed
      return nil
    case nil: return nil
    }
  }

  /// Takes the daemon's place: the open, locked file, which stays locked until the process
  /// ends. Throws when another daemon holds it.
  static func claim() throws -> Int32 {
    try StateFolder.makePrivate()
    let acquired: FileLock.Acquired
    do {
      acquired = try FileLock.acquire(location.path)
    } catch {
      throw failure(error.description)
    }
    switch acquired {
    case .taken(let descriptor):
      // It holds the secret: the user's alone, whatever an older file was.
      fchmod(descriptor, 0o600)
      return descriptor
    case .heldElsewhere(let descriptor):
      close(descriptor)
      let port = running().map { " on port \($0.port)" } ?? ""
      throw failure("a daemon runs already\(port) (fetcher daemon stop stops it)")
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

/// The state folder, the owner's alone (0700): it holds the daemon's secret and socket.
enum StateFolder {
  /// Makes the folder if it is missing, and takes the rights of others away from it when
  /// it is this user's.
  static func makePrivate() throws {
    let folder = Directories.state
    try FileManager.default.createDirectory(
      at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    var status = stat()
    guard lstat(folder.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR,
      status.st_uid == getuid()
    else {
      throw failure(
        "\(folder.path) is not a folder of this user's: the daemon keeps its secret there")
    }
    if status.st_mode & 0o077 != 0, chmod(folder.path, 0o700) != 0 {
      throw failure("cannot make \(folder.path) private: \(String(cString: strerror(errno)))")
    }
  }
}
