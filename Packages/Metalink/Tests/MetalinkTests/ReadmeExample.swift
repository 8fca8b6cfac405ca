import Foundation
import Metalink

/// The README's example: compiled, not run.
private func readmeExample(metalinkURL: URL) throws {
  // snippet: readme
  let metalink = try Metalink(Data(contentsOf: metalinkURL))
  for file in metalink.files {
    print(file.name, file.size ?? 0, file.strongestHash?.description ?? "no hash")
    print(file.orderedURLs(preferring: ["de"]))
  }
  // end
}
