import DownloadClient
import DownloadRPCService
import Foundation

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(client: DownloadClient, folder: URL) async {
  // snippet: readme
  let service = Aria2Service(
    client: client,
    settings: Aria2Service.Settings(folder: folder, secret: "s3cret", version: "1.0")
  ) { print("asked to shut down") }
  await service.start()  // follows the manager's events, for the notifications
  let body = Data(
    #"{"jsonrpc":"2.0","id":1,"method":"aria2.getVersion","params":["token:s3cret"]}"#.utf8)
  let answer = await service.answer(body)  // the JSON-RPC answer, as text
  // end
  _ = answer
}
