import Foundation
import Testing
import XMLPathParser

/// The matches of `paths` in `xml`, as `id=text` or `id=text[attribute=value,...]`; xmllint
/// must agree on whether `xml` is well-formed.
func matches(
  _ xml: String, _ paths: KeyValuePairs<String, String>,
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> [String] {
  var found: [String] = []
  do {
    try XMLPathParser(paths).parse(Data(xml.utf8)) { match in
      let attributes = match.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
      found.append(
        "\(match.id)=\(match.text)"
          + (attributes.isEmpty ? "" : "[\(attributes.joined(separator: ","))]"))
    }
  } catch {
    if !xml.isEmpty {
      expectXmllintAgrees(Data(xml.utf8), parsed: error, sourceLocation: sourceLocation)
    }
    throw error
  }
  expectXmllintAgrees(Data(xml.utf8), parsed: nil, sourceLocation: sourceLocation)
  return found
}

@Suite struct PathTests {
  @Test func matchesExactPathsOnly() throws {
    let xml = "<feed><id>top</id><entry><id>1</id><idx>no</idx><x><id>deep</id></x></entry></feed>"
    #expect(
      try matches(xml, ["feed.entry.id": "entry", "feed.id": "feed"]) == ["feed=top", "entry=1"])
  }

  @Test func keepsNamespacePrefixesInNames() throws {
    let xml =
      #"<feed xmlns:im="http://itunes.apple.com/rss"><entry><im:name>A</im:name><name>B</name></entry></feed>"#
    #expect(try matches(xml, ["feed.entry.im:name": "prefixed"]) == ["prefixed=A"])
    #expect(try matches(xml, ["feed.entry.name": "plain"]) == ["plain=B"])
  }

  @Test func popsTheElementStackOnEveryEndTag() throws {
    let xml = "<feed><entry><title>t</title><link/></entry><title>feed title</title></feed>"
    #expect(try matches(xml, ["feed.title": "title"]) == ["title=feed title"])
  }

  @Test func nestedRepeatsMatchTheirOwnDepth() throws {
    let xml = "<a><b>1<b>2</b>3</b><b>4</b></a>"
    #expect(
      try matches(xml, ["a.b": "outer", "a.b.b": "inner"]) == ["inner=2", "outer=123", "outer=4"])
  }

  @Test func aNameWithADotIsWrittenWithABackslash() throws {
    let xml = "<data><v1.2><value>x</value></v1.2><v1><value>no</value></v1></data>"
    #expect(try matches(xml, [#"data.v1\.2.value"#: "value"]) == ["value=x"])
  }

  @Test func aStarIsAnyOneElement() throws {
    #expect(try matches("<whatever>root text</whatever>", ["*": "root"]) == ["root=root text"])
    let xml = "<feed><entry><title>a</title></entry><item><title>b</title></item></feed>"
    #expect(try matches(xml, ["feed.*.title": "title"]) == ["title=a", "title=b"])
    #expect(
      try matches(xml, ["feed.*.title": "any", "feed.item.title": "item"]) == [
        "any=a", "any=b", "item=b",
      ])
  }

  @Test func reportsAllAttributes() throws {
    let xml = #"<feed><link rel="alternate" type="text/html" href="http://x/1"/></feed>"#
    #expect(
      try matches(xml, ["feed.link": "link"]) == [
        "link=[href=http://x/1,rel=alternate,type=text/html]"
      ])
  }
}

@Suite struct SelectorTests {
  private let xml = """
    <feed><entry>
    <im:image height="55">small</im:image>
    <im:image height="170" width="170">large</im:image>
    <im:image>none</im:image>
    <link rel="alternate" href="page"/><link rel="enclosure" href="preview"/><link rel="self"/>
    </entry></feed>
    """

  @Test func requiresListedAttributes() throws {
    #expect(
      try matches(xml, ["feed.entry.im:image@height": "any"]).map { $0.prefix(9) } == [
        "any=small", "any=large",
      ])
    #expect(try matches(xml, ["feed.entry.im:image@height,width": "both"]).count == 1)
  }

  @Test func requiresValues() throws {
    #expect(
      try matches(xml, ["feed.entry.im:image@height=170": "big"]) == [
        "big=large[height=170,width=170]"
      ])
    #expect(
      try matches(xml, ["feed.entry.link@rel=enclosure,href": "preview"]) == [
        "preview=[href=preview,rel=enclosure]"
      ])
    #expect(try matches(xml, ["feed.entry.link@rel=self,href": "self"]).isEmpty)
  }

  @Test func severalSelectorsOnOnePathReportEachInRegistrationOrder() throws {
    let found = try matches(
      xml,
      [
        "feed.entry.link@rel=alternate": "page", "feed.entry.link@href": "href",
        "feed.entry.link@rel=enclosure": "preview",
      ])
    #expect(
      found.map { String($0.prefix { $0 != "=" }) } == ["page", "href", "href", "preview"])
  }

  @Test(arguments: ["", "a..b", ".a", "a@", "a@=v", "a@b,,c"])
  func rejectsInvalidPaths(path: String) {
    #expect(throws: XMLPathError.self) { try XMLPathParser([path: 1]) }
  }
}

