// libFuzzer target: XMLPathParser on any bytes, compiled with its sources by Fuzz/run.sh.
// Any document ends in matches or an XMLPathError, never a crash or a hang, within the memory
// bound of MemoryBound.swift.
import Foundation

private let parser = try! XMLPathParser([
  "feed.entry.im:name": 0, "feed.entry.im:image@height": 1, "feed.entry.link@rel=enclosure": 2,
  "rss.channel.item.title": 3, "a.b": 4,
])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMLPath(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let data = Data(UnsafeRawBufferPointer(start: start, count: count))
  checkMemory(of: count) {
    var matches = 0
    do {
      try parser.parse(data) { _ in matches += 1 }
    } catch {
      precondition(error is XMLPathError, "an error other than XMLPathError: \(error)")
    }
  }
  return 0
}
