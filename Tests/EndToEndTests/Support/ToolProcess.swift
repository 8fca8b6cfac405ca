import Foundation

/// What a tool beside fetcher (spark-submit, a browser, a script) did.
struct ToolRun: Sendable {
  let status: Int32
  let output: Data
  let errors: String

  var outputText: String { String(decoding: output, as: UTF8.self) }
}

/// Runs `arguments[0]` with the rest and `environment` added to this one's, in the
/// repository's root, reading both pipes to their end.
func runTool(_ arguments: [String], environment: [String: String] = [:]) async throws -> ToolRun {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: arguments[0])
  process.arguments = Array(arguments.dropFirst())
  process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  process.currentDirectoryURL = Paths.root
  let output = Pipe()
  let errors = Pipe()
  process.standardOutput = output
  process.standardError = errors
  process.standardInput = FileHandle.nullDevice
  try process.run()
  async let out = onOwnThread { output.fileHandleForReading.readDataToEndOfFile() }
  async let err = onOwnThread { errors.fileHandleForReading.readDataToEndOfFile() }
  let (outData, errData) = await (out, err)
  await onOwnThread { process.waitUntilExit() }
  return ToolRun(
    status: process.terminationStatus, output: outData,
    errors: String(decoding: errData, as: UTF8.self))
}
