import ChecksumTypes
import Foundation

/// A Metalink document: the files it describes, each with its size, hashes and mirrors.
/// Metalink 4 (RFC 5854, `urn:ietf:params:xml:ns:metalink`) and Metalink 3
/// (`http://www.metalinker.org/`) are read alike.
public struct Metalink: Equatable, Sendable {
  public var files: [File]

  public init(files: [File]) {
    self.files = files
  }

  /// One file: where to write it, what it must be, and where to get it.
  public struct File: Equatable, Sendable {
    /// The name to write it under, as the document gives it (it may hold folders).
    public var name: String
    public var size: Int64?
    /// The file's hashes of the known types, in the document's order.
    public var hashes: [FileChecksum]
    /// The hashes of its pieces, when the document gives them.
    public var pieces: PieceChecksums?
    /// The http and https URLs, in the document's order (other schemes are left out).
    public var urls: [Mirror]

    public init(
      name: String, size: Int64? = nil, hashes: [FileChecksum] = [],
      pieces: PieceChecksums? = nil, urls: [Mirror] = []
    ) {
      self.name = name
      self.size = size
      self.hashes = hashes
      self.pieces = pieces
      self.urls = urls
    }

    /// The strongest hash: SHA-512 before SHA-384, SHA-256, SHA-224, SHA-1 and MD5.
    public var strongestHash: FileChecksum? {
      hashes.max { $0.algorithm.strength < $1.algorithm.strength }
    }

    /// The URLs to try, best first: those in `locations` (ISO 3166 codes, in the order
    /// given) before the others, then by priority (1 first; none last), then as written.
    public func orderedURLs(preferring locations: [String] = []) -> [URL] {
      let wanted = locations.map { $0.lowercased() }
      func rank(_ mirror: Mirror) -> Int {
        mirror.location.flatMap { wanted.firstIndex(of: $0.lowercased()) } ?? wanted.count
      }
      return urls.enumerated().sorted { first, second in
        let (a, b) = (first.element, second.element)
        if rank(a) != rank(b) { return rank(a) < rank(b) }
        if a.priority != b.priority { return (a.priority ?? .max) < (b.priority ?? .max) }
        return first.offset < second.offset
      }.map(\.element.url)
    }
  }

  /// A URL of a file, with its priority (1 is the best; Metalink 3's `preference`, 100 the
  /// best, reads as 101 minus it) and the country it is in.
  public struct Mirror: Equatable, Sendable {
    public var url: URL
    public var priority: Int?
    public var location: String?

    public init(url: URL, priority: Int? = nil, location: String? = nil) {
      self.url = url
      self.priority = priority
      self.location = location
    }
  }
}

extension DigestAlgorithm {
  /// The order of the algorithms from weakest to strongest.
  var strength: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}
