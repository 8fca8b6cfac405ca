import DownloadClient
import Foundation
import StyleGuide

/// The programs `--on-download-complete` and `--on-download-error` name, run as aria2c runs
/// them: with the download's ID, the number of files (1) and the file's path. Their output
/// goes to standard error, since standard output is the command's result; one that fails is
/// said there, and does not change the command's exit status.
struct DownloadHooks: Sendable {
  var onComplete: URL?
  var onError: URL?

  /// The executable file `program` names: a path when it has a `/`, else the first in `PATH`.
  static func executable(_ program: String) -> URL? {
    let candidates =
      program.contains("/")
      ? [program]
      : (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        .split(separator: ":").map { "\($0)/\(program)" }
    return candidates.first { path in
      var isFolder: ObjCBool = false
      return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        && !isFolder.boolValue && FileManager.default.isExecutableFile(atPath: path)
    }.map { URL(fileURLWithPath: $0) }
  }

  /// Runs the program for the end of download `id`, whose file is `path`: `onComplete` when it
  /// finished, else `onError`. Returns when the program has ended.
  func run(for id: DownloadID, finished: Bool, path: String) async {
    guard let program = finished ? onComplete : onError else { return }
    let process = Process()
    process.executableURL = program
    process.arguments = [id.rawValue, "1", path]
    process.standardOutput = FileHandle.standardError
    process.standardError = FileHandle.standardError
    let option = finished ? "--on-download-complete" : "--on-download-error"
    let started = await withCheckedContinuation {
      (continuation: CheckedContinuation<Bool, Never>) in
      process.terminationHandler = { _ in continuation.resume(returning: true) }
      do {
        try process.run()
      } catch {
        Terminal.writeError("fetcher: \(option): cannot run \(program.path): \(error)\n")
        continuation.resume(returning: false)
      }
    }
    guard started, process.terminationReason != .exit || process.terminationStatus != 0 else {
      return
    }
    let how =
      process.terminationReason == .uncaughtSignal
      ? "was killed by signal \(process.terminationStatus)"
      : "exited with \(process.terminationStatus)"
    Terminal.writeError("fetcher: \(option): \(program.path) \(how) (download \(id))\n")
  }
}
