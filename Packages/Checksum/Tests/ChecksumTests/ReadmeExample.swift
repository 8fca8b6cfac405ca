// snippet: readme
import Checksum
import ChecksumTypes  // DigestAlgorithm
// end
import Foundation

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(data: Data, url: URL) throws {
  // snippet: readme-use
  var digest = Digest(.sha256)
  digest.update(data)
  let hex = digest.finalize()  // 64 lowercase hex digits
  let file = try Digest.hex(DigestAlgorithm(name: "sha-1")!, ofFileAt: url)
  // end
  _ = (hex, file)  // the example ends with the values it shows
}
