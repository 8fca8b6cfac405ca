import Foundation
import Testing

/// The spark-submit of the virtual environment that `Spark/setup.sh` makes (PySpark, which needs
/// Java 17), made when missing, and the environment that runs it. Its JVMs (the driver, and a
/// test cluster's master, workers and executors) compile with C1 alone and collect serially,
/// and the driver has no web UI: the tests' jobs are small, and so they take about a third
/// less CPU time, with the same answers.
private func sparkSubmit() async throws -> (path: String, environment: [String: String]) {
  let setup = try await runTool([Paths.root.appendingPathComponent("Spark/setup.sh").path])
  try #require(setup.status == 0, "Spark/setup.sh failed: \(setup.errors)")
  let path = String(decoding: setup.output, as: UTF8.self)
    .trimmingCharacters(in: .whitespacesAndNewlines)
  let bin = Paths.root.appendingPathComponent(path).deletingLastPathComponent().path
  let jvm = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
  let environment = [
    "PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
    "PYSPARK_PYTHON": bin + "/python",
    // The launcher reads a quoted word as one option.
    "SPARK_SUBMIT_OPTS":
      #"\#(jvm) -Dspark.ui.enabled=false "-Dspark.executor.extraJavaOptions=\#(jvm)""#,
    "SPARK_DAEMON_JAVA_OPTS": jvm,
  ]
  return (bin + "/spark-submit", environment)
}

/// A combined log of `lines` lines: 60 clients over 25 pages, seeded.
private func sparkLog(lines: Int, seed: UInt64) -> String {
  var state = seed
  func next(_ bound: UInt64) -> UInt64 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return (state >> 33) % bound
  }
  return (0..<lines).map { index in
    let client = "10.0.\(next(6)).\(next(10))"
    let page = "/p\(min(next(25), next(25)))"
    let time = String(format: "%02d:%02d:%02d", index / 3600 % 24, index / 60 % 60, index % 60)
    return
      #"\#(client) - - [10/Oct/2024:\#(time) +0000] "GET \#(page) HTTP/1.1" 200 9 "-" "agent""#
  }.joined(separator: "\n") + "\n"
}

/// `Spark/analyze.py` under `spark-submit --master local[2]` gives byte for byte what `fetcher
/// analyze` prints, whatever the options. Nothing is skipped: without PySpark or Java, the test
/// fails. A suite of its own, the longest, so that it runs beside the others.
@Suite struct SparkOptionTests {
  @Test func theJobPrintsWhatFetcherPrints() async throws {
    let (sparkSubmit, environment) = try await sparkSubmit()
    let state = try StateFolder()
    let big = state.url.appendingPathComponent("big.log")
    try Data(sparkLog(lines: 30_000, seed: 1).utf8).write(to: big)
    let second = state.url.appendingPathComponent("second.log")
    try Data(sparkLog(lines: 500, seed: 2).utf8).write(to: second)
    let gzip = try await runTool(["/bin/sh", "-c", "gzip -k '\(second.path)'"])
    #expect(gzip.status == 0)
    let inputs = [big.path, second.path + ".gz", second.path]

    for options in [
      [], ["--unique-clients"], ["--length", "2"], ["--json"],
      ["--panels", "all", "--top", "0", "--json"],
      ["--funnel", "/p0,/p1*,/p2", "--session-gap", "30m", "--json"],
    ] {
      let job = try await runTool(
        [
          sparkSubmit, "--master", "local[2]",
          Paths.root.appendingPathComponent("Spark/analyze.py").path,
          "--fetcher", Paths.fetcher.path, "--splits", "8",
        ] + options + inputs, environment: environment)
      #expect(job.status == 0, "\(options): \(job.errors.suffix(2000))")
      let splits = job.errors.firstMatch(of: /analyze.py: (\d+) splits/).map { Int($0.1)! }
      #expect((splits ?? 0) >= 8, "\(options): \(splits.map(String.init) ?? "no split count")")
      let fetcher = try await runTool([Paths.fetcher.path, "analyze"] + options + inputs)
      #expect(fetcher.status == 0)
      #expect(!fetcher.output.isEmpty)
      #expect(job.output == fetcher.output, "\(options)")
    }
  }
}

