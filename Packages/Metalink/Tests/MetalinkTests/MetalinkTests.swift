import ChecksumTypes
import Foundation
import Metalink
import Testing

private let sha256 = String(repeating: "ab", count: 32)
private let sha1 = String(repeating: "cd", count: 20)

/// A Metalink 4 document shaped as RFC 5854's example, with two files.
private let version4 = """
  <?xml version="1.0" encoding="UTF-8"?>
  <metalink xmlns="urn:ietf:params:xml:ns:metalink">
    <published>2026-11-24T12:00:00Z</published>
    <file name="example.ext">
      <size>14471447</size>
      <identity>Example</identity>
      <hash type="md5">\(String(repeating: "0", count: 32))</hash>
      <hash type="sha-256">\(sha256.uppercased())</hash>
      <hash type="sha-3">ignored</hash>
      <pieces length="8388608" type="sha-1">
        <hash>\(sha1)</hash>
        <hash>\(String(repeating: "ef", count: 20))</hash>
      </pieces>
      <url location="de" priority="2">http://ftp.example.com/example.ext</url>
      <url location="fr" priority="1">https://example.net/example.ext</url>
      <url>ftp://ftp.example.org/example.ext</url>
      <url location="us">http://example.org/example.ext</url>
      <metaurl mediatype="torrent" priority="1">http://example.com/example.ext.torrent</metaurl>
    </file>
    <file name="second.txt">
      <url>http://example.com/second.txt</url>
    </file>
  </metalink>
  """

/// The same first file as Metalink 3 writes it.
private let version3 = """
  <?xml version="1.0" encoding="utf-8"?>
  <metalink version="3.0" xmlns="http://www.metalinker.org/">
    <files>
      <file name="example.ext">
        <size>14471447</size>
        <verification>
          <hash type="sha256">\(sha256)</hash>
          <pieces length="8388608" type="sha1">
            <hash piece="0">\(sha1)</hash>
            <hash piece="1">\(String(repeating: "ef", count: 20))</hash>
          </pieces>
        </verification>
        <resources>
          <url type="http" location="de" preference="99">http://ftp.example.com/example.ext</url>
          <url type="https" location="fr" preference="100">https://example.net/example.ext</url>
          <url type="ftp" preference="50">ftp://ftp.example.org/example.ext</url>
          <url type="http" location="us">http://example.org/example.ext</url>
        </resources>
      </file>
    </files>
  </metalink>
  """

@Suite struct MetalinkTests {
  @Test(arguments: [version4, version3])
  func readsFilesSizesHashesPiecesAndMirrors(document: String) throws {
    let metalink = try Metalink(Data(document.utf8))
    let file = try #require(metalink.files.first)
    #expect(file.name == "example.ext")
    #expect(file.size == 14_471_447)
    #expect(file.strongestHash == FileChecksum(.sha256, hex: sha256))
    #expect(file.pieces?.algorithm == .sha1)
    #expect(file.pieces?.length == 8_388_608)
    #expect(file.pieces?.hashes == [sha1, String(repeating: "ef", count: 20)])
    #expect(file.pieces?.fits(size: 14_471_447) == true)
    #expect(file.pieces?.range(of: 1, size: 14_471_447) == 8_388_608..<14_471_447)
    // ftp is left out; priority first (Metalink 3's preference read as one), unranked last.
    #expect(
      file.orderedURLs().map(\.absoluteString) == [
        "https://example.net/example.ext", "http://ftp.example.com/example.ext",
        "http://example.org/example.ext",
      ])
    #expect(
      file.orderedURLs(preferring: ["US", "de"]).map(\.absoluteString) == [
        "http://example.org/example.ext", "http://ftp.example.com/example.ext",
        "https://example.net/example.ext",
      ])
  }

  @Test func everyFileIsRead() throws {
    let metalink = try Metalink(Data(version4.utf8))
    #expect(metalink.files.map(\.name) == ["example.ext", "second.txt"])
    #expect(metalink.files[1].size == nil && metalink.files[1].hashes.isEmpty)
    #expect(metalink.files[1].pieces == nil)
  }

  @Test(arguments: [
    ("<rss version=\"2.0\"><channel/></rss>", "not a Metalink: the root element is <rss>"),
    ("<metalink><file name=\"a\"/></metalink>", "not <metalink> of Metalink 4 or 3"),
    (
      "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"></metalink>",
      "the Metalink lists no file"
    ),
    (
      "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file><size>1</size></file></metalink>",
      "a <file> has no name"
    ),
    (
      "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"a\"><size>-1</size></file></metalink>",
      "a <size> of '-1' is not a number of bytes"
    ),
    (
      "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"a\"><pieces length=\"4\" type=\"sha-1\"><hash>xyz</hash></pieces></file></metalink>",
      "the <pieces> are not sha-1 digests"
    ),
    ("<metalink", "not a Metalink: malformed XML"),
  ])
  func aDocumentThatCannotBeUsedSaysWhy(document: String, reason: String) {
    do {
      _ = try Metalink(Data(document.utf8))
      Issue.record("read \(document)")
    } catch {
      #expect(error.description.contains(reason), "\(error)")
    }
  }

  @Test func oneEntityReferencedOftenIsRefusedAtTheBound() {
    // 200 KB whose one entity of 50,000 bytes, referenced 50,000 times, would be 2.5 GB.
    let document = """
      <?xml version="1.0"?>
      <!DOCTYPE metalink [<!ENTITY q "\(String(repeating: "A", count: 50_000))">]>
      <metalink xmlns="urn:ietf:params:xml:ns:metalink"><file name="f">
      <url>http://127.0.0.1:1/x</url><other>\(String(repeating: "&q;", count: 50_000))</other>
      </file></metalink>
      """
    #expect {
      _ = try Metalink(Data(document.utf8))
    } throws: { error in
      "\(error)".contains("the entities expand the document beyond the limit")
    }
  }
}
