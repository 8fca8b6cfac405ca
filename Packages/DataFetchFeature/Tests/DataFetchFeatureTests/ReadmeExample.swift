import ContentService
import CounterService
import DataFetchFeature
import LastResponseCodeService
import Reachability

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(
  content: ContentService, counter: CounterService, last: LastResponseCodeService,
  reachability: Reachability
) async {
  // snippet: readme
  let model = DataFetchViewModel(
    content: content, counter: counter, lastResponseCode: last, reachability: reachability)
  await model.onAppear()
  await model.fetchContent()
  print(model.state().timesFetchedLabel)
  // end
}
