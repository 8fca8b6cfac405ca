import ChecksumTypes
import Foundation

#if canImport(CCrypto)
  import CCrypto
#elseif canImport(CommonCrypto)
  import CommonCrypto
#endif

/// A digest fed incrementally or over a file, from the system's crypto library: OpenSSL's EVP
/// on Linux, CommonCrypto on Apple platforms (CryptoKit has no SHA-224; that path is not
/// built by this repository's CI, which runs on Linux).
public struct Digest: ~Copyable {
  public let algorithm: DigestAlgorithm

  #if canImport(CCrypto)
    private let context: OpaquePointer

    public init(_ algorithm: DigestAlgorithm) {
      self.algorithm = algorithm
      guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, Self.md(algorithm), nil) == 1
      else { fatalError("libcrypto cannot set up \(algorithm.displayName)") }
      self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    private static func md(_ algorithm: DigestAlgorithm) -> OpaquePointer? {
      switch algorithm {
      case .md5: EVP_md5()
      case .sha1: EVP_sha1()
      case .sha224: EVP_sha224()
      case .sha256: EVP_sha256()
      case .sha384: EVP_sha384()
      case .sha512: EVP_sha512()
      }
    }

    /// Adds `bytes` to the digest.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
      guard let base = bytes.baseAddress, bytes.count > 0 else { return }
      EVP_DigestUpdate(context, base, bytes.count)
    }

    /// The digest of everything added, in lowercase hex; the digest starts again empty.
    public mutating func finalize() -> String {
      var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
      var length: UInt32 = 0
      EVP_DigestFinal_ex(context, &digest, &length)
      EVP_DigestInit_ex(context, Self.md(algorithm), nil)
      return Self.hex(digest.prefix(Int(length)))
    }
  #else
    /// CommonCrypto's state of each family (SHA-224 runs in SHA-256's, SHA-384 in SHA-512's).
    private enum State {
      case md5(CC_MD5_CTX)
      case sha1(CC_SHA1_CTX)
      case sha256(CC_SHA256_CTX)
      case sha512(CC_SHA512_CTX)
    }

    private var state: State

    public init(_ algorithm: DigestAlgorithm) {
      self.algorithm = algorithm
      state = Self.start(algorithm)
    }

    private static func start(_ algorithm: DigestAlgorithm) -> State {
      switch algorithm {
      case .md5:
        var context = CC_MD5_CTX()
        CC_MD5_Init(&context)
        return .md5(context)
      case .sha1:
        var context = CC_SHA1_CTX()
        CC_SHA1_Init(&context)
        return .sha1(context)
      case .sha224, .sha256:
        var context = CC_SHA256_CTX()
        _ = algorithm == .sha224 ? CC_SHA224_Init(&context) : CC_SHA256_Init(&context)
        return .sha256(context)
      case .sha384, .sha512:
        var context = CC_SHA512_CTX()
        _ = algorithm == .sha384 ? CC_SHA384_Init(&context) : CC_SHA512_Init(&context)
        return .sha512(context)
      }
    }

    /// Adds `bytes` to the digest.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
      guard let base = bytes.baseAddress, bytes.count > 0 else { return }
      let length = CC_LONG(bytes.count)
      switch state {
      case .md5(var context):
        CC_MD5_Update(&context, base, length)
        state = .md5(context)
      case .sha1(var context):
        CC_SHA1_Update(&context, base, length)
        state = .sha1(context)
      case .sha256(var context):
        _ =
          algorithm == .sha224
          ? CC_SHA224_Update(&context, base, length) : CC_SHA256_Update(&context, base, length)
        state = .sha256(context)
      case .sha512(var context):
        _ =
          algorithm == .sha384
          ? CC_SHA384_Update(&context, base, length) : CC_SHA512_Update(&context, base, length)
        state = .sha512(context)
      }
    }

    /// The digest of everything added, in lowercase hex; the digest starts again empty.
    public mutating func finalize() -> String {
      var digest = [UInt8](repeating: 0, count: algorithm.hexDigits / 2)
      switch state {
      case .md5(var context): CC_MD5_Final(&digest, &context)
      case .sha1(var context): CC_SHA1_Final(&digest, &context)
      case .sha256(var context):
        _ =
          algorithm == .sha224
          ? CC_SHA224_Final(&digest, &context) : CC_SHA256_Final(&digest, &context)
      case .sha512(var context):
        _ =
          algorithm == .sha384
          ? CC_SHA384_Final(&digest, &context) : CC_SHA512_Final(&digest, &context)
      }
      state = Self.start(algorithm)
      return Self.hex(digest)
    }
  #endif

  /// Adds `data` to the digest.
  public mutating func update(_ data: some DataProtocol) {
    for region in data.regions {
      region.withUnsafeBytes { update($0) }
    }
  }

  /// The digest of the file at `url`, read in 1 MiB blocks, in hex.
  public static func hex(_ algorithm: DigestAlgorithm, ofFileAt url: URL) throws -> String {
    var digest = Digest(algorithm)
    try digest.update(fileAt: url, upTo: nil)
    return digest.finalize()
  }

  /// Adds the first `limit` bytes of the file at `url` (all of it when nil), read in 1 MiB
  /// blocks. Throws when the file cannot be read or is shorter than `limit`.
  public mutating func update(fileAt url: URL, upTo limit: Int64?) throws {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    var remaining = limit ?? .max
    while remaining > 0 {
      guard let block = try handle.read(upToCount: Int(min(remaining, 1 << 20))), !block.isEmpty
      else { break }
      update(block)
      remaining -= Int64(block.count)
    }
    if limit != nil, remaining > 0 {
      throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: url.path])
    }
  }

  private static func hex(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
