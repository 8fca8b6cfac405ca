import Foundation
import Testing
import XMLPathParser

/// Documents of each kind XML 1.0 (5th edition) decides, written here, checked by libxml2 and
/// (through `matches`) against xmllint.
@Suite struct WellFormednessTests {
  private func refused(_ xml: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(throws: XMLPathError.self, sourceLocation: sourceLocation) {
      _ = try matches(xml, ["a.b": "b"], sourceLocation: sourceLocation)
    }
  }

  @Test func faultsInsideTheDoctypeAreErrors() {
    refused("<!DOCTYPE a [<!ELEMENT a (b>]><a/>")  // an unclosed content model
    refused("<!DOCTYPE a [<!ATTLIST a b CDATA>]><a/>")  // an attribute without its default
    refused(#"<!DOCTYPE a PUBLIC "bad{id" "x.dtd"><a/>"#)  // a public id with a `{`
    refused(#"<!DOCTYPE [<!ENTITY e "x">]><a/>"#)  // a doctype without its name
  }

  @Test func anEntityWhoseTextIsNotBalancedMarkupIsAnError() {
    refused(#"<!DOCTYPE a [<!ENTITY e "</b><b>">]><a><b>&e;</b></a>"#)
  }

  @Test func validDocumentsOfEachKindRead() throws {
    #expect(try matches("<a><b>&#0000000065;</b></a>", ["a.b": "b"]) == ["b=A"])
    // A reference inside CDATA is no reference.
    #expect(
      try matches(#"<!DOCTYPE a [<!ENTITY e "<![CDATA[&amp;]]>">]><a><b>&e;</b></a>"#, ["a.b": "b"])
        == ["b=&amp;"])
    #expect(try matches(#"<?xml version="1.7"?><a><b>x</b></a>"#, ["a.b": "b"]) == ["b=x"])
  }

  /// XML 1.0 keeps the CR an entity's `&#13;` puts in its text (libxml2 2.9 alone, and
  /// `xmllint --noent`, give an LF); in an attribute, or as a literal CR in a tag of the entity's text, it is
  /// white space, a space.
  @Test func anEntitysCarriageReturnStaysACarriageReturn() throws {
    let doctype =
      #"<!DOCTYPE a [<!ENTITY e "x&#13;y"><!ENTITY f "1&#13;<c k='&#13;'>2&#13;</c>">]>"#
    #expect(try matches(doctype + "<a><b>&e;</b></a>", ["a.b": "b"]) == ["b=x\ry"])
    #expect(try matches(doctype + "<a><b>&f;</b></a>", ["a.b": "b"]) == ["b=1\r2\r"])
    #expect(try matches(doctype + "<a><b>&f;</b></a>", ["a.b.c": "c"]) == ["c=2\r[k= ]"])
    #expect(try matches(doctype + #"<a><b k="&e;"/></a>"#, ["a.b@k": "k"]) == ["k=[k=x y]"])
    #expect(try matches(doctype + "<a><b>\r\n&#13;</b></a>", ["a.b": "b"]) == ["b=\n\r"])
  }
}
