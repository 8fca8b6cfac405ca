import Foundation
import LogAnalysis

/// The ranking of an analysis as a table, JSON or CSV, and its summary line.
struct AnalysisReport {
  let partial: Partial
  let sequences: [RankedSequence]

  init(partial: Partial, top: Int) {
    self.partial = partial
    sequences = partial.ranking(top: top)
  }

  private func share(_ count: Int) -> Double {
    partial.total > 0 ? Double(count) / Double(partial.total) : 0
  }

  /// Rank, count, share and the sequence as `a → b → c`.
  func table() -> String {
    let countWidth = max(5, sequences.map { String($0.count).count }.max() ?? 0)
    var lines = [
      "rank  " + "count".leftPadded(countWidth) + "   share  sequence"
    ]
    for (index, sequence) in sequences.enumerated() {
      let share = String(format: "%6.2f%%", self.share(sequence.count) * 100)
      lines.append(
        String(index + 1).leftPadded(4) + "  " + String(sequence.count).leftPadded(countWidth)
          + "  " + share + "  " + sequence.pageTexts.joined(separator: " → "))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  func json() -> String {
    let entries: [[String: any Sendable]] = sequences.enumerated().map { index, sequence in
      [
        "rank": index + 1, "count": sequence.count, "share": share(sequence.count),
        "pages": sequence.pageTexts,
      ]
    }
    let object: [String: any Sendable] = [
      "length": partial.options.length,
      "counting": partial.options.uniqueClients ? "clients" : "occurrences",
      "lines": partial.lines, "malformedLines": partial.malformedLines,
      "clients": partial.clientCount, "distinctSequences": partial.distinctSequences,
      "sequences": entries,
    ]
    // Only strings, numbers and arrays of them go in, so serialisation cannot fail.
    let data = try! JSONSerialization.data(
      withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    return String(decoding: data, as: UTF8.self) + "\n"
  }

  func csv() -> String {
    let header = ["rank", "count", "share"] + (1...partial.options.length).map { "page\($0)" }
    var lines = [header.joined(separator: ",")]
    for (index, sequence) in sequences.enumerated() {
      let fields =
        [String(index + 1), String(sequence.count), String(share(sequence.count))]
        + sequence.pageTexts.map(Self.csvField)
      lines.append(fields.joined(separator: ","))
    }
    return lines.joined(separator: "\r\n") + "\r\n"
  }

  private static func csvField(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
      return text
    }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// Lines read, malformed lines, clients, distinct sequences, time and speed.
  func summary(bytes: Int, elapsed: Duration) -> String {
    let seconds = max(
      1e-9, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    return String(
      format: "%d lines, %d malformed, %d clients, %d distinct sequences in %.2f s (%.0f MB/s)",
      partial.lines, partial.malformedLines, partial.clientCount, partial.distinctSequences,
      seconds, Double(bytes) / seconds / 1e6)
  }
}