@Suite struct TextTests {
  @Test func includesCDATA() throws {
    let xml = "<a><b>x <![CDATA[<not> & markup]]> y</b></a>"
    #expect(try matches(xml, ["a.b": "b"]) == ["b=x <not> & markup y"])
  }

  @Test func decodesEntities() throws {
    let xml =
      #"<a><b title="&quot;q&quot; &amp; r">&lt;Tom &amp; Jerry&gt; caf&#233; &#x263A;</b></a>"#
    #expect(try matches(xml, ["a.b": "b"]) == [#"b=<Tom & Jerry> café ☺[title="q" & r]"#])
  }
}

@Suite struct MalformedTests {
  private func error(_ xml: String) -> XMLPathError? {
    do {
      _ = try matches(xml, ["a.b": "b"])
      return nil
    } catch {
      return error as? XMLPathError
    }
  }

  @Test func mismatchedTagsGiveTheirPosition() throws {
    let failure = try #require(error("<a>\n  <b>text</c>\n</a>"))
    guard case .malformed(let line, let column, let reason) = failure else {
      Issue.record("expected a malformed error, got \(failure)")
      return
    }
    #expect(line == 2)
    #expect(column > 1)
    #expect(reason == "an end tag does not match its start tag")
  }

  @Test(arguments: [
    ("<a><b>text", "the document ends early, or has content after its root element"),
    ("<a><b>text</b>", "the document ends early, or has content after its root element"),
    ("  \n", "the document has no root element"),
  ])
  func anUnfinishedOrEmptyDocumentIsAnError(xml: String, expected: String) throws {
    let failure = try #require(error(xml))
    guard case .malformed(_, _, let reason) = failure else {
      Issue.record("expected a malformed error, got \(failure)")
      return
    }
    #expect(reason == expected)
  }

  @Test func nothingIsReportedAfterTheFirstError() {
    var seen: [String] = []
    #expect(throws: XMLPathError.self) {
      try XMLPathParser(["a.b": 0]).parse(Data("<a><b>1</b><b>2</c><b>3</b></a>".utf8)) {
        seen.append($0.text)
      }
    }
    #expect(seen == ["1"])
    #expect(throws: XMLPathError.self) {
      try texts(in: Data("<a><b>1</b><b>2</c><b>3</b></a>".utf8))
    }
  }

  @Test func garbageAfterTheRootIsAnError() {
    #expect(error("<a><b>1</b></a><oops>") != nil)
  }

  @Test func aThrowingHandlerStopsTheParse() throws {
    struct Stop: Error {}
    var seen = 0
    #expect(throws: Stop.self) {
      try XMLPathParser(["a.b": 0]).parse(Data("<a><b/><b/><b/></a>".utf8)) { _ in
        seen += 1
        throw Stop()
      }
    }
    #expect(seen == 1)
    #expect(try texts(in: Data("<a><b/><b/><b/></a>".utf8)) == ["", "", ""])
  }
}

/// `data` handed out at most `piece` bytes at a time.
private final class ChunkedStream: InputStream {
  private var rest: Data
  private let piece: Int

  init(_ data: Data, piece: Int) {
    rest = data
    self.piece = piece
    super.init(data: Data())
  }

  override func open() {}
  override func close() {}
  override var streamStatus: Stream.Status { rest.isEmpty ? .atEnd : .open }
  override var hasBytesAvailable: Bool { !rest.isEmpty }

  override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength: Int) -> Int {
    let count = min(maxLength, piece, rest.count)
    rest.copyBytes(to: buffer, count: count)
    rest.removeFirst(count)
    return count
  }
}

/// A feed of `entries` entries, made as it is read, counting the bytes handed out.
private final class GeneratedFeed: InputStream {
  private let entries: Int
  private var next = 0
  private var pending = Data(#"<feed xmlns:im="http://itunes.apple.com/rss">"#.utf8)
  private var finished = false
  private(set) var bytesRead = 0
  private(set) var size = 0

  init(entries: Int) {
    self.entries = entries
    super.init(data: Data())
  }

  override func open() {}
  override func close() {}
  override var streamStatus: Stream.Status { finished && pending.isEmpty ? .atEnd : .open }
  override var hasBytesAvailable: Bool { !(finished && pending.isEmpty) }

  override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength: Int) -> Int {
    while pending.count < maxLength && !finished { produce() }
    let count = min(maxLength, pending.count)
    pending.copyBytes(to: buffer, count: count)
    pending.removeFirst(count)
    bytesRead += count
    return count
  }

