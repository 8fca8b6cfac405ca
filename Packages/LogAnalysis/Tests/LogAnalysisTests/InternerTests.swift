import LogAnalysisTestSupport
import Testing

@testable import LogAnalysis

@Suite struct InternerTests {
  private func intern(_ text: String, into interner: inout Interner) -> Int32 {
    Array(text.utf8).withUnsafeBytes { interner.intern($0) }
  }

  @Test func idsStayTheSameThroughGrowth() {
    var interner = Interner()
    let texts = (0..<5000).map { "/page\($0).html" }
    let ids = texts.map { intern($0, into: &interner) }
    #expect(ids == (0..<5000).map(Int32.init))
    #expect(texts.map { intern($0, into: &interner) } == ids)
    #expect(interner.count == 5000)
    #expect(String(decoding: interner.bytes(4321), as: UTF8.self) == "/page4321.html")
  }

  @Test func internsAnotherInternersStringsWithTheirNewIDs() {
    var first = Interner()
    var second = Interner()
    for index in 0..<3000 { _ = intern("a\(index)", into: &first) }
    for index in 2000..<6000 { _ = intern("a\(index)", into: &second) }
    let map = first.intern(contentsOf: second)
    #expect(first.count == 6000)
    for (old, new) in map.enumerated() {
      #expect(Array(first.bytes(new)) == Array(second.bytes(Int32(old))))
    }
    #expect(map.prefix(1000) == ArraySlice((2000..<3000).map(Int32.init)))
  }

  @Test func ordersItsIDsAsTheirBytesCompare() {
    // Prefixes of one another, eight bytes in common and more, zero and high bytes, nothing.
    var byteStrings: [[UInt8]] = [
      [], [0], [0, 0], [1], [0xff], [0x2f], Array("/p/1234.html".utf8),
      Array("/p/1234".utf8), Array("/p/12345".utf8), Array("/p/123456".utf8),
      Array("/p/12345\u{0}".utf8), Array("/p/12345a".utf8), Array("/p/12345".utf8) + [0xc3, 0xa9],
      [0x2f, 0, 0, 0, 0, 0, 0, 0, 1], [0x2f, 0, 0, 0, 0, 0, 0, 0],
    ]
    var random = SystemRandomNumberGenerator()
    for _ in 0..<300 {
      let length = Int.random(in: 0...12, using: &random)
      // Few byte values, so that many share their first eight bytes.
      byteStrings.append(
        (0..<length).map { _ in [0, 0x2f, 0x61, 0xff].randomElement(using: &random)! })
    }
    var interner = Interner()
    for bytes in byteStrings { _ = bytes.withUnsafeBytes { interner.intern($0) } }
    let expected = (0..<Int32(interner.count)).sorted {
      interner.bytes($0).lexicographicallyPrecedes(interner.bytes($1))
    }
    #expect(interner.idsInByteOrder() == expected)
  }

  @Test func readsBackItsStorage() {
    var interner = Interner()
    for text in ["/a", "", "/b/c", "/a/"] { _ = intern(text, into: &interner) }
    let (arena, ends) = interner.storage
    let again = ends.withUnsafeBufferPointer { ends in
      arena.withUnsafeBytes { Interner(arena: $0, ends: ends) }
    }
    #expect(
      again.map { copy in (0..<4).map { Array(copy.bytes($0)) } } == [
        Array("/a".utf8), [], Array("/b/c".utf8), Array("/a/".utf8),
      ])
  }

  @Test(arguments: [
    ("abab", [2, 4]),  // a repeated string
    ("abcd", [3, 2, 4]),  // ends out of order
    ("abcd", [2, 5]),  // past the bytes
    ("abcd", [6, 4]),  // past the bytes, then back
    ("abcd", [2]),  // bytes after the last string
  ])
  func refusesStorageOfTheWrongForm(arena: String, ends: [Int]) {
    let read = ends.withUnsafeBufferPointer { ends in
      Array(arena.utf8).withUnsafeBytes { Interner(arena: $0, ends: ends) }
    }
    #expect(read == nil)
  }

  @Test(arguments: [0, 1, 2, 100, 5000])
  func indexesComeInTheOrderOfTheirHashes(count: Int) {
    var generator = SplitMix(seed: UInt64(count))
    // Few high bits and few low ones: the high bits tie often, and some hashes repeat.
    let hashes = (0..<count).map { _ in (generator.next() % 4) << 60 | generator.next() % 1000 }
    let expected = hashes.indices.sorted { (hashes[$0], $0) < (hashes[$1], $1) }.map(Int32.init)
    #expect(hashes.withUnsafeBufferPointer { Hashing.order($0) } == expected)
  }

  @Test func stringsLongerThanTheirSlotsLengthField() {
    var interner = Interner()
    let long = String(repeating: "/a", count: 40_000)
    let other = String(long.dropLast()) + "b"
    let id = intern(long, into: &interner)
    #expect(intern(other, into: &interner) != id)
    #expect(intern(long, into: &interner) == id)
    #expect(Array(interner.bytes(id)) == Array(long.utf8))
  }

  @Test(arguments: 0...24)
  func everyByteChangesTheHash(count: Int) {
    let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
    let hash = bytes.withUnsafeBytes { Hashing.hash($0) }
    for position in 0..<count {
      var changed = bytes
      changed[position] ^= 0x20
      #expect(changed.withUnsafeBytes { Hashing.hash($0) } != hash, "byte \(position)")
    }
  }
}

@Suite struct ByteComparisonTests {
  /// Whether the first `count` bytes of `a` and `b` are equal; both hold one byte more, so
  /// they have storage even when `count` is 0.
  private func equal(_ a: [UInt8], _ b: [UInt8], count: Int) -> Bool {
    a.withUnsafeBytes { a in
      b.withUnsafeBytes { b in Interner.equal(a.baseAddress!, b.baseAddress!, count) }
    }
  }

  @Test(arguments: 0...24)
  func everyByteCounts(count: Int) {
    let bytes = (0...count).map { UInt8(truncatingIfNeeded: $0 &* 53 &+ 7) }
    var other = bytes
    other[count] ^= 0x40
    #expect(equal(bytes, other, count: count))
    for position in 0..<count {
      var changed = bytes
      changed[position] ^= 0x40
      #expect(!equal(bytes, changed, count: count), "byte \(position)")
    }
  }
}
