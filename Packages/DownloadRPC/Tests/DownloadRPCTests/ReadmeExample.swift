import DownloadRPC
import Foundation

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(body: Data) async -> Data? {
  // snippet: readme
  let answer = await RPCResponse.answer(body) { request in
    request.method == "aria2.getVersion"
      ? .success(.object(["version": "1.0"])) : .failure(.methodNotFound(request.method))
  }
  // end
  return answer
}
