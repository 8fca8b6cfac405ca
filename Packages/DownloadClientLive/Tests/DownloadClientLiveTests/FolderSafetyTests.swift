import DownloadClient
import DownloadClientLive
import Foundation
import HTTPClient
import Reachability
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Nothing put in the download folder (a link, a FIFO) makes a download write outside it.
@Suite(.timeLimit(.minutes(10))) struct FolderSafetyTests {
  private let url = URL(string: "http://server.test/f.txt")!
  private let body = content(500)
  private let secret = Data("the victim's own bytes".utf8)

  private func run(
    _ replies: [HTTPScript.Reply], in folder: URL, segments: Int = 1, overwrite: Bool = false
  ) async throws -> DownloadEvent {
    var configuration = DownloadConfiguration(outputDirectory: folder)
    configuration.segments = segments
    configuration.overwrite = overwrite
    let client = DownloadClient.live(
      configuration: configuration, store: .inMemory(), http: HTTPScript(replies).client,
      clock: ContinuousClock(), reachability: .reachable, random: { 0.5 })
    return try await download(DownloadRequest(url: url), with: client)
  }

  /// A client of the folder whose one answer is `body`.
  private func client(in folder: URL) -> DownloadClient {
    DownloadClient.live(
      configuration: DownloadConfiguration(outputDirectory: folder), store: .inMemory(),
      http: HTTPScript([.init(body: body)]).client, clock: ContinuousClock(),
      reachability: .reachable, random: { 0.5 })
  }

  /// A folder `d` inside a temporary folder, with `victim.txt` beside it.
  private func layout() throws -> (root: TemporaryFolder, folder: URL, victim: URL) {
    let root = try TemporaryFolder()
    let folder = root.file("d")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let victim = root.file("victim.txt")
    try secret.write(to: victim)
    return (root, folder, victim)
  }

  private func expectFailed(_ end: DownloadEvent, saying words: String) {
    guard case .failed(_, let error) = end else {
      Issue.record("expected a failure, got \(end)")
      return
    }
    #expect("\(error)".contains(words), "\(error)")
  }

  @Test func aPartFileThatIsASymbolicLinkIsNotWrittenThrough() async throws {
    let (root, folder, victim) = try layout()
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("f.txt.part").path, withDestinationPath: "../victim.txt"
    )
    let end = try await run([.init(headers: ["ETag": "\"v1\""], body: body)], in: folder)
    expectFailed(end, saying: "symbolic link")
    #expect(try Data(contentsOf: victim) == secret)
    _ = root
  }

  @Test func aDanglingSymbolicLinkCreatesNothingWhereItPoints() async throws {
    let (root, folder, _) = try layout()
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("f.txt.part").path, withDestinationPath: "../made.txt")
    let end = try await run([.init(body: body)], in: folder)
    expectFailed(end, saying: "symbolic link")
    #expect(!FileManager.default.fileExists(atPath: root.file("made.txt").path))
  }

  @Test func aServerChosenNameWhosePartIsALinkIsNotWrittenThrough() async throws {
    let (root, folder, victim) = try layout()
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("chosen.txt.part").path,
      withDestinationPath: "../victim.txt")
    let end = try await run(
      [.init(headers: ["Content-Disposition": "attachment; filename=\"chosen.txt\""], body: body)],
      in: folder)
    expectFailed(end, saying: "symbolic link")
    #expect(try Data(contentsOf: victim) == secret)
    _ = root
  }

  @Test func aPartFileWithASecondHardLinkIsNotWritten() async throws {
    let (root, folder, victim) = try layout()
    try FileManager.default.linkItem(at: victim, to: folder.appendingPathComponent("f.txt.part"))
    let end = try await run([.init(headers: ["ETag": "\"v1\""], body: body)], in: folder)
    expectFailed(end, saying: "is not this download's part file")
    #expect(try Data(contentsOf: victim) == secret)
    _ = root
  }

  @Test func aFIFOInPlaceOfThePartFileFailsWithoutWaiting() async throws {
    let (root, folder, _) = try layout()
    #expect(mkfifo(folder.appendingPathComponent("f.txt.part").path, 0o600) == 0)
    let end = try await run([.init(body: body)], in: folder)
    expectFailed(end, saying: "f.txt.part")
    _ = root
  }

  @Test func segmentsDoNotWriteThroughALinkEither() async throws {
    let (root, folder, victim) = try layout()
    let big = content(4 << 20)
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("f.txt.part").path,
      withDestinationPath: "../victim.txt")
    let range: HTTPHeaders = ["ETag": "\"v1\"", "Content-Range": "bytes 0-0/\(big.count)"]
    let end = try await run(
      [.init(status: 206, headers: range, body: big.prefix(1))]
        + Array(repeating: .init(headers: ["ETag": "\"v1\""], body: big), count: 4),
      in: folder, segments: 4)
    expectFailed(end, saying: "symbolic link")
    #expect(try Data(contentsOf: victim) == secret)
    _ = root
  }

  /// A `NAME.part` the download did not make (the user's notes, another queue's download) is
  /// never taken over, whatever the server says.
  @Test(arguments: [1, 4])
  func aPartFileOfAnotherIsLeftAsItIs(segments: Int) async throws {
    let (root, folder, _) = try layout()
    let notes = folder.appendingPathComponent("f.txt.part")
    try secret.write(to: notes)
    let big = content(4 << 20)
    let range: HTTPHeaders = ["ETag": "\"v1\"", "Content-Range": "bytes 0-0/\(big.count)"]
    let end = try await run(
      [.init(status: 206, headers: range, body: big.prefix(1))]
        + Array(repeating: .init(headers: ["ETag": "\"v1\""], body: big), count: 4),
      in: folder, segments: segments)
    expectFailed(end, saying: "f.txt.part exists and is not this download's part file")
    #expect(try Data(contentsOf: notes) == secret)
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("f.txt").path))
    _ = root
  }

  @Test(arguments: ["y.part", "a.tar.part"])
  func aNameThatEndsInPartIsRefused(name: String) async throws {
    let (root, folder, _) = try layout()
    let client = client(in: folder)
    await #expect {
      _ = try await client.start(
        DownloadRequest(url: url, destination: folder.appendingPathComponent(name)))
    } throws: { error in
      "\(error)".contains("a name that ends in .part is kept for the part files")
    }
    _ = root
  }

  @Test func aServerChosenNameThatEndsInPartIsNotTaken() async throws {
    let (root, folder, _) = try layout()
    let end = try await run(
      [.init(headers: ["Content-Disposition": "attachment; filename=\"y.part\""], body: body)],
      in: folder)
    #expect(
      end == .finished(end.downloadID, file: folder.appendingPathComponent("f.txt"), bytes: 500))
    _ = root
  }

  /// `out=sub/x` (or a Metalink's name) where `sub` in the folder is a link elsewhere: the
  /// download is refused, and nothing is written where the link leads.
  @Test(arguments: ["sub/x.txt", "sub/deeper/x.txt"])
  func aLinkedFolderInsideTheFolderIsNotFollowed(name: String) async throws {
    let (root, folder, _) = try layout()
    let outside = root.file("outside")
    try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("sub").path, withDestinationPath: outside.path)
    let client = client(in: folder)
    await #expect {
      _ = try await client.start(
        DownloadRequest(url: url, destination: folder.appendingPathComponent(name)))
    } throws: { error in
      "\(error)".contains("d/sub is a symbolic link: a download stays inside")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
  }

  @Test func overwritingNeverDeletesAFolderOfTheFileName() async throws {
    let (root, folder, _) = try layout()
    let inside = folder.appendingPathComponent("f.txt").appendingPathComponent("keep.txt")
    try FileManager.default.createDirectory(
      at: inside.deletingLastPathComponent(), withIntermediateDirectories: true)
    try secret.write(to: inside)
    let end = try await run([.init(body: body)], in: folder, overwrite: true)
    expectFailed(end, saying: "f.txt")
    #expect(try Data(contentsOf: inside) == secret)
    _ = root
  }
}
