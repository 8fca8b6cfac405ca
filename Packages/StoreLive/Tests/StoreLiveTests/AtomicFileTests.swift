import Foundation
import Testing

@testable import StoreLive

@Suite struct AtomicFileTests {
  private func folder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("AtomicFileTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// Pieces handed one after another make the file, in place of the one before, with the
  /// permissions asked for and nothing left beside it.
  @Test func piecesReplaceTheFileInOrder() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("out.bin")
    try Data("before".utf8).write(to: file)
    let pieces = [Data("one ".utf8), Data(), Data(repeating: 7, count: 300_000), Data("end".utf8)]
    try AtomicFile.replace(file, permissions: 0o640) { write in
      for piece in pieces { piece.withUnsafeBytes(write) }
    }
    #expect(try Data(contentsOf: file) == pieces.reduce(Data(), +))
    let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
    #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o640 } == 0o640)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.bin"])
  }

  /// A file that cannot be made is `StoreFileError.unwritable`, naming it and the reason.
  @Test func aFolderThatIsNotThereIsUnwritable() throws {
    let file = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/out.bin")
    #expect {
      try AtomicFile.replace(file) { write in Data("x".utf8).withUnsafeBytes(write) }
    } throws: { error in
      guard case StoreFileError.unwritable(let path, let reason) = error else { return false }
      return path == file.path && reason.contains("No such file or directory")
    }
  }
}
