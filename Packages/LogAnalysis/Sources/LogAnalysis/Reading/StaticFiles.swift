/// Images, stylesheets, scripts and fonts, by extension, as GoAccess leaves them out.
enum StaticFiles {
  static let extensions: Set<String> = [
    "png", "jpg", "jpeg", "gif", "ico", "svg", "webp", "bmp", "tif", "tiff", "avif",
    "css", "js", "mjs", "map",
    "woff", "woff2", "ttf", "otf", "eot",
  ]

  /// Whether the path of `page` (before any `?`) ends in a static extension.
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
    let text = String(decoding: UnsafeRawBufferPointer(rebasing: line[dot..<end]), as: UTF8.self)
    return extensions.contains(text.lowercased())
  }
}
