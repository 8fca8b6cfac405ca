import ChecksumTypes
import Foundation
import Testing

@Suite struct FileChecksumTests {
  @Test func aria2csTypeEqualsHexIsRead() {
    let sha1 = "a9993e364706816aba3e25717850c26c9cd0d89d"
    #expect(FileChecksum("sha-1=" + sha1) == FileChecksum(.sha1, hex: sha1))
    #expect(FileChecksum("SHA1=" + sha1.uppercased())?.hex == sha1)
    #expect(FileChecksum("md5=900150983cd24fb0d6963f7d28e17f72")?.algorithm == .md5)
    #expect(FileChecksum("sha-512=" + String(repeating: "0", count: 128))?.algorithm == .sha512)
    #expect(FileChecksum("sha-1=" + sha1)?.description == "sha-1=" + sha1)
  }

  @Test func anotherTypeOrAWrongLengthIsNoChecksum() {
    #expect(FileChecksum("sha-3=abc") == nil)
    #expect(FileChecksum("sha-256=abc") == nil)
    #expect(FileChecksum("sha-256") == nil)
    #expect(FileChecksum("md5=" + String(repeating: "g", count: 32)) == nil)
    #expect(FileChecksum.typeNames == "md5, sha-1, sha-224, sha-256, sha-384, sha-512")
  }
}
