import DataFetchFeature
import Foundation
import StyleGuide

/// Prints the fetcher's values to standard output: framed on a terminal, plain lines
/// otherwise, or one JSON object per line.
struct FetchOutput {
  var json: Bool

  func print(_ state: DataFetchViewModel.State) throws {
    try Terminal.write(render(state) + "\n")
  }

  func render(_ state: DataFetchViewModel.State) -> String {
    if json {
      return Self.json(state)
    }
    let lines = [state.responseCodeLabel, state.timesFetchedLabel]
    guard Terminal.isTerminal(Terminal.standardOutput) else {
      return lines.joined(separator: "\n")
    }
    return Frame.box(lines, styles: .forStream(Terminal.standardOutput))
  }

  /// `{"responseCode":"<uuid>"|null,"timesFetched":<n>}`
  private static func json(_ state: DataFetchViewModel.State) -> String {
    JSONOutput.string(FetchValues(state))
  }
}
