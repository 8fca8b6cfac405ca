import Foundation
import TestPorts
import Testing

/// Leaves the alternate screen and shows the cursor again: the terminal is restored.
private let restoreSequence = "\u{1B}[?25h\u{1B}[?1049l"

@Suite(.serialized, .timeLimit(.minutes(10))) struct InteractiveScreenTests {
  @Test func enterFetchesAndQQuits() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let session = try TerminalSession(home: state.url, arguments: ["--root-url", server.rootURL])

    await session.waitFor("[ Fetch Content ]")
    #expect(session.transcript.contains("Times Fetched: 0"))
    session.type("\r")
    await session.waitFor("Times Fetched: 1")
    session.type(" ")
    await session.waitFor("Times Fetched: 2")
    session.type("q")

    #expect(await session.exitStatus() == 0)
    #expect(session.transcript.hasSuffix(restoreSequence))
    let status = try await state.fetcher.run("status", "--json")
    #expect(status.standardOutput.contains(#""timesFetched":2"#))
  }

  /// A server that answers with an error: the message and its cause.
  @Test func aFailureShowsTheMessageAndItsCause() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let session = try TerminalSession(
      home: state.url, arguments: ["--root-url", server.rootURL + "/faults/status/500"])

    await session.waitFor("[ Fetch Content ]")
    session.type("\r")
    await session.waitFor("Sorry, something went wrong. Please try again.")
    await session.waitFor("answered HTTP 500")
    session.type("q")
    #expect(await session.exitStatus() == 0)
  }

  /// At 40 columns the message and its cause break between words, never inside one.
  @Test func aLongErrorWrapsBetweenWords() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let session = try TerminalSession(
      home: state.url, arguments: ["--root-url", server.rootURL + "/faults/status/500"],
      size: (columns: 40, lines: 24))
    await session.waitFor("[ Fetch Content ]")
    session.type("\r")
    await session.waitFor("answered HTTP 500")
    session.type("q")
    #expect(await session.exitStatus() == 0)
    let lines = session.screenLines
    #expect(lines.contains("  Sorry, something went wrong. Please"), "\(lines)")
    #expect(lines.contains("  try again."), "\(lines)")
    // A word longer than the width (the URL in the cause) has a line of its own, whole.
    let over = lines.filter { $0.count > 40 }
    #expect(over.allSatisfy { !$0.dropFirst(2).contains(" ") }, "\(over)")
    #expect(lines.contains("  answered HTTP 500: Fault injected:"), "\(lines)")
  }

  @Test func aFetchWhileTheServerIsDownRunsWhenItIsBack() async throws {
    let port = try freePort()
    let state = try StateFolder()
    let session = try TerminalSession(
      home: state.url, arguments: ["--root-url", "http://127.0.0.1:\(port)"])

    await session.waitFor("[ Fetch Content ]")
    await session.waitFor("Offline: the server cannot be reached.")
    session.type("\r")
    await session.waitFor("Fetching again when it is back.")
    await session.waitFor("[ Waiting for the server… ]")
    // Not "Please try again" above the notice that it fetches again by itself.
    #expect(!session.screenLines.joined().contains("Please try again"), "\(session.screenLines)")
    let server = try TestServer(port: port)
    await session.waitFor("Times Fetched: 1")
    session.type("q")
    #expect(await session.exitStatus() == 0)
    server.stop()
  }

  @Test func ctrlCRestoresTheTerminalAndExits130() async throws {
    let state = try StateFolder()
    let session = try TerminalSession(home: state.url, arguments: [])

    await session.waitFor("[ Fetch Content ]")
    session.type("\u{03}")
    #expect(await session.exitStatus() == 130)
    #expect(session.transcript.hasSuffix(restoreSequence))
  }
}
