/// The bound on what a document's DTD may add to it: the replacement texts of its entity
/// references, and the attribute values it supplies by default. libxml2 2.9 (Debian 12's)
/// stops a reference loop and a "billion laughs", but not one large entity referenced many
/// times: 200 KB of `&q;` to an entity of 50,000 bytes are 2.5 GB of text. So each reference
/// is counted as it is looked up, and each defaulted attribute as its element starts, against
/// the bytes of the document read so far, as expat counts ("billion laughs attack
/// protection"):
///
/// - up to `threshold` (8 MiB, expat's activation threshold) anything may be added;
/// - past it, at most `factor` (100, expat's maximum amplification) times the bytes read;
/// - and never more than `ceiling` (64 MiB) in all, however long the document: no document
///   this package reads (a feed, a Metalink) needs more, and the text it adds is held whole.
struct EntityExpansion {
  static let threshold = 8 << 20
  static let factor = 100
  static let ceiling = 64 << 20

  /// The bytes added so far.
  private(set) var added = 0

  /// Counts `length` more bytes added when `read` bytes of the document have been read; false
  /// when the additions now pass the bound.
  mutating func add(_ length: Int, read: Int) -> Bool {
    added += max(0, length)
    return added <= Self.threshold || (added <= Self.factor * max(read, 1) && added <= Self.ceiling)
  }

  /// Why the document was refused, for `XMLPathError.malformed`.
  static let reason =
    "the entities expand the document beyond the limit (past 8 MiB, at most 100 times "
    + "the bytes read, and never past 64 MiB)"
}