/// The Spark job on a standalone cluster and on WebHDFS, where its partials go, and its errors;
/// one job at a time.
@Suite(.serialized) struct SparkTests {
  /// On a standalone cluster (a master and two workers of one core each, on loopback), the
  /// executors read their byte ranges of the log themselves, and the job prints what fetcher
  /// prints.
  @Test func aStandaloneClusterPrintsWhatFetcherPrints() async throws {
    let (sparkSubmit, environment) = try await sparkSubmit()
    let bin = URL(fileURLWithPath: sparkSubmit).deletingLastPathComponent().path
    let cluster = try await SparkCluster(bin: bin, environment: environment, workers: 2)
    let state = try StateFolder()
    let file = state.url.appendingPathComponent("access.log")
    try Data(sparkLog(lines: 20_000, seed: 3).utf8).write(to: file)
    let options = ["--panels", "all", "--top", "0", "--json"]
    let job = try await runTool(
      [
        sparkSubmit, "--master", cluster.masterURL,
        Paths.root.appendingPathComponent("Spark/analyze.py").path,
        "--fetcher", Paths.fetcher.path, "--splits", "4",
      ] + options + [file.path], environment: environment)
    #expect(job.status == 0, "\(job.errors.suffix(2000))")
    #expect(job.errors.contains("access.log: 4 byte ranges, read by fetcher on the executors"))
    let fetcher = try await runTool([Paths.fetcher.path, "analyze"] + options + [file.path])
    #expect(fetcher.status == 0)
    #expect(!fetcher.output.isEmpty)
    #expect(job.output == fetcher.output)
    withExtendedLifetime(cluster) {}
  }

  /// A webhdfs:// file is cut into byte ranges that the executors' fetcher reads through
  /// WebHDFS's REST API (a stand-in name node, which ignores Range headers); the job prints
  /// what fetcher prints of the whole file. A missing one is WebHDFS's reason, in one line; one
  /// that asks for Kerberos is left to Spark.
  @Test func aWebHDFSFileIsReadByRangesThroughTheRESTAPI() async throws {
    let (sparkSubmit, environment) = try await sparkSubmit()
    let server = try TestServer(script: Paths.webHDFS)
    let options = ["--panels", "all", "--top", "0", "--json"]
    func job(_ input: String) async throws -> ToolRun {
      try await runTool(
        [
          sparkSubmit, "--master", "local[2]",
          Paths.root.appendingPathComponent("Spark/analyze.py").path,
          "--fetcher", Paths.fetcher.path, "--splits", "3",
        ] + options + [input], environment: environment)
    }
    let read = try await job("webhdfs://127.0.0.1:\(server.port)/logs/access.log")
    #expect(read.status == 0, "\(read.errors.suffix(2000))")
    #expect(
      read.errors.contains(
        "access.log: 3 byte ranges, read by fetcher on the executors through WebHDFS"))
    let fetcher = try await runTool(
      [Paths.fetcher.path, "analyze"] + options
        + ["\(server.rootURL)/webhdfs/v1/logs/access.log?op=OPEN"])
    #expect(fetcher.status == 0)
    #expect(!fetcher.output.isEmpty)
    #expect(read.output == fetcher.output)

