import Foundation
import TestPorts
import Testing

/// `fetcher download` with mirrors, a Metalink, and curl's and aria2c's flags, against nginx.
@Suite(.serialized, .timeLimit(.minutes(10))) struct MirrorsAndFlagsTests {
  private func bytes(_ count: Int, seed: UInt8) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9) ^ seed })
  }

  @Test func threeMirrorsOneDeadOneWithAnotherFile() async throws {
    let body = bytes(6_000_000, seed: 3)
    let good = try NginxServer(files: ["f.iso": body])
    let other = try NginxServer(files: ["f.iso": bytes(5_000_000, seed: 4)])
    let dead = "http://127.0.0.1:\(try freePort())/f.iso"
    let state = try StateFolder()
    let run = try await state.fetcher.run(
      "download", dead, "--mirror", "\(good.rootURL)/f.iso", "--mirror", "\(other.rootURL)/f.iso",
      "-s", "4", "-d", state.url.path)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(try Data(contentsOf: state.url.appendingPathComponent("f.iso")) == body)
    #expect(run.standardError.contains("\(dead): Failed to connect"))
    #expect(run.standardError.contains("\(other.rootURL)/f.iso serves 5000000 bytes, not 6000000"))
  }

  @Test func aMetalinksDamagedPieceIsFetchedAgainFromAnotherMirror() async throws {
    let body = bytes(3_000_000, seed: 5)
    var damaged = body
    damaged[1_500_000] ^= 0xff
    let bad = try NginxServer(files: ["f.bin": damaged])
    let good = try NginxServer(files: ["f.bin": body])
    let state = try StateFolder()
    let pieceLength = 1 << 20
    var pieces = ""
    for start in stride(from: 0, to: body.count, by: pieceLength) {
      let piece = state.url.appendingPathComponent("piece")
      try body[start..<min(body.count, start + pieceLength)].write(to: piece)
      pieces += "<hash>\(try await digest("sha1sum", of: piece))</hash>"
    }
    let whole = state.url.appendingPathComponent("whole")
    try body.write(to: whole)
    let metalink = """
      <?xml version="1.0" encoding="UTF-8"?>
      <metalink xmlns="urn:ietf:params:xml:ns:metalink">
        <file name="f.bin">
          <size>\(body.count)</size>
          <hash type="sha-256">\(try await digest("sha256sum", of: whole))</hash>
          <pieces length="\(pieceLength)" type="sha-1">\(pieces)</pieces>
          <url priority="1">\(bad.rootURL)/f.bin</url>
          <url priority="2">\(good.rootURL)/f.bin</url>
        </file>
      </metalink>
      """
    let file = state.url.appendingPathComponent("f.meta4")
    try metalink.write(to: file, atomically: true, encoding: .utf8)
    let out = state.url.appendingPathComponent("out")
    let run = try await state.fetcher.run("download", "-M", file.path, "-d", out.path)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(try Data(contentsOf: out.appendingPathComponent("f.bin")) == body)
    #expect(run.standardError.contains("1 of 3 pieces are damaged (SHA-1)"))
    #expect(
      run.standardError.contains("\(bad.rootURL)/f.bin serves the bytes 1048576-2097151 damaged"))
  }

  /// The issue's case: a Metalink of `<size>` 1 MiB and four SHA-256 piece hashes, no file
  /// hash, whose one mirror serves 1.25 MiB of other content.
  @Test func aMetalinksFileOfAnotherSizeIsRefused() async throws {
    let nginx = try NginxServer(files: ["f.bin": bytes(1_310_720, seed: 9)])
    let state = try StateFolder()
    let hash = String(repeating: "ab", count: 32)
    let metalink = """
      <?xml version="1.0" encoding="UTF-8"?>
      <metalink xmlns="urn:ietf:params:xml:ns:metalink">
        <file name="f.bin">
          <size>1048576</size>
          <pieces length="262144" type="sha-256">\(String(repeating: "<hash>\(hash)</hash>", count: 4))</pieces>
          <url>\(nginx.rootURL)/f.bin</url>
        </file>
      </metalink>
      """
    let file = state.url.appendingPathComponent("f.meta4")
    try metalink.write(to: file, atomically: true, encoding: .utf8)
    let out = state.url.appendingPathComponent("out")
    let run = try await state.fetcher.run("download", "-M", file.path, "-d", out.path)
    #expect(run.status == 1)
    #expect(
      run.standardError.contains("serves 1310720 bytes, not the 1048576 expected"),
      "\(run.standardError)")
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("f.bin").path))
  }

  @Test func compressedAnswersAreWrittenDecoded() async throws {
    let text = Data(String(repeating: "the same line again\n", count: 20_000).utf8)
    let nginx = try NginxServer(
      files: ["a.txt": text],
      directives: "gzip on; gzip_types text/plain; gzip_min_length 1; types { text/plain txt; }")
    let state = try StateFolder()
    let run = try await state.fetcher.run(
      "download", "--compressed", "\(nginx.rootURL)/a.txt", "-d", state.url.path, "-v")
    #expect(run.status == 0, "\(run.standardError)")
    #expect(try Data(contentsOf: state.url.appendingPathComponent("a.txt")) == text)
  }

  @Test func cookiesSetAreKeptInTheJarAndSentBack() async throws {
    let nginx = try NginxServer(
      files: [:],
      directives: """
        location = /login { add_header Set-Cookie "session=s1; Path=/"; return 200 "in"; }
        location = /whoami { return 200 "cookie=$http_cookie"; }
        """)
    let state = try StateFolder()
    let jar = state.url.appendingPathComponent("jar.txt").path
    let login = try await state.fetcher.run(
      "download", "-b", jar, "-c", jar, "\(nginx.rootURL)/login", "-d", state.url.path)
    #expect(login.status == 0, "\(login.standardError)")
    #expect(try String(contentsOfFile: jar, encoding: .utf8).contains("\tsession\ts1"))
    let who = try await state.fetcher.run(
      "download", "-b", jar, "\(nginx.rootURL)/whoami", "-d", state.url.path)
    #expect(who.status == 0, "\(who.standardError)")
    let answer = try String(
      contentsOf: state.url.appendingPathComponent("whoami"), encoding: .utf8)
    #expect(answer == "cookie=session=s1")
    // The queue never holds them.
    let queue = try FileManager.default.subpathsOfDirectory(atPath: state.url.path)
      .filter { !$0.hasPrefix("jar") && !["login", "whoami"].contains($0) }
      .compactMap { try? String(contentsOf: state.url.appendingPathComponent($0), encoding: .utf8) }
    #expect(!queue.contains { $0.contains("s1") })
  }

  @Test func theJarIsWrittenAsAFileOfItsOwnThatOnlyItsOwnerReads() async throws {
    let nginx = try NginxServer(
      files: [:], directives: #"location = /login { add_header Set-Cookie "s=1"; return 200; }"#)
    let state = try StateFolder()
    let jar = state.url.appendingPathComponent("jar.txt").path
    let run = try await state.fetcher.run(
      "download", "-c", jar, "\(nginx.rootURL)/login", "-d", state.url.path)
    #expect(run.status == 0, "\(run.standardError)")
    let attributes = try FileManager.default.attributesOfItem(atPath: jar)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    #expect(try String(contentsOfFile: jar, encoding: .utf8).contains("\ts\t1"))
  }

  /// A jar name that is a link (also one another user made in a folder anyone may write), a
  /// FIFO or a folder is refused before any request; what it points to is untouched.
  @Test func aJarThatIsNotARegularFileIsRefused() async throws {
    let state = try StateFolder()
    let shared = state.url.appendingPathComponent("shared")
    try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
    chmod(shared.path, 0o1777)
    let victim = state.url.appendingPathComponent("victim.txt")
    try Data("precious".utf8).write(to: victim)
    let link = state.url.appendingPathComponent("link.txt").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim.path)
    let planted = shared.appendingPathComponent("jar.txt").path
    try FileManager.default.createSymbolicLink(atPath: planted, withDestinationPath: victim.path)
    lchown(planted, 65534, 65534)
    let fifo = state.url.appendingPathComponent("fifo").path
    mkfifo(fifo, 0o600)
    for (jar, kind) in [
      (link, "a symbolic link"), (planted, "a symbolic link"), (fifo, "not a regular file"),
      (shared.path, "not a regular file"),
    ] {
      let run = try await state.fetcher.run("download", "-c", jar, "http://127.0.0.1:9/x")
      #expect(run.status != 0)
      #expect(run.standardError.contains("--cookie-jar: \(jar) is \(kind)"), "\(run.standardError)")
    }
    #expect(try String(contentsOf: victim, encoding: .utf8) == "precious")
  }

  /// The lines curl's and aria2c's users type, beside those tools on the same server: the same
  /// exit status and the same file where fetcher does what the flag asks anyway; where a
  /// letter means one thing to curl and another to aria2c (`-c`), or asks for what fetcher
  /// never does (`-C 100`), an error that says so.
  @Test func theFlagsOfCurlAndAria2cRunAsBesideThem() async throws {
    let body = bytes(3_000_000, seed: 7)
    let nginx = try NginxServer(files: ["f.bin": body])
    let url = "\(nginx.rootURL)/f.bin"
    let state = try StateFolder()
    let aria2c = FileManager.default.isExecutableFile(atPath: "/usr/bin/aria2c")
    let cases: [(tool: [String], fetcher: [String], runsBeside: Bool)] = [
      (["/usr/bin/curl", "-sS", "-O", "-L", "-C", "-"], ["-O", "-L", "-C", "-"], true),
      (["/usr/bin/aria2c", "-q", "-x", "4", "-s", "4"], ["-x", "4", "-s", "4"], aria2c),
      (["/usr/bin/aria2c", "-q", "-x", "2"], ["-x", "2"], aria2c),
      (
        ["/usr/bin/aria2c", "-q", "--max-download-limit=2M"], ["--max-download-limit", "2M"], aria2c
      ),
      (["/usr/bin/aria2c", "-q", "--continue"], ["--continue"], aria2c),
    ]
    for (number, (tool, flags, runsBeside)) in cases.enumerated() {
      let theirs = state.url.appendingPathComponent("theirs-\(number)")
      let ours = state.url.appendingPathComponent("ours-\(number)")
      try FileManager.default.createDirectory(at: theirs, withIntermediateDirectories: true)
      if runsBeside {
        let folder =
          tool[0].hasSuffix("curl") ? ["--output-dir", theirs.path] : ["-d", theirs.path]
        let run = try await runTool(tool + folder + [url])
        #expect(run.status == 0, "\(tool): \(run.errors)")
        #expect(try Data(contentsOf: theirs.appendingPathComponent("f.bin")) == body)
      }
      let run = try await state.fetcher.run(["download"] + flags + ["-d", ours.path, url])
      #expect(run.status == 0, "\(flags): \(run.standardError)")
      #expect(try Data(contentsOf: ours.appendingPathComponent("f.bin")) == body)
    }
    // aria2c's `-c URL` (continue): here -c is curl's cookie jar, and the error says so.
    let continued = try await state.fetcher.run("download", "-c", url, "-d", state.url.path)
    #expect(continued.status == 64)
    #expect(
      continued.standardError.contains(
        "-c is curl's --cookie-jar FILE here, and took \(url) for the file; aria2c's -c "
          + "(continue) is what fetcher does by itself"))
    // curl's `-C 100` starts at an offset given: not something fetcher does.
    let offset = try await state.fetcher.run("download", "-C", "100", url, "-d", state.url.path)
    #expect(offset.status == 64)
    #expect(offset.standardError.contains("-C/--continue-at takes only -"))
    // `-C - -o name URL` is one URL and one name.
    let named = try await state.fetcher.run(
      "download", "-C", "-", "-o", "t.bin", url, "-d", state.url.path)
    #expect(named.status == 0, "\(named.standardError)")
    #expect(try Data(contentsOf: state.url.appendingPathComponent("t.bin")) == body)
  }

  @Test func aNetrcEntryLogsIn() async throws {
    let state = try StateFolder()
    let users = state.url.appendingPathComponent("users")
    try "alice:{PLAIN}s3cret\n".write(to: users, atomically: true, encoding: .utf8)
    let nginx = try NginxServer(
      files: ["secret.txt": Data("hidden".utf8)],
      directives: "auth_basic \"x\"; auth_basic_user_file \(users.path);")
    let netrc = state.url.appendingPathComponent("netrc")
    try "machine 127.0.0.1 login alice password s3cret\n".write(
      to: netrc, atomically: true, encoding: .utf8)
    let url = "\(nginx.rootURL)/secret.txt"
    let refused = try await state.fetcher.run("download", url, "-d", state.url.path)
    #expect(refused.status == 24)
    #expect(refused.standardError.contains("HTTP 401"))
    let run = try await state.fetcher.run(
      "download", "--netrc-file", netrc.path, url, "-d", state.url.path)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      try String(contentsOf: state.url.appendingPathComponent("secret.txt"), encoding: .utf8)
        == "hidden")
  }

  @Test func hooksRunWithAria2csArgumentsAndATakenNameIsNumbered() async throws {
    let nginx = try NginxServer(files: ["a.txt": Data("new".utf8)])
    let state = try StateFolder()
    try Data("old".utf8).write(to: state.url.appendingPathComponent("a.txt"))
    let calls = state.url.appendingPathComponent("calls")
    let hook = state.url.appendingPathComponent("hook.sh")
    try "#!/bin/sh\necho \"$# $2 $3\" >> '\(calls.path)'\necho noise\n".write(
      to: hook, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hook.path)
    let run = try await state.fetcher.run(
      "download", "--auto-file-renaming", "--on-download-complete", hook.path,
      "--on-download-error", hook.path, "\(nginx.rootURL)/a.txt", "\(nginx.rootURL)/gone.txt",
      "-d", state.url.path, "-q")
    #expect(run.status == 3)
    #expect(run.standardOutput.isEmpty)
    #expect(
      try String(contentsOf: state.url.appendingPathComponent("a.1.txt"), encoding: .utf8) == "new")
    let lines = try String(contentsOf: calls, encoding: .utf8).split(separator: "\n").sorted()
    #expect(
      lines == [
        "3 1 \(state.url.appendingPathComponent("a.1.txt").path)",
        "3 1 \(state.url.appendingPathComponent("gone.txt").path)",
      ])
  }
}

/// The hex digest of `file` by a coreutils tool (`sha1sum`, `sha256sum`).
private func digest(_ tool: String, of file: URL) async throws -> String {
  String(try await runTool(["/usr/bin/\(tool)", file.path]).outputText.prefix { $0 != " " })
}
