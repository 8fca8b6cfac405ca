import Foundation
import Testing

/// `fetcher download`'s exit status by cause, with aria2c's numbers (checked beside aria2c
/// 1.36 on the same server.py URLs).
@Suite struct DownloadExitCodeTests {
  @Test func eachCauseHasAria2csStatus() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    func status(_ arguments: String...) async throws -> Int32 {
      let run = try await state.fetcher.run(
        ["download", "-d", state.url.path, "--retries", "0"] + arguments)
      return run.status
    }
    let root = server.rootURL
    #expect(try await status("\(root)/faults/status/404") == 3)
    #expect(try await status("\(root)/faults/status/401") == 24)
    #expect(try await status("\(root)/faults/status/500") == 22)
    #expect(try await status("\(root)/faults/status/403") == 22)
    #expect(try await status("\(root)/faults/status/503") == 29)
    let zeros = String(repeating: "0", count: 64)
    #expect(try await status("\(root)/files/sum.bin?size=10", "--sha256", zeros) == 32)
    #expect(try await status("http://nowhere.invalid/x.bin") == 19)
    #expect(try await status("\(root)/files/idle.bin?size=1000&stall=30", "--timeout", "1") == 2)
    #expect(try await status("\(root)/files/ok.bin?size=10") == 0)
  }

  /// With several downloads the status is the last failure's, as in aria2c: one at a time,
  /// a 404 and then a 500 exit 22.
  @Test func severalDownloadsExitWithTheLastFailure() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let run = try await state.fetcher.run(
      "download", "-d", state.url.path, "--retries", "0", "--concurrency", "1",
      "\(server.rootURL)/faults/status/404", "\(server.rootURL)/files/fine.bin?size=10",
      "\(server.rootURL)/faults/status/500")
    #expect(run.status == 22, "\(run.standardError)")
  }

  @Test func theHelpListsTheStatuses() async throws {
    let state = try StateFolder()
    let help = try await state.fetcher.run("help", "download")
    #expect(help.standardOutput.contains("32   checksum mismatch"))
    #expect(help.standardOutput.contains("130  interrupted by Ctrl-C"))
  }
}
