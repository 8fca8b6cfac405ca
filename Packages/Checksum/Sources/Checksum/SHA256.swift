import Foundation

#if canImport(CCrypto)
  import CCrypto
#elseif canImport(CryptoKit)
  import CryptoKit
#endif

/// SHA-256, fed incrementally: OpenSSL's EVP on Linux, CryptoKit on Apple platforms.
public struct SHA256: ~Copyable {
  #if canImport(CCrypto)
    private let context: OpaquePointer

    public init() {
      guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1
      else { fatalError("libcrypto cannot set up SHA-256") }
      self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds `bytes` to the hash.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
      guard let base = bytes.baseAddress, bytes.count > 0 else { return }
      EVP_DigestUpdate(context, base, bytes.count)
    }

    /// The hash of everything added, as 64 lowercase hex digits; the hasher starts again empty.
    public mutating func finalize() -> String {
      var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
      var length: UInt32 = 0
      EVP_DigestFinal_ex(context, &digest, &length)
      EVP_DigestInit_ex(context, EVP_sha256(), nil)
      return Self.hex(digest.prefix(Int(length)))
    }
  #else
    private var hasher = CryptoKit.SHA256()

    public init() {}

    /// Adds `bytes` to the hash.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
      hasher.update(bufferPointer: bytes)
    }

    /// The hash of everything added, as 64 lowercase hex digits; the hasher starts again empty.
    public mutating func finalize() -> String {
      defer { hasher = CryptoKit.SHA256() }
      return Self.hex(hasher.finalize())
    }
  #endif

  /// Adds `data` to the hash.
  public mutating func update(_ data: some DataProtocol) {
    for region in data.regions {
      region.withUnsafeBytes { update($0) }
    }
  }

  /// The SHA-256 of the file at `url`, read in 1 MiB blocks, as hex.
  public static func hex(ofFileAt url: URL) throws -> String {
    var hasher = SHA256()
    try hasher.update(fileAt: url, upTo: nil)
    return hasher.finalize()
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