  /// What it hands out, at once.
  func readAll() -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while hasBytesAvailable {
      let count = read(&buffer, maxLength: buffer.count)
      data.append(buffer, count: count)
    }
    return data
  }

  private func produce() {
    guard next < entries else {
      pending += Data("</feed>".utf8)
      size += 7
      finished = true
      return
    }
    var text =
      #"<entry><id im:id="\#(next)">http://x/\#(next)</id><im:name>Song \#(next)</im:name>"#
    text += String(repeating: "lorem ipsum ", count: 40) + "</entry>\n"
    pending += Data(text.utf8)
    size += text.utf8.count
    next += 1
  }
}

@Suite struct StreamingTests {
  @Test func aLargeFeedIsParsedAsItIsRead() throws {
    let feed = GeneratedFeed(entries: 120_000)
    var names = 0
    var readAtTheThousandth = 0
    try XMLPathParser(["feed.entry.im:name": "name"]).parse(contentsOf: feed) { match in
      names += 1
      if names == 1000 { readAtTheThousandth = feed.bytesRead }
    }
    #expect(names == 120_000)
    #expect(feed.size > 60_000_000)
    // The first thousand matches came while the parser had read about 1% of the document,
    // not all of it: a document held in memory would be read whole first.
    #expect(readAtTheThousandth < feed.size / 50)
    // The same document, read whole, is well-formed to xmllint too.
    expectXmllintAgrees(GeneratedFeed(entries: 120_000).readAll(), parsed: nil)
  }

  @Test func aDocumentInMemoryOverTenMegabytesParses() throws {
    // libxml2 refuses a single chunk over 10,000,000 bytes without its "huge" option; a
    // document in memory is fed in pieces, as a stream is.
    let entry =
      "<entry><name>x</name><summary>\(String(repeating: "lorem ipsum ", count: 40))</summary></entry>\n"
    let xml = "<feed>" + String(repeating: entry, count: 30_000) + "</feed>"
    #expect(xml.utf8.count > 14_000_000)
    #expect(try texts(in: Data(xml.utf8), ["feed.entry.name": 0]).count == 30_000)
  }

  @Test func aTextNodeOverTenMegabytesParses() throws {
    let text = String(repeating: "lorem ipsum ", count: 1_000_000)
    #expect(try matches("<a><b>\(text)</b></a>", ["a.b": "b"]) == ["b=\(text)"])
  }

