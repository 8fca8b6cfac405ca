import Foundation
import HTTPClient
import HTTPClientLive
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Answers response heads one at a time, as the download engine's actor does.
actor HeadAnswers {
  func answer(_ head: HTTPResponseHead) -> Bool { head.status == 200 }
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let list = try? String(contentsOfFile: arguments[1], encoding: .utf8),
  let atOnce = Int(arguments[3]), atOnce > 0
else {
  FileHandle.standardError.write(Data("usage: transportbench LIST FOLDER AT_ONCE\n".utf8))
  exit(2)
}
let urls = list.split(separator: "\n").compactMap { URL(string: String($0)) }
let folder = arguments[2]
let http = HTTPClient.live()
let answers = HeadAnswers()
let next = Mutex(0)
let failures = Mutex(0)

await withTaskGroup(of: Void.self) { group in
  for _ in 0..<atOnce {
    group.addTask {
      while true {
        let index = next.withLock { next in
          defer { next += 1 }
          return next
        }
        guard index < urls.count else { return }
        let file = open("\(folder)/\(index).txt", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard file >= 0 else {
          failures.withLock { $0 += 1 }
          continue
        }
        defer { close(file) }
        do {
          try await http.stream(
            HTTPRequest(url: urls[index]),
            HTTPReceiver(
              head: { head in
                let accepted = await answers.answer(head)
                if !accepted { failures.withLock { $0 += 1 } }
                return accepted
              },
              body: { data in
                data.withUnsafeBytes { write(file, $0.baseAddress, $0.count) == $0.count }
              }))
        } catch {
          failures.withLock { $0 += 1 }
        }
      }
    }
  }
}
let failed = failures.withLock { $0 }
if failed > 0 {
  FileHandle.standardError.write(Data("\(failed) of \(urls.count) failed\n".utf8))
  exit(1)
}
