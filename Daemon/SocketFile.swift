import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The Unix socket's path in the state folder.
enum SocketFile {
  /// Makes room for a socket at `url`: removes a socket a daemon that was killed left there
  /// (the caller holds the daemon's lock, so none listens on it); refuses anything else there,
  /// and a path too long for a socket's address.
  static func prepare(_ url: URL) throws {
    let path = url.path
    // sockaddr_un's sun_path holds 108 bytes with its NUL.
    guard path.utf8.count < 108 else {
      throw RPCServerError(
        "\(path) is too long for a socket's address (107 bytes at most): "
          + "set FETCHER_HOME to a shorter folder")
    }
    var status = stat()
    guard lstat(path, &status) == 0 else { return }
    guard status.st_mode & S_IFMT == S_IFSOCK, unlink(path) == 0 else {
      throw RPCServerError("cannot make the daemon's socket: \(path) is in the way")
    }
  }
}
