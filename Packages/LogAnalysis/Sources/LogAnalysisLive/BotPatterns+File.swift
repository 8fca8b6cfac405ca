import Foundation
import LogAnalysis

extension BotPatterns {
  /// The fragments the bots file at `path` lists (see `listed(in:)`); an error when it cannot
  /// be read as UTF-8 text.
  public static func listed(inFileAt path: String) throws(AnalysisOptionError) -> [String] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      throw AnalysisOptionError("cannot read \(path) as UTF-8 text")
    }
    return listed(in: text)
  }
}
