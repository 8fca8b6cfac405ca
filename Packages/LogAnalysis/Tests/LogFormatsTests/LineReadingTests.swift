import Foundation
import Testing

@testable import LogFormats

/// Reading one line into fields, by the fast combined reader and by a format's layout.
@Suite struct LineReadingTests {
  private let combined =
    #"1.2.3.4 - bob [10/Oct/2000:13:55:36 -0700] "GET /a?b=1 HTTP/1.1" 200 2326 "http://r/" "agent/1" extra"#

  private func text(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
    String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }

  private func text(_ bytes: UnsafeRawBufferPointer?) -> String? {
    bytes.map { String(decoding: $0, as: UTF8.self) }
  }

  @Test func theFastReaderFindsTheClientThePageAndTheTail() throws {
    try Array(combined.utf8).withUnsafeBytes { bytes in
      let (found, end) = LineParser.fields(bytes, from: 0)
      let fields = try #require(found)
      #expect(end == bytes.count)
      #expect(text(bytes, fields.client) == "1.2.3.4")
      #expect(text(bytes, fields.page) == "/a?b=1")
      #expect(fields.hasPage && fields.isCombined)
      #expect(text(bytes, fields.time..<fields.time + 26) == "10/Oct/2000:13:55:36 -0700")
      let tail = LineParser.tail(bytes, after: fields.close, referer: true)
      #expect(tail.status == 200 && tail.size == 2326)
      #expect(text(tail.referer) == "http://r/")
    }
  }

  @Test func theCombinedLayoutReadsTheSameFields() throws {
    let layout = try LineLayout(.combined, sample: UnsafeRawBufferPointer(start: nil, count: 0))
    try Array(combined.utf8).withUnsafeBytes { bytes in
      var record = LogRecord()
      #expect(layout.parse(bytes, into: &record, arena: ByteArena()))
      #expect(text(record.client) == "1.2.3.4")
      let request = try #require(record.request)
      #expect(text(RequestLine.methodAndPage(request)?.page) == "/a?b=1")
      #expect(record.statusCode == 200 && record.sizeValue == 2326)
      #expect(record.seconds == 971_211_336)
      #expect(try #require(record.localSeconds) == 971_186_136)  // 7 hours west
    }
  }

  @Test(arguments: [
    #"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.0" 200 -"#,
    #"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.0" 200 5 "-" "-""#,
    #"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.0" 20x 5"#,
    #"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700 "GET / HTTP/1.0" 200 5"#,
    "not a log line",
  ])
  func aLineIsCommonCombinedOrNeither(line: String) {
    let shape = Array(line.utf8).withUnsafeBytes { LineParser.shape(of: $0) }
    let expected: LineParser.Shape? =
      line.hasSuffix("-\"") ? .combined : line.hasSuffix("200 -") ? .common : nil
    #expect(shape == expected)
  }

  @Test func aRequestNamesAPageOnlyWhenItReadsAsOne() {
    func page(_ request: String) -> String? {
      Array(request.utf8).withUnsafeBytes { text(RequestLine.methodAndPage($0)?.page) }
    }
    #expect(page("GET /x HTTP/1.1") == "/x")
    #expect(page("  POST   /y  ") == "/y")
    #expect(page("-") == nil)
    #expect(page("\u{16}\u{03}\u{01}") == nil)
  }

  @Test func theAssemblerHandsOnWholeLinesAndDropsTheRestOfAnOverlongOne() {
    var assembler = LineAssembler()
    var lines: [String] = []
    let collect = { (bytes: UnsafeRawBufferPointer) in
      lines.append(
        contentsOf: String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init))
    }
    for piece in ["a\nb", "c\nd", String(repeating: "x", count: LineLimit.maxLength + 10), "\ne"] {
      Array(piece.utf8).withUnsafeBytes { assembler.append($0, collect) }
    }
    assembler.finish(collect)
    #expect(lines.count == 4)
    #expect(Array(lines.prefix(2)) == ["a", "bc"])
    #expect(lines[2].hasPrefix("d") && LineLimit.isOverlong(lines[2].utf8.count))
    #expect(lines[2].utf8.count <= LineLimit.maxLength + 1)
    #expect(lines.last == "e")
  }

  @Test func aSizeIsDigitsUpToAPetabyteAndAnythingElseIsZero() {
    func size(_ text: String) -> Int { Array(text.utf8).withUnsafeBytes { SizeField.value($0) } }
    #expect(size("2326") == 2326)
    #expect(size("-") == 0)
    #expect(size("12a") == 0)
    #expect(size(String(repeating: "9", count: 30)) == SizeField.max)
  }

  @Test func aTimeBeforeNineteenSeventyFallsOnTheDayBefore() {
    #expect(LogTime.dayAndSecond(-1) == (-1, 86_399))
    #expect(LogTime.dayAndSecond(86_400 + 5) == (1, 5))
  }

  @Test func aFormatIsKnownByItsNameOrByItsFirstLine() throws {
    #expect(try LogFormat("combined") == .combined)
    #expect(LogFormat.combined.name == "combined")
    let detected = Array((combined + "\n").utf8).withUnsafeBytes { LogFormat.detect($0) }
    #expect(detected == .combined)
  }
}
