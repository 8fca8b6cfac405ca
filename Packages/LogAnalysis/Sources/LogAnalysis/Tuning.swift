/// The numbers the counting runs on, each with the reason for its value. Changing one changes
/// speed or memory, never the answer; `Benchmarks/analyze.sh` measures them.
@usableFromInline enum Tuning {
  /// How many items ahead of the one being worked on to prefetch (clients' pages, interned
  /// strings' slots): far enough that a cache miss (~100 ns) hides behind the work on the
  /// ones between, near enough that the prefetched lines are still cached when reached.
  static let prefetchDistance = 16

  /// How full the sequence table may get, as tenths: linear probing stays short below 70%,
  /// and a table of large windows should not double sooner than it must.
  static let windowTableMaxLoadTenths = 7

  /// How full the string interner may get, as tenths: 50%, since its slots are small and a
  /// miss there (a new page or client) is the common case of a large log.
  static let internerMaxLoadTenths = 5

  /// The bytes each core reads at a time from a plain file with `pread`: large enough that
  /// system calls cost little, small enough to stay in the L2 cache while lines are parsed.
  @usableFromInline static let fileBlockSize = 256 << 10

  /// The bytes read to find a log's format: enough for a W3C header and many lines.
  static let formatSampleSize = 64 << 10

  /// The bytes read at a time from a W3C log, which is read on one core as a stream (a later
  /// `#Fields:` header changes the lines after it).
  static let w3cBlockSize = 4 << 20

  /// The bytes of a stream (standard input, gzip) analysed at a time: large enough to keep
  /// every core busy on its share, bounded so that memory stays flat.
  @usableFromInline static let streamBlockSize = 32 << 20

  /// The longest line that is read as a line: 1 MiB. Apache refuses a request line or a
  /// header field over 8,190 bytes (`LimitRequestLine`, `LimitRequestFieldSize`), so a real
  /// access-log line is a few times that at most; a longer one is junk (a binary file, a
  /// stream without newlines), counted as one malformed line and skipped as it is read,
  /// without holding more than this of it.
  static let maxLineLength = 1 << 20

  /// Whether a line of `count` bytes (without its newline) is too long to be read.
  @inline(__always) static func isOverlong(_ count: Int) -> Bool { count > maxLineLength }
}
