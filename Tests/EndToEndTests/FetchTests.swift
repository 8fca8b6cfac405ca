import Foundation
import TestPorts
import Testing

/// One `--json` line of `fetcher fetch` or `fetcher status`.
private struct Values: Decodable, Equatable {
  let responseCode: String?
  let timesFetched: Int
}

private func values(_ line: String) throws -> Values {
  try JSONDecoder().decode(Values.self, from: Data(line.utf8))
}

@Suite(.serialized) struct FetchTests {
  @Test func twoFetchesCountTwoWithDifferentCodes() async throws {
    let server = try TestServer()
    let state = try StateFolder()

    let first = try await state.fetcher.run("fetch", "--root-url", server.rootURL, "--json")
    let second = try await state.fetcher.run("fetch", "--root-url", server.rootURL, "--json")
    #expect(first.status == 0, "\(first.standardError)")
    #expect(second.status == 0, "\(second.standardError)")

    let one = try values(first.standardOutput)
    let two = try values(second.standardOutput)
    #expect(one.timesFetched == 1)
    #expect(two.timesFetched == 2)
    #expect(one.responseCode != two.responseCode)
    #expect(UUID(uuidString: try #require(two.responseCode)) != nil)

    let status = try await state.fetcher.run("status", "--json")
    #expect(try values(status.standardOutput) == two)
  }

  @Test func plainOutputShowsTheTwoLabels() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let run = try await state.fetcher.run("fetch", "--root-url", server.rootURL, "--times", "3")
    #expect(run.status == 0)
    #expect(run.outputLines.count == 6)
    #expect(run.outputLines[4].hasPrefix("Response Code: "))
    #expect(run.outputLines[5] == "Times Fetched: 3")
    #expect(run.standardError.isEmpty)
  }

  @Test func aStoppedServerFailsAndChangesNothing() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let before = try await state.fetcher.run("fetch", "--root-url", server.rootURL, "--json")
    #expect(before.status == 0)
    server.stop()

    let failed = try await state.fetcher.run("fetch", "--root-url", server.rootURL, "--json")
    #expect(failed.status == 1)
    #expect(failed.standardOutput.isEmpty)
    #expect(failed.standardError.hasPrefix("fetcher: cannot reach \(server.rootURL)"))
    #expect(failed.standardError.split(separator: "\n").count == 1)

    let status = try await state.fetcher.run("status", "--json")
    #expect(try values(status.standardOutput) == values(before.standardOutput))
  }

  @Test(arguments: [
    ("/faults/status/503", "answered HTTP 503: Fault injected: status 503"),
    ("/faults/status/404", "answered HTTP 404"),
    ("/faults/malformed-json", "unexpected reply from"),
    ("/nowhere", "answered HTTP 404: Unexpected path"),
  ])
  func serverErrorsFailAndChangeNothing(path: String, reason: String) async throws {
    let server = try TestServer()
    let state = try StateFolder()
    #expect(try await state.fetcher.run("fetch", "--root-url", server.rootURL).status == 0)

    let failed = try await state.fetcher.run("fetch", "--root-url", server.rootURL + path)
    #expect(failed.status == 1)
    #expect(failed.standardError.contains(reason), "\(failed.standardError)")
    #expect(failed.standardError.split(separator: "\n").count == 1)
    #expect(
      try values(await state.fetcher.run("status", "--json").standardOutput).timesFetched == 1)
  }

  @Test func sixteenConcurrentFetchesCountExactlySixteen() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    // The server hands out one valid path at a time, so concurrent clients interrupt each
    // other's exchanges; a generous retry budget keeps every process succeeding, and the test
    // is then about the counter: no increment may be lost between processes.
    let running = try (0..<16).map { _ in
      try state.fetcher.start(["fetch", "--root-url", server.rootURL, "--retries", "100", "--json"])
    }
    var runs: [FetcherRun] = []
    for process in running { runs.append(await process.wait()) }
    for run in runs { #expect(run.status == 0, "\(run.standardError)") }

    let results = try runs.map { try values($0.standardOutput) }
    #expect(Set(results.map(\.timesFetched)) == Set(1...16))
    #expect(Set(results.compactMap(\.responseCode)).count == 16)
    let status = try values(await state.fetcher.run("status", "--json").standardOutput)
    #expect(status.timesFetched == 16)
  }

  @Test func aCorruptStateFileIsAClearErrorAndIsNotOverwritten() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let counters = state.url.appendingPathComponent("counters.json")
    let garbage = Data("{\"timesFetched\": 12".utf8)
    try garbage.write(to: counters)

    for arguments in [["fetch", "--root-url", server.rootURL], ["status"], ["reset"]] {
      let run = try await state.fetcher.start(arguments).wait()
      #expect(run.status == 1)
      #expect(run.standardError.contains("\(counters.path) is corrupt"), "\(run.standardError)")
      #expect(try Data(contentsOf: counters) == garbage)
    }
  }

  @Test func waitStartedBeforeTheServerSucceedsOnceItStarts() async throws {
    let port = try freePort()
    let state = try StateFolder()
    let rootURL = "http://127.0.0.1:\(port)"
    let running = try state.fetcher.start([
      "fetch", "--root-url", rootURL, "--wait", "--timeout", "60", "--json",
    ])
    _ = await running.readError(until: "waiting for \(rootURL)")
    let server = try TestServer(port: port)
    let run = await running.wait()
    #expect(run.status == 0, "\(run.standardError)")
    #expect(try values(run.standardOutput).timesFetched == 1)
    server.stop()
  }

  @Test func waitGivesUpAfterTheTimeout() async throws {
    let port = try freePort()
    let run = try await StateFolder().fetcher.run(
      "fetch", "--root-url", "http://127.0.0.1:\(port)", "--wait", "--timeout", "1")
    #expect(run.status == 1)
    #expect(run.standardError.hasSuffix("did not answer within 1 s\n"))
  }

  @Test func statusWorksWithoutAServer() async throws {
    let state = try StateFolder()
    let run = try await state.fetcher.run("status")
    #expect(run.status == 0)
    #expect(run.outputLines == ["Response Code: none", "Times Fetched: 0"])
  }

  @Test func resetClearsTheStoredValues() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    _ = try await state.fetcher.run("fetch", "--root-url", server.rootURL, "--times", "2")
    #expect(try await state.fetcher.run("reset").status == 0)
    let status = try values(await state.fetcher.run("status", "--json").standardOutput)
    #expect(status == Values(responseCode: nil, timesFetched: 0))
  }

  @Test func badArgumentsAreUsageErrors() async throws {
    let state = try StateFolder()
    for arguments in [
      ["fetch", "--times", "0"], ["fetch", "--retries", "-1"], ["frobnicate"], [],
    ] {
      let run = try await state.fetcher.start(arguments).wait()
      #expect(run.status == 64, "\(arguments)")
      #expect(run.standardError.hasPrefix("Error: "), "\(arguments)")
    }
  }

  @Test func anInvalidRootURLIsNamed() async throws {
    let state = try StateFolder()
    let run = try await state.fetcher.run("fetch", "--root-url", "localhost:8000")
    #expect(run.status == 1)
    #expect(
      run.standardError
        == "fetcher: invalid root URL \"localhost:8000\": expected an absolute http or https URL\n")
  }
}
