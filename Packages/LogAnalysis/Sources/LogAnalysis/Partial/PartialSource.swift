/// Where a partial result came from, kept in its file so that merging refuses to count the
/// same lines twice: the same file given twice, or two results of the same input.
public struct PartialSource: Sendable, Equatable {
  /// The input as it was given (`-` for standard input).
  public var input: String
  /// The input's size in bytes.
  public var bytes: Int
  /// Random, one per written result.
  public var run: UInt64

  public init(input: String, bytes: Int, run: UInt64 = .random(in: 1...UInt64(Int.max))) {
    self.input = input
    self.bytes = bytes
    self.run = run
  }

  /// The source of a split (`fetcher analyze --byte-range`): the lines of the file `file`
  /// that begin in `range`, `bytes` bytes read. Its input is `FILE bytes START-END`.
  public static func split(of file: String, range: Range<Int>, bytes: Int) -> PartialSource {
    PartialSource(input: "\(file) bytes \(range.lowerBound)-\(range.upperBound)", bytes: bytes)
  }

  /// The file and the range of a split's source, as `split(of:range:bytes:)` names them; nil
  /// for any other source.
  public var split: (file: String, range: Range<Int>)? {
    guard let marker = input.ranges(of: " bytes ").last else { return nil }
    let bounds = input[marker.upperBound...].split(
      separator: "-", omittingEmptySubsequences: false)
    guard bounds.count == 2, let start = Int(bounds[0]), let end = Int(bounds[1]),
      0 <= start, start <= end
    else { return nil }
    return (String(input[..<marker.lowerBound]), start..<end)
  }

  /// Why `self` and `other` must not be merged, or nil when they may.
  public func clash(with other: PartialSource) -> String? {
    if run == other.run { return "the same partial result" }
    if input == other.input && input != "-" && bytes == other.bytes {
      return "partial results of the same input, \(input) (\(bytes) bytes)"
    }
    if let mine = split, let theirs = other.split, mine.file == theirs.file,
      mine.range.overlaps(theirs.range)
    {
      return "splits of \(mine.file) whose byte ranges overlap"
    }
    return nil
  }
}
