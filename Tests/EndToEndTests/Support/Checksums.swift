import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension TestServer {
  /// The SHA-256 that server.py computes of `/files/<name>?size=<size>` at `version`, in hex.
  func sha256(_ name: String, size: Int, version: Int = 1) async throws -> String {
    let url = URL(string: "\(rootURL)/sha256/\(name)?size=\(size)&version=\(version)")!
    let (data, _) = try await URLSession(configuration: .ephemeral).data(from: url)
    return String(decoding: data, as: UTF8.self)
  }
}

/// The SHA-256 of a file on disk, in hex, by coreutils' sha256sum.
func sha256(of file: URL) async throws -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
  process.arguments = [file.path]
  let output = Pipe()
  process.standardOutput = output
  try process.run()
  let data = await onOwnThread { output.fileHandleForReading.readDataToEndOfFile() }
  return String(String(decoding: data, as: UTF8.self).prefix(64))
}