    let missing = try await job("webhdfs://127.0.0.1:\(server.port)/none.log")
    #expect(missing.status == 1)
    #expect(missing.output.isEmpty)
    #expect(
      missing.errors.contains(
        "none.log: WebHDFS answered HTTP 404 to GETFILESTATUS: File does not exist: /none.log"))

    // Kerberos, which fetcher does not speak: left to Spark, whose reader is refused too.
    let secured = try await job("webhdfs://127.0.0.1:\(server.port)/secure/access.log")
    #expect(secured.status == 1)
    #expect(secured.output.isEmpty)
    #expect(
      secured.errors.contains(
        "access.log: WebHDFS asks for an authentication that fetcher does not give; Spark reads it"
      ))
    #expect(
      secured.errors.contains("access.log: org.apache.hadoop.security.AccessControlException"))
  }

  /// A swebhdfs:// file behind TLS from a private CA: `--cacert` is trusted by the driver's
  /// WebHDFS requests and shipped to the executors' fetcher, and the job prints what fetcher
  /// prints of the file by URL; without it, the driver says why WebHDFS cannot be reached.
  @Test func anSWebHDFSFileIsReadWithThePrivateCAGiven() async throws {
    let (sparkSubmit, environment) = try await sparkSubmit()
    let folder = try StateFolder()
    let server = try TestServer(script: Paths.webHDFS, arguments: ["--tls", folder.url.path])
    let authority = folder.url.appendingPathComponent("ca.pem").path
    let options = ["--top", "5", "--json"]
    func job(_ trust: [String]) async throws -> ToolRun {
      try await runTool(
        [
          sparkSubmit, "--master", "local[2]",
          Paths.root.appendingPathComponent("Spark/analyze.py").path,
          "--fetcher", Paths.fetcher.path, "--splits", "2",
        ] + trust + options + ["swebhdfs://127.0.0.1:\(server.port)/logs/access.log"],
        environment: environment)
    }
    let read = try await job(["--cacert", authority])
    #expect(read.status == 0, "\(read.errors.suffix(2000))")
    #expect(
      read.errors.contains(
        "access.log: 2 byte ranges, read by fetcher on the executors through WebHDFS"))
    let fetcher = try await runTool(
      [Paths.fetcher.path, "analyze", "--cacert", authority] + options
        + ["\(server.rootURL)/webhdfs/v1/logs/access.log?op=OPEN"])
    #expect(fetcher.status == 0)
    #expect(!fetcher.output.isEmpty)
    #expect(read.output == fetcher.output)

    let untrusted = try await job([])
    #expect(untrusted.status == 1)
    #expect(untrusted.output.isEmpty)
    #expect(
      untrusted.errors.contains(
        "access.log: cannot reach WebHDFS at 127.0.0.1:\(server.port): [SSL: CERTIFICATE_VERIFY_FAILED]"
      ), "\(untrusted.errors.suffix(2000))")
  }

  /// In local mode the partials are files in Spark's own scratch folder (`spark.local.dir`,
  /// made when missing), the job says where, and none is left there when it ends.
  @Test func localPartialsGoWhereSparkKeepsItsScratchFiles() async throws {
    let (sparkSubmit, environment) = try await sparkSubmit()
    let state = try StateFolder()
    let file = state.url.appendingPathComponent("access.log")
    try Data(sparkLog(lines: 5_000, seed: 4).utf8).write(to: file)
    let scratch = state.url.appendingPathComponent("scratch/spark").path
    let job = try await runTool(
      [
        sparkSubmit, "--master", "local[2]", "--conf", "spark.local.dir=\(scratch)",
        Paths.root.appendingPathComponent("Spark/analyze.py").path,
        "--fetcher", Paths.fetcher.path, "--json", file.path,
      ], environment: environment)
    #expect(job.status == 0, "\(job.errors.suffix(2000))")
    #expect(job.errors.contains("analyze.py: the partials are files in \(scratch)/fetcher-spark-"))
    let left = try FileManager.default.contentsOfDirectory(atPath: scratch)
    #expect(!left.contains { $0.hasPrefix("fetcher-spark-") }, "\(left)")
    let fetcher = try await runTool([Paths.fetcher.path, "analyze", "--json", file.path])
    #expect(fetcher.status == 0)
    #expect(job.output == fetcher.output)
  }

  @Test func aMissingInputIsOneLineAndNoResult() async throws {
    let (sparkSubmit, environment) = try await sparkSubmit()
    let job = try await runTool(
      [
        sparkSubmit, "--master", "local[2]",
        Paths.root.appendingPathComponent("Spark/analyze.py").path,
        "--fetcher", Paths.fetcher.path, "/nonexistent/access.log",
      ], environment: environment)
    #expect(job.status == 1)
    #expect(job.output.isEmpty)
    #expect(job.errors.contains("analyze.py: /nonexistent/access.log: no such file"))
  }
}
