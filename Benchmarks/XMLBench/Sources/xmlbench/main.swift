import Foundation
import XMLPathParser

// Usage: xmlbench FILE — reads the feed as a stream, with three paths registered.
let path = CommandLine.arguments[1]
guard let stream = InputStream(fileAtPath: path) else {
  FileHandle.standardError.write(Data("cannot open \(path)\n".utf8))
  exit(1)
}
let parser = try XMLPathParser([
  "feed.entry.im:name": 0, "feed.entry.im:image@height=170": 1, "feed.entry.link@rel=alternate": 2,
])
var matches = 0
try parser.parse(contentsOf: stream) { _ in matches += 1 }
print(matches)
