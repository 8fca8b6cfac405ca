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
    // XML 1.0 keeps the CR of an entity's `&#13;`; libxml2 2.9 (and xmllint --noent) give LF.
    #expect(
      try matches(#"<!DOCTYPE a [<!ENTITY e "&#13;">]><a><b>x&e;y</b></a>"#, ["a.b": "b"])
        == ["b=x\ny"])
  }
}
