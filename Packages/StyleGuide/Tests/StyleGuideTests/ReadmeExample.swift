import StyleGuide

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(
  draw: @escaping @Sendable (String) -> Void, clear: @escaping @Sendable () -> Void,
  work: () async -> Int
) async {
  // snippet: readme
  let styles = Styles.forStream(1)
  print(Frame.box(["Response Code: …", "Times Fetched: 3"], styles: styles))
  let value = await Spinner.run(clock: ContinuousClock(), show: draw, hide: clear) { await work() }
  // end
  _ = value  // the example ends with the value it shows
}
