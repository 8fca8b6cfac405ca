import Foundation

/// The hash functions and the checksums of files, as names and hex digits: what a download
/// asks for, without the code that computes them (`Digest`, in `Checksum`).

/// The hash functions a download can be checked with: aria2c's names (`--checksum`,
/// `checksum=` in an input file, Metalink's `type`), each with the length of its hex digest.
public enum DigestAlgorithm: String, CaseIterable, Sendable, Codable {
  case md5 = "md5"
  case sha1 = "sha-1"
  case sha224 = "sha-224"
  case sha256 = "sha-256"
  case sha384 = "sha-384"
  case sha512 = "sha-512"

  /// The algorithm `name` names: aria2c's (`sha-1`), also without the dash (`sha1`), in any
  /// case; nil for another.
  public init?(name: String) {
    let lowered = name.lowercased()
    guard
      let algorithm = Self.allCases.first(where: {
        $0.rawValue == lowered || $0.rawValue.replacingOccurrences(of: "-", with: "") == lowered
      })
    else { return nil }
    self = algorithm
  }

  /// How many hex digits a digest has.
  public var hexDigits: Int {
    switch self {
    case .md5: 32
    case .sha1: 40
    case .sha224: 56
    case .sha256: 64
    case .sha384: 96
    case .sha512: 128
    }
  }

  /// The name as people write it: MD5, SHA-1, SHA-256, …
  public var displayName: String { rawValue.uppercased() }
}

/// A digest the finished file must have: aria2c's `TYPE=HEX` (`sha-1=0a4d…`), for MD5, SHA-1,
/// SHA-224, SHA-256, SHA-384 and SHA-512.
public struct FileChecksum: Hashable, Codable, Sendable, CustomStringConvertible {
  public var algorithm: DigestAlgorithm
  /// The digest in lowercase hex.
  public var hex: String

  /// `hex` (any case) as a digest of `algorithm`; nil when it is not that many hex digits.
  public init?(_ algorithm: DigestAlgorithm, hex: String) {
    guard hex.count == algorithm.hexDigits, hex.allSatisfy(\.isHexDigit) else { return nil }
    self.algorithm = algorithm
    self.hex = hex.lowercased()
  }

  /// `TYPE=HEX` as aria2c's `--checksum` and input files take it (the type also without its
  /// dash, in any case: `SHA1=…`); nil for another type or a digest of the wrong length.
  public init?(_ text: String) {
    guard let equals = text.firstIndex(of: "="),
      let algorithm = DigestAlgorithm(name: String(text[..<equals]))
    else { return nil }
    self.init(algorithm, hex: String(text[text.index(after: equals)...]))
  }

  /// `sha-1=0a4d…`
  public var description: String { "\(algorithm.rawValue)=\(hex)" }

  /// What the types are called in messages: `md5, sha-1, sha-224, sha-256, sha-384, sha-512`.
  public static let typeNames = DigestAlgorithm.allCases.map(\.rawValue).joined(separator: ", ")
}

/// The digests of a file's pieces of `length` bytes each (the last may be shorter), as a
/// Metalink gives them: a damaged piece can be found, and fetched again alone.
public struct PieceChecksums: Hashable, Codable, Sendable {
  public var algorithm: DigestAlgorithm
  public var length: Int64
  /// Each piece's digest, in hex (lowercase), in order.
  public var hashes: [String]

  /// Nil unless `length` is positive and every hash has the algorithm's number of hex digits.
  public init?(_ algorithm: DigestAlgorithm, length: Int64, hashes: [String]) {
    let lowered = hashes.map { $0.lowercased() }
    guard length > 0,
      lowered.allSatisfy({ $0.count == algorithm.hexDigits && $0.allSatisfy(\.isHexDigit) })
    else { return nil }
    self.algorithm = algorithm
    self.length = length
    self.hashes = lowered
  }

  /// The bytes of piece `index` in a file of `size` bytes.
  public func range(of index: Int, size: Int64) -> Range<Int64> {
    let start = Int64(index) * length
    return start..<min(size, start + length)
  }

  /// Whether the pieces cover a file of `size` bytes exactly.
  public func fits(size: Int64) -> Bool {
    Int64(hashes.count) == (size + length - 1) / length
  }
}
