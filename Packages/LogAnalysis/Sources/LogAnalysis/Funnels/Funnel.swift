/// The steps of a funnel (`AnalysisOptions.funnel`), each a glob of pages: `*` matches any run
/// of bytes (`/` and `?` too), anything else itself. A path reaches a step when it visits a
/// page of that step after reaching the one before; other pages may come between.
struct FunnelSteps: Sendable {
  /// Steps a funnel may have: a step's pages are a bit of a 16-bit mask.
  static let counts = 2...16

  let globs: [[UInt8]]

  init(_ steps: [String]) {
    globs = steps.map { Array($0.utf8) }
  }

  var count: Int { globs.count }

  /// The steps `page` is a page of: bit `k` for step `k + 1`.
  func mask(of page: UnsafeRawBufferPointer) -> UInt16 {
    var mask: UInt16 = 0
    for (index, glob) in globs.enumerated() where Self.matches(page, glob) {
      mask |= 1 << index
    }
    return mask
  }

  /// Whether `glob` matches all of `text`, `*` matching any run of bytes.
  static func matches(_ text: UnsafeRawBufferPointer, _ glob: [UInt8]) -> Bool {
    let star = UInt8(ascii: "*")
    var (position, index) = (0, 0)
    // Where the last star was, and the text's position it is retried from.
    var (starIndex, retry) = (-1, 0)
    while position < text.count {
      if index < glob.count && glob[index] == star {
        (starIndex, retry) = (index, position)
        index += 1
      } else if index < glob.count && glob[index] == text[position] {
        index += 1
        position += 1
      } else if starIndex >= 0 {
        retry += 1
        (position, index) = (retry, starIndex + 1)
      } else {
        return false
      }
    }
    while index < glob.count && glob[index] == star { index += 1 }
    return index == glob.count
  }

  /// Checks the steps of `AnalysisOptions.funnel`: none, or 2 to 16 that are not empty.
  static func check(_ steps: [String]) throws(AnalysisOptionError) {
    guard !steps.isEmpty else { return }
    guard counts.contains(steps.count) else {
      throw AnalysisOptionError(
        "a funnel has \(counts.lowerBound) to \(counts.upperBound) steps, not \(steps.count)")
    }
    guard !steps.contains(where: \.isEmpty) else {
      throw AnalysisOptionError("a funnel's step is a page or a glob, not empty")
    }
  }
}

/// How far the paths went through a funnel (`AnalysisOptions.funnel`).
public struct FunnelReport: Sendable, Equatable {
  /// One step: its glob, the paths that reached it, and how long they took from the step
  /// before.
  public struct Step: Sendable, Equatable {
    public var glob: String
    /// Paths that reached this step (and every one before it, in order).
    public var paths: Int
    /// The paths that reached the step before but not this one; 0 for the first step.
    public var dropOff: Int
    /// The median of the seconds from the step before to this one, over the paths that
    /// reached this one (the mean of the two middle times for an even number); nil for the
    /// first step, or when none reached it.
    public var medianSeconds: Double?

    public init(glob: String, paths: Int, dropOff: Int, medianSeconds: Double?) {
      self.glob = glob
      self.paths = paths
      self.dropOff = dropOff
      self.medianSeconds = medianSeconds
    }
  }

  public var steps: [Step]
  /// All the paths, the funnel's base: those that reached no step too.
  public var paths: Int

  public init(steps: [Step], paths: Int) {
    self.steps = steps
    self.paths = paths
  }
}

extension AnalysisOptions {
  /// The steps of a funnel written as `--funnel` takes them, separated by commas
  /// (`/,/products/*,/cart`); throws for fewer than 2 or more than 16, or an empty one.
  public static func funnelSteps(_ text: String) throws(AnalysisOptionError) -> [String] {
    let steps = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    try FunnelSteps.check(steps)
    return steps
  }
}
