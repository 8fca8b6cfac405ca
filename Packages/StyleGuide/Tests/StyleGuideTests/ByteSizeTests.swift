import StyleGuide
import Testing

/// Sizes come out in the units they go in: powers of 1024 (`--max-size 200M`), as wget and
/// aria2c show them.
@Suite struct ByteSizeTests {
  @Test(arguments: [
    (Int64(0), "0 B"), (1023, "1023 B"), (1024, "1.0 KiB"), (1536, "1.5 KiB"),
    (209_715_200, "200.0 MiB"), (1_048_535, "1.0 MiB"), (5 << 30, "5.0 GiB"),
    (Int64.max, "8.0 EiB"),
  ])
  func sizesAreInPowersOf1024(bytes: Int64, text: String) {
    #expect(ByteSize.text(bytes) == text)
  }
}
