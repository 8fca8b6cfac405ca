import Foundation
import Testing
import XMLPathParser

/// The error `xml` gives, or nil when it parses.
private func failure(_ xml: String) -> XMLPathError? {
  do {
    _ = try matches(xml, ["a.b": "b"])
    return nil
  } catch {
    return error as? XMLPathError
  }
}

@Suite struct EntityTests {
  @Test func entitiesOfTheDocumentsOwnDTDAreExpandedInTextAndAttributes() throws {
    let xml = """
      <?xml version="1.0"?>
      <!DOCTYPE a [
        <!ENTITY tag "tag:example.com,">
        <!ENTITY quoted 'say "hi" &amp; go'>
        <!ENTITY nested "&tag;2024 &#233;">
        <!ENTITY markup "<i>bold</i>">
      ]>
      <a><b t="&quoted;">&tag;2024:1</b><b>&nested;</b><b>x &markup; y</b></a>
      """
    #expect(
      try matches(xml, ["a.b": "b"]) == [
        #"b=tag:example.com,2024:1[t=say "hi" & go]"#, "b=tag:example.com,2024 é",
        "b=x bold y",
      ])
  }

  @Test func theFirstDeclarationOfANameCounts() throws {
    let xml = #"<!DOCTYPE a [<!ENTITY e "first"><!ENTITY e "second">]><a><b>&e;</b></a>"#
    #expect(try matches(xml, ["a.b": "b"]) == ["b=first"])
  }

  @Test func aRawAmpersandIsNamedWithItsPlace() {
    let xml = "<a>\n<b>ok</b>\n<b>Tom & Jerry</b>\n</a>"
    #expect(
      failure(xml)
        == .malformed(
          line: 3, column: 9, reason: "an `&` that does not start an entity (write `&amp;`)"))
    #expect(
      failure(#"<a><b c="x & y">t</b></a>"#)
        == .malformed(
          line: 1, column: 13, reason: "an `&` that does not start an entity (write `&amp;`)"))
  }

  @Test func anAmpersandInCDATAOrACommentIsText() throws {
    #expect(
      try matches("<a><!-- a & b --><b><![CDATA[a & b]]></b></a>", ["a.b": "b"]) == ["b=a & b"])
  }

  @Test func anUndeclaredEntityIsNamed() {
    #expect(
      failure("<a>\n  <b>&nbsp;</b></a>")
        == .malformed(line: 2, column: 12, reason: "the entity `&nbsp;` is not declared"))
  }

  @Test func externalEntitiesAreNeverRead() throws {
    let passwd = #"<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]>"#
    #expect(
      failure(passwd + "<a><b>&x;</b></a>")
        == .malformed(
          line: 1, column: 64,
          reason: "the entity `&x;` is external, and external entities are never read"))
    // Declared and not used: the document reads, and nothing of the file appears.
    #expect(try matches(passwd + "<a><b>t</b></a>", ["a.b": "b"]) == ["b=t"])
    let publicDTD = #"<!DOCTYPE a PUBLIC "-//x//EN" "file:///etc/passwd"><a><b>t</b></a>"#
    #expect(try matches(publicDTD, ["a.b": "b"]) == ["b=t"])
  }

  @Test func externalParameterEntitiesAreNeverRead() {
    let xml = #"<!DOCTYPE a [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]><a/>"#
    #expect(
      failure(xml)
        == .malformed(
          line: 1, column: 59,
          reason: "the parameter entity `%p;` is external, and external entities are never read"))
  }

  @Test func internalParameterEntitiesAreExpanded() throws {
    let xml =
      #"<!DOCTYPE a [<!ENTITY % d "<!ENTITY e 'from a parameter entity'>"> %d;]><a><b>&e;</b></a>"#
    #expect(try matches(xml, ["a.b": "b"]) == ["b=from a parameter entity"])
  }

  @Test func aBillionLaughsStopsAtTheBound() {
    // Ten levels of ten references: 10⁹ copies of "lol" if expanded.
    var declarations = #"<!ENTITY l0 "lol">"#
    for level in 1...9 {
      let references = String(repeating: "&l\(level - 1);", count: 10)
      declarations += #"<!ENTITY l\#(level) "\#(references)">"#
    }
    let xml = "<!DOCTYPE a [\(declarations)]>\n<a><b>&l9;</b></a>"
    guard case .malformed(let line, let column, let reason) = failure(xml) else {
      Issue.record("expected a malformed document")
      return
    }
    #expect((line, column) == (2, 11))
    #expect(reason == "an entity refers to itself, or its expansion passes libxml2's limits")
  }

  /// The reason of the error `xml` gives, parsed without xmllint (which, reading no entity,
  /// accepts these documents).
  private func reason(_ xml: String, _ paths: KeyValuePairs<String, String> = ["a.b": "b"])
    -> String?
  {
    do {
      try XMLPathParser(paths).parse(Data(xml.utf8)) { _ in }
      return nil
    } catch {
      guard case .malformed(_, _, let reason) = error as? XMLPathError else { return "\(error)" }
      return reason
    }
  }

  private let beyondTheLimit =
    "the entities expand the document beyond the limit (past 8 MiB, at most 100 times the "
    + "bytes read, and never past 64 MiB)"

  /// One entity of 50,000 bytes referenced 50,000 times: 200 KB that would be 2.5 GB.
  private let large = #"<!ENTITY q "\#(String(repeating: "A", count: 50_000))">"#
  private let references = String(repeating: "&q;", count: 50_000)

  @Test func oneLargeEntityReferencedOftenStopsAtTheBound() {
    #expect(reason("<!DOCTYPE a [\(large)]><a><b>\(references)</b></a>") == beyondTheLimit)
    #expect(reason("<!DOCTYPE a [\(large)]><a><c>\(references)</c></a>") == beyondTheLimit)
  }

  @Test func oneLargeEntityInAnAttributeStopsAtTheBound() {
    #expect(
      reason(#"<!DOCTYPE a [\#(large)]><a><b c="\#(references)"/></a>"#, ["a.b@c": "c"])
        == beyondTheLimit)
  }

  @Test func oneLargeEntityDeclaredByAParameterEntityStopsAtTheBound() {
    // libxml2 2.9 refuses a second reference to one parameter entity in the internal subset
    // ("error detected in Markup declaration"), so the many references are the general one's.
    let declaring = #"<!ENTITY % d '\#(large)'>%d;"#
    #expect(reason("<!DOCTYPE a [\(declaring)]><a><b>\(references)</b></a>") == beyondTheLimit)
  }

  @Test func oneLargeDefaultedAttributeOnManyElementsStopsAtTheBound() {
    // Each <b/> gets the 50,000 bytes of the attribute's default: 2.5 GB for 200 KB.
    let attribute = #"<!ATTLIST b c CDATA "\#(String(repeating: "A", count: 50_000))">"#
    let elements = String(repeating: "<b/>", count: 50_000)
    #expect(
      reason("<!DOCTYPE a [\(attribute)]><a>\(elements)</a>", ["a.b@c": "c"]) == beyondTheLimit)
  }

  @Test func expansionsUpToTheThresholdRead() throws {
    // 160 references of 50,000 bytes: 8,000,000 bytes, under 8 MiB however short the document.
    let references = String(repeating: "&q;", count: 160)
    var texts: [String] = []
    try XMLPathParser(["a.b": 0]).parse(
      Data("<!DOCTYPE a [\(large)]><a><b>\(references)</b></a>".utf8)
    ) {
      texts.append($0.text)
    }
    #expect(texts.map(\.utf8.count) == [8_000_000])
  }

  @Test func pastTheThresholdALongDocumentMayExpandAHundredTimes() throws {
    // 9 MB of expansion from the 138 KB read by its last reference (65 times) reads; past
    // 15.9 MB (100 times the bytes read then) it does not.
    let padding = "<!--\(String(repeating: " ", count: 110_000))-->"
    let entity = #"<!ENTITY q "\#(String(repeating: "A", count: 1_000))">"#
    func document(_ count: Int) -> String {
      "<!DOCTYPE a [\(entity)]>\(padding)<a><b>\(String(repeating: "&q;", count: count))</b></a>"
    }
    #expect(reason(document(9_000)) == nil)
    #expect(reason(document(20_000)) == beyondTheLimit)
  }

  @Test func aLoopIsAnError() {
    let xml = #"<!DOCTYPE a [<!ENTITY x "&y;"><!ENTITY y "1&x;">]><a><b>&x;</b></a>"#
    #expect(
      failure(xml)
        == .malformed(
          line: 1, column: 60,
          reason: "an entity refers to itself, or its expansion passes libxml2's limits"))
  }

  @Test func aLessThanFromAnEntityInAnAttributeIsAnError() {
    let xml = #"<!DOCTYPE a [<!ENTITY x "<i/>">]><a><b c="&x;"/></a>"#
    #expect(
      failure(xml)
        == .malformed(
          line: 1, column: 46, reason: "a `<` in an attribute value (write `&lt;`)"))
  }

  @Test func libxmlsErrorsAfterAnExpansionPointAtTheDocumentAsWritten() throws {
    // The same error where the references are plain text of their length.
    let expanding = """
      <!DOCTYPE a [<!ENTITY long "a long replacement text">]>
      <a><b>&long;&long;</b></c></a>
      """
    let plain = """
      <!DOCTYPE a [<!ENTITY long "a long replacement text">]>
      <a><b>123456123456</b></c></a>
      """
    let error = try #require(failure(expanding))
    #expect(error == failure(plain))
    guard case .malformed(let line, _, let reason) = error else { return }
    #expect(line == 2)
    #expect(reason == "an end tag does not match its start tag")
  }

  @Test func anEmptyDocumentSaysSo() {
    #expect(failure("") == .empty)
    #expect(XMLPathError.empty.description == "the document is empty (0 bytes)")
  }
}
