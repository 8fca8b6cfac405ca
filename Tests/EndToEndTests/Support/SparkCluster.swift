import Foundation
import TestPorts

/// A Spark standalone cluster on 127.0.0.1 for one test: a master and `workers` workers of
/// one core each, started with PySpark's own `spark-class` (the pip package has no `sbin`
/// start scripts). Each is running once its log says so; all are stopped when released.
final class SparkCluster {
  /// What `spark-submit --master` takes.
  let masterURL: String
  private let folder: URL
  private var processes: [Process] = []

  /// Starts the cluster with the `spark-class` in `bin` and `environment` (PySpark's Python
  /// among it); returns once every worker has registered with the master.
  init(bin: String, environment: [String: String], workers: Int) async throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("fetcher-spark-\(UUID().uuidString)")
    let work = folder.appendingPathComponent("work")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    let port = try freePort()
    masterURL = "spark://127.0.0.1:\(port)"
    var environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    environment["SPARK_LOCAL_IP"] = "127.0.0.1"
    environment["SPARK_LOG_DIR"] = folder.path
    environment["SPARK_WORKER_DIR"] = work.path
    try await start(
      bin,
      [
        "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", "\(port)",
        "--webui-port", "\(try freePort())",
      ], until: "I have been elected leader", environment: environment)
    for _ in 0..<workers {
      try await start(
        bin,
        [
          "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1", "--cores", "1",
          "--memory", "1g", "--webui-port", "\(try freePort())", "--work-dir", work.path,
          masterURL,
        ], until: "Successfully registered with master", environment: environment)
    }
  }

  deinit {
    for process in processes.reversed() where process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(at: folder)
  }

  /// Starts `spark-class arguments…` and waits until its log holds `marker`; what it logs
  /// after that is read on and dropped, so that it never blocks on a full pipe.
  private func start(
    _ bin: String, _ arguments: [String], until marker: String, environment: [String: String]
  ) async throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: bin).appendingPathComponent("spark-class")
    process.arguments = arguments
    process.environment = environment
    let log = Pipe()
    process.standardOutput = log
    process.standardError = log
    process.standardInput = FileHandle.nullDevice
    try process.run()
    processes.append(process)
    let (seen, text) = await onOwnThread { () -> (Bool, String) in
      var read = Data()
      while !String(decoding: read, as: UTF8.self).contains(marker) {
        let chunk = log.fileHandleForReading.availableData
        if chunk.isEmpty && !process.isRunning {
          return (false, String(decoding: read, as: UTF8.self))
        }
        read.append(chunk)
      }
      Thread {
        while !log.fileHandleForReading.availableData.isEmpty || process.isRunning {}
      }.start()
      return (true, "")
    }
    guard seen else {
      throw SparkClusterFailure(description: "\(arguments[0]) did not start: \(text.suffix(2000))")
    }
  }
}

struct SparkClusterFailure: Error, CustomStringConvertible {
  let description: String
}
