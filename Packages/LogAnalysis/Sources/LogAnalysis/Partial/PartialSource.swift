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

  /// Why `self` and `other` must not be merged, or nil when they may.
  public func clash(with other: PartialSource) -> String? {
    if run == other.run { return "the same partial result" }
    if input == other.input && input != "-" && bytes == other.bytes {
      return "partial results of the same input, \(input) (\(bytes) bytes)"
    }
    return nil
  }
}
