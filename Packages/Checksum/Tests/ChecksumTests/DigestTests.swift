import Checksum
import ChecksumTypes
import Foundation
import Testing

@Suite struct DigestTests {
  private func hex(_ text: String) -> String {
    var hasher = Digest(.sha256)
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
    var whole = Digest(.sha256)
    whole.update(data)
    var pieces = Digest(.sha256)
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
    var hasher = Digest(.sha256)
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

    var whole = Digest(.sha256)
    whole.update(data)
    let wholeHex = whole.finalize()
    #expect(try Digest.hex(.sha256, ofFileAt: file) == wholeHex)

    var prefix = Digest(.sha256)
    try prefix.update(fileAt: file, upTo: 1_500_001)
    var expected = Digest(.sha256)
    expected.update(data.prefix(1_500_001))
    let (prefixHex, expectedHex) = (prefix.finalize(), expected.finalize())
    #expect(prefixHex == expectedHex)

    var tooLong = Digest(.sha256)
    #expect(throws: (any Error).self) { try tooLong.update(fileAt: file, upTo: 3_000_001) }
  }

  /// "abc" in each algorithm, as its standard gives it (RFC 1321, FIPS 180-4), and `openssl
  /// dgst` agrees.
  @Test func eachAlgorithmGivesItsStandardsVectorForABC() {
    let vectors: [DigestAlgorithm: String] = [
      .md5: "900150983cd24fb0d6963f7d28e17f72",
      .sha1: "a9993e364706816aba3e25717850c26c9cd0d89d",
      .sha224: "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
      .sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
      .sha384:
        "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
      .sha512:
        "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
    ]
    for algorithm in DigestAlgorithm.allCases {
      var digest = Digest(algorithm)
      digest.update(Data("abc".utf8))
      let hex = digest.finalize()
      #expect(hex == vectors[algorithm], "\(algorithm)")
      #expect(hex.count == algorithm.hexDigits)
    }
  }

  @Test func namesAreAria2csWithOrWithoutTheDashInAnyCase() {
    #expect(DigestAlgorithm(name: "sha-1") == .sha1)
    #expect(DigestAlgorithm(name: "SHA1") == .sha1)
    #expect(DigestAlgorithm(name: "Sha-512") == .sha512)
    #expect(DigestAlgorithm(name: "md5") == .md5)
    #expect(DigestAlgorithm(name: "sha-3") == nil && DigestAlgorithm(name: "") == nil)
    #expect(DigestAlgorithm.sha224.displayName == "SHA-224")
  }
}
