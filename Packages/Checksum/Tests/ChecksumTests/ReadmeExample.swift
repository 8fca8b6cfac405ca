import Checksum
import Foundation

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(data: Data, url: URL) throws {
  // snippet: readme
  var hasher = SHA256()
  hasher.update(data)
  let hex = hasher.finalize()  // 64 lowercase hex digits
  let file = try SHA256.hex(ofFileAt: url)
  // end
}
