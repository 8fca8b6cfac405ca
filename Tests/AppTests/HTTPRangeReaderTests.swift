import Testing

@testable import fetcher

/// `analyze URL --byte-range` takes a server's word for its log's size only when it can be one
/// (G10 of the fifth security round: -5 and 2^63-1 trapped).
@Suite struct HTTPRangeReaderTests {
  @Test(arguments: [-5, -1, Int64.max, HTTPRangeReader.largestSize + 1])
  func anImpossibleSizeIsAnError(size: Int64) {
    #expect(throws: (any Error).self) { try HTTPRangeReader.checked(size, of: "http://h/log") }
  }

  @Test(arguments: [0, 1, HTTPRangeReader.largestSize])
  func aPossibleSizeIsTaken(size: Int64) throws {
    #expect(try HTTPRangeReader.checked(size, of: "http://h/log") == Int(size))
  }
}
