import Checksum
import Foundation
import Testing

@Suite struct SHA256Tests {
  private func hex(_ text: String) -> String {
    var hasher = SHA256()
    hasher.update(Data(text.utf8))
    return hasher.finalize()
  }

  @Test func knownVectors() {
    #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
  }

  @Test func feedingInPiecesEqualsFeedingAtOnce() {
    let data = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    var whole = SHA256()
    whole.update(data)
    var pieces = SHA256()
    var offset = 0
    for size in [1, 63, 64, 65, 127, 1000, 3, 5000] where offset < data.count {
      let end = min(data.count, offset + size)
      pieces.update(data[offset..<end])
      offset = end
    }
    pieces.update(data[offset...])
    let (piecesHex, wholeHex) = (pieces.finalize(), whole.finalize())
    #expect(piecesHex == wholeHex)
  }

  @Test func aMillionAs() {
    var hasher = SHA256()
    let block = Data(repeating: UInt8(ascii: "a"), count: 1000)
    for _ in 0..<1000 { hasher.update(block) }
    let hex = hasher.finalize()
    #expect(
      hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    let empty = hasher.finalize()
    #expect(empty == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
  }

  @Test func hashesAFileWholeOrItsFirstBytes() throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("ChecksumTests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: file) }
    let data = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    try data.write(to: file)

    var whole = SHA256()
    whole.update(data)
    let wholeHex = whole.finalize()
    #expect(try SHA256.hex(ofFileAt: file) == wholeHex)

    var prefix = SHA256()
    try prefix.update(fileAt: file, upTo: 1_500_001)
    var expected = SHA256()
    expected.update(data.prefix(1_500_001))
    let (prefixHex, expectedHex) = (prefix.finalize(), expected.finalize())
    #expect(prefixHex == expectedHex)

    var tooLong = SHA256()
    #expect(throws: (any Error).self) { try tooLong.update(fileAt: file, upTo: 3_000_001) }
  }
}
