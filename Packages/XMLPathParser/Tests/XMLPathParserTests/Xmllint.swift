import Foundation
import Testing
import XMLPathParser

/// Checks a document against `xmllint --noout --nonet` (Debian's libxml2-utils, which
/// `.ci/run` installs): what the parser accepted, xmllint accepts, and what it refused,
/// xmllint refuses, apart from two differences on purpose. An external entity is refused here
/// (xmllint without `--noent` passes over it), and namespace errors (an undeclared prefix) are
/// not errors here, where names are matched with their prefixes as written. (A text node over
/// 10 MB is also fine here: xmllint's limit is for the tree it builds, and nothing is built
/// here.)
func expectXmllintAgrees(
  _ document: Data, parsed error: (any Error)?, sourceLocation: SourceLocation = #_sourceLocation
) {
  let xmllint = "/usr/bin/xmllint"
  guard FileManager.default.isExecutableFile(atPath: xmllint) else {
    Issue.record("install xmllint (apt-get install libxml2-utils)", sourceLocation: sourceLocation)
    return
  }
  let file = FileManager.default.temporaryDirectory.appendingPathComponent(
    "xmllint-\(UUID().uuidString).xml")
  defer { try? FileManager.default.removeItem(at: file) }
  let process = Process()
  process.executableURL = URL(fileURLWithPath: xmllint)
  process.arguments = ["--noout", "--nonet", file.path]
  let errors = Pipe()
  process.standardError = errors
  process.standardOutput = FileHandle.nullDevice
  do {
    try document.write(to: file)
    try process.run()
  } catch {
    Issue.record("xmllint did not run: \(error)", sourceLocation: sourceLocation)
    return
  }
  let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  process.waitUntilExit()
  let accepted = process.terminationStatus == 0
  let onlyNamespaces =
    said.contains("huge text node")
    || said.split(separator: "\n").filter { $0.contains(" error : ") }
      .allSatisfy { $0.contains("namespace error") }
  let refusedExternal = "\(error.map { "\($0)" } ?? "")".contains("external")
  switch (error == nil, accepted) {
  case (true, false) where onlyNamespaces, (false, true) where refusedExternal, (true, true),
    (false, false):
    break
  default:
    Issue.record(
      "parsed: \(error.map { "\($0)" } ?? "fine"); xmllint: \(accepted ? "fine" : said)",
      sourceLocation: sourceLocation)
  }
}

/// The texts of what `paths` find in `document`, whose verdict is checked against xmllint's.
func texts(
  in document: Data, _ paths: KeyValuePairs<String, Int> = ["a.b": 0],
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> [String] {
  var found: [String] = []
  do {
    _ = try XMLPathParser(paths).parse(document) { found.append($0.text) }
  } catch {
    expectXmllintAgrees(document, parsed: error, sourceLocation: sourceLocation)
    throw error
  }
  expectXmllintAgrees(document, parsed: nil, sourceLocation: sourceLocation)
  return found
}
