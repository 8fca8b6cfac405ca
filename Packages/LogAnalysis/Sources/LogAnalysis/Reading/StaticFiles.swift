/// Images, stylesheets, scripts and fonts, by extension, as GoAccess leaves them out.
enum StaticFiles {
  static let extensions: Set<String> = [
    "png", "jpg", "jpeg", "gif", "ico", "svg", "webp", "bmp", "tif", "tiff", "avif",
    "css", "js", "mjs", "map",
    "woff", "woff2", "ttf", "otf", "eot",
  ]

  /// Each extension's bytes in one number, first byte highest: what `matches` compares, so
  /// that a page costs no string (making, lowercasing and hashing one took 9% of the time of
  /// `--exclude-static` on a 1 GB log).
  private static let keys: [UInt64] = extensions.map {
    $0.utf8.reduce(0) { $0 << 8 | UInt64($1) }
  }

  /// Whether the path of `page` (before any `?`) ends in a static extension, in any case.
  static func matches(_ line: UnsafeRawBufferPointer, _ page: Range<Int>) -> Bool {
    var end = page.lowerBound
    while end < page.upperBound && line[end] != UInt8(ascii: "?") { end += 1 }
    var dot = end
    while dot > page.lowerBound && line[dot - 1] != UInt8(ascii: ".")
      && line[dot - 1] != UInt8(ascii: "/")
    {
      dot -= 1
    }
    guard dot > page.lowerBound, line[dot - 1] == UInt8(ascii: "."), end - dot <= 5 else {
      return false
    }
    var key: UInt64 = 0
    for index in dot..<end {
      let byte = line[index]
      // Every extension is ASCII without zeros: no other byte is in one (nor lowercases into
      // one), and without zeros no two extensions make one number.
      guard (1..<0x80).contains(byte) else { return false }
      let lower = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
      key = key << 8 | UInt64(lower)
    }
    return keys.contains(key)
  }
}
