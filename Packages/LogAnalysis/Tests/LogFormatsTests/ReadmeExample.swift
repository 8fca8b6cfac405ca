import LogFormats

/// The README's example of LogFormats alone, which CI checks is this code
/// (`Scripts/check-readme-snippets.py`); compiled, not run.
private func readmeExample(log: String) throws {
  // snippet: readme
  let reader = try LogLineReader(LogLineReader.format(of: log), header: log)
  for text in log.split(separator: "\n") {
    guard let line = reader.read(String(text)) else { continue }  // malformed
    print(line.client, line.page ?? "-", line.status ?? 0)
  }
  // end
}
