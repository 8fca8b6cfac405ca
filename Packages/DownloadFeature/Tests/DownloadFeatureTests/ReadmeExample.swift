import DownloadClient
import DownloadFeature

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(client: DownloadClient, render: ([DownloadRow]) -> Void) async {
  // snippet: readme
  var list = DownloadList()
  for await event in client.events() {
    list.apply(event)
    render(list.rows)
  }
  // end
}
