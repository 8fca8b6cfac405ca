/// The numbers the counting runs on, each with the reason for its value. Changing one changes
/// speed or memory, never the answer; `Benchmarks/analyze.sh` measures them.
@usableFromInline package enum Tuning {
  /// How many items ahead of the one being worked on to prefetch (clients' pages, interned
  /// strings' slots): far enough that a cache miss (~100 ns) hides behind the work on the
  /// ones between, near enough that the prefetched lines are still cached when reached.
  package static let prefetchDistance = 16

  /// How full the sequence table may get, as tenths: linear probing stays short below 70%,
  /// and a table of large windows should not double sooner than it must.
  package static let windowTableMaxLoadTenths = 7

  /// How full the string interner may get, as tenths: 50%, since its slots are small and a
  /// miss there (a new page or client) is the common case of a large log.
  package static let internerMaxLoadTenths = 5

  /// The bytes each core reads at a time from a plain file with `pread`: large enough that
  /// system calls cost little, small enough to stay in the L2 cache while lines are parsed.
  @usableFromInline package static let fileBlockSize = 256 << 10

  /// The bytes read to find a log's format: enough for a W3C header and many lines.
  package static let formatSampleSize = 64 << 10

  /// The bytes read at a time from a W3C log, which is read on one core as a stream (a later
  /// `#Fields:` header changes the lines after it).
  package static let w3cBlockSize = 4 << 20

  /// The bytes of a stream (standard input, gzip) analysed at a time: large enough to keep
  /// every core busy on its share, bounded so that memory stays flat.
  @usableFromInline package static let streamBlockSize = 32 << 20

  /// The most partial results `--merge` joins where they lie: a join looks at the next entry
  /// of every part for each hash it walks, so with many parts loading them (a core's worth at
  /// a time) costs less. The 200 MB log in 16 splits: 0.21 s joined, 0.23 s loaded; in 64:
  /// 0.37 s joined, 0.29 s loaded.
  package static let joinedPartsMax = 16
}
