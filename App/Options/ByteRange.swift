import ArgumentParser

/// `START-END`: bytes START to END of a file, END not included (`--byte-range`).
struct ByteRange: ExpressibleByArgument {
  let range: Range<Int>

  init?(argument: String) {
    let parts = argument.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, let start = Int(parts[0]), let end = Int(parts[1]), start >= 0,
      start <= end
    else { return nil }
    range = start..<end
  }
}