  @Test func aFeedWithControlBytesIsMalformedNotACrash() throws {
    // Found by Fuzz/XMLPathTarget.swift: stopping libxml2 from its error callback crashed it
    // (SIGSEGV in xmlParseChunk) on this feed with a 0x01 and NULs in an element name.
    let text = """
      PD94bWwgdmVyc2lvbj0iMS4wIiBlbmNvZGluZz0idXRmLTciPz4KPGZlZWQgeG1sbnM6aW09Imh0dHA6Ly9pdHVu
      ZXMuYXBwbGUuY29tL3JzcyIgeG1sbnM9Imh0dHA6Ly93d3cudzMub3JnLzIwMDUvQXRvbSIgeG1sOmxhbmc9ImVu
      Ij4KPGlkPmh0dHA6ZWQ+MjAyNC0wMS0wMVQwMDowMDowMC0xNzowMDwvdXBkYXRlZD4KICA8aWQgaW06aWQ9IjE0
      NDAwMDAwMDAiPmh0dHA6Ly8xMjcuMC4wLjE6MTgxNTAvc29uZy8xNDQwMDAwMDAwPC9pZD4KICA8dGl0bGU+TWlk
      bmlnaHQgSGVhcnRzIC0gVGhlIE5pZ2h0IDAwMDwvaW06ZHVyYXRpbwEAAAAAAAAAbj48L2xpbms+CiAgPGltOmFy
      dGlzdCBocmVmPSJoR29sZGVuIFdhdmVzIC0gU2luZzUyOC9hbGJ1bS8xNDQwMDA3OTIwIi8+PGltOmNvbnRlbnRU
      eXBlIHRlcm09Ik11c2ljIiAyNy4wLjAuMToxODEiPjxpbTpjb0H/////////ZSB0ZXJtPSJBbGL//yIgbGFiZWw9
      IkFsYnVtIi8+PC9pbTpjb250ZW50VHlwZT48L2ltOmNvbGxlY3Rpb24+CjwvZW50cnk+CjwvZmVlZD4K
      """
    let feed = try #require(Data(base64Encoded: text, options: .ignoreUnknownCharacters))
    #expect(throws: XMLPathError.self) {
      try texts(in: feed, ["feed.entry.im:name": 0])
    }
  }

  @Test func bytesThatAreNotUTF8AreMalformedNotACrash() throws {
    // Found by Fuzz/XMLPathTarget.swift: FoundationXML stopped the process (an illegal
    // instruction) on an element name holding these bytes. libxml2 (and xmllint) name it.
    var document = Data(#"<!DOCTYPE a [<!ENTITY e "x">]><a>"#.utf8)
    document += Data("\n<b>&e;</b><".utf8) + Data([0xFF, 0xFF]) + Data(">".utf8)
    #expect(
      throws: XMLPathError.malformed(
        line: 2, column: 12, reason: "a name is expected (a `<` or `&` that starts nothing?)")
    ) {
      try texts(in: document)
    }
  }

  @Test func anErrorFromAParserLibxml2MadeOnItsOwnIsReportedNotACrash() {
    // Found by Fuzz/XMLPathTarget.swift: these five bytes (a UCS-4 start) made libxml2 report
    // an error for a parser that did not name the parse.
    #expect(throws: XMLPathError.self) {
      try texts(in: Data([0x00, 0x00, 0x3C, 0x00, 0xFE]))
    }
  }

  @Test func aDocumentInAnotherEncodingIsNotCheckedAsUTF8() throws {
    let latin1 =
      Data(#"<?xml version="1.0" encoding="ISO-8859-1"?><a><b>caf"#.utf8) + Data([0xE9])
      + Data("</b></a>".utf8)
    #expect(try texts(in: latin1) == ["café"])
  }

  @Test func processingInstructionsWithoutDataAreReadNotACrash() throws {
    // Found by Fuzz/XMLPathTarget.swift: FoundationXML crashed (strlen of a null pointer) on
    // `<?name?>`, also where libxml2 recovers from a broken declaration. Each gets a space,
    // even in a CDATA section.
    let xml = "<?xml version=\"1.0\"?><?first?><a><?second?><b>t</b><b><![CDATA[<?x?>]]></b></a>"
    #expect(try matches(xml, ["a.b": "b"]) == ["b=t", "b=<?x?>"])
    let text = """
      PD94bWwgNmVyc2lvfj0iMS4wIiBlbmNvZGluZz0idTMubzAvcHJldmlkPjx0aXRsZT5mZXRjaGVyPD94bWw/PiB2
      ZXJzaW9uPSIxMTgxNTAvZmVlZHMvdG9wc29uZ3MueG1sPC9pZD48dGl0bGU+aHJ0ZWZjZTw/eG1sPz4gdmVyc2lv
      bj1zcz4=
      """
    let broken = try #require(Data(base64Encoded: text, options: .ignoreUnknownCharacters))
    #expect(throws: XMLPathError.self) { try texts(in: broken) }
  }

  @Test func documentsAreDecodedBeforeTheParserSeesThem() throws {
    // Found by Fuzz/XMLPathTarget.swift, the same crash as above: a zero byte near the start,
    // and an encoding libxml2 does not know, each let bytes that are not UTF-8 through.
    let zero = Data([0x3C, 0xFF, 0x00, 0x2A]) + Data(#"CTYPE a [<!ENTx="1">t</b></a>"#.utf8)
    #expect(throws: XMLPathError.self) { try texts(in: zero) }
    let unknown =
      Data(#"<?xml version="1.0" encoding="utf-8iso88598e"?><a><b>"#.utf8)
      + Data([0xFF]) + Data("</b></a>".utf8)
    #expect(throws: XMLPathError.self) { try texts(in: unknown) }
    // UTF-16 with its byte order mark is read; so is UTF-32, which Debian 12's libxml2 (and
    // xmllint, so it is not asked) cannot read, turned into UTF-8 here; with a mark and
    // without, in both orders.
    let utf16 = try #require(
      #"<?xml version="1.0" encoding="UTF-16"?><a><b>ü</b></a>"#.data(using: .utf16))
    #expect(try texts(in: utf16) == ["ü"])
    let text = #"<?xml version="1.0" encoding="UTF-32"?><a><b>ü 😀</b></a>"#
    for encoding in [String.Encoding.utf32, .utf32BigEndian, .utf32LittleEndian] {
      let utf32 = try #require(text.data(using: encoding))
      #expect(try matchesIn(utf32) == ["ü 😀"], "\(encoding)")
    }
    // Read as a stream in pieces of three bytes: the byte order mark and every character are
    // cut between pieces.
    let stream = ChunkedStream(try #require(text.data(using: .utf32)), piece: 3)
    var streamed: [String] = []
    try XMLPathParser(["a.b": 0]).parse(contentsOf: stream) { streamed.append($0.text) }
    #expect(streamed == ["ü 😀"])
  }

  private func matchesIn(_ data: Data) throws -> [String] {
    var texts: [String] = []
    try XMLPathParser(["a.b": 0]).parse(data) { texts.append($0.text) }
    return texts
  }
}
