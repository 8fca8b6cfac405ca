import Foundation

/// Why a partial result could not be read.
public struct PartialFileError: Error, Equatable, CustomStringConvertible {
  public let description: String
  package init(description: String) { self.description = description }
}

/// What a partial file says before its tables: the options, where it came from, the line
/// counts, the format, the first malformed line and the time range.
package struct PartialHeader {
  package var options: AnalysisOptions
  package var source: PartialSource?
  package var lines = 0
  var malformedLines = 0
  var filteredLines = 0
  var commentLines = 0
  /// Format 11 on; 0 before.
  var unreadableRequests = 0
  var timeRangeOffsets = TimeRangeOffsets()
  var formatName: String?
  var firstMalformed: [UInt8]?
  var timeRange: ClosedRange<Int64>?
}

/// Little-endian integers, raw bytes, and arrays of integers (their count, then each): kept in
/// `data`, or handed on a piece at a time to a function that takes them (a file's writer).
struct ByteWriter {
  var data: Data
  /// Takes what `data` holds once it holds `pieceSize` bytes, and large arrays where they lie.
  private let emit: ((UnsafeRawBufferPointer) -> Void)?
  private static let pieceSize = 1 << 16

  init(capacity: Int = 0) {
    data = Data(capacity: capacity)
    emit = nil
  }

  /// A writer that hands its bytes to `emit` in order; `flush()` hands on the last of them.
  init(emit: @escaping (UnsafeRawBufferPointer) -> Void) {
    data = Data(capacity: Self.pieceSize)
    self.emit = emit
  }

  /// Hands what `data` holds to the function given at `init(emit:)`, if any.
  mutating func flush() {
    guard let emit, !data.isEmpty else { return }
    data.withUnsafeBytes(emit)
    data.removeAll(keepingCapacity: true)
  }

  mutating func int(_ value: Int) {
    withUnsafeBytes(of: UInt64(value).littleEndian) { raw($0) }
  }

  mutating func bytes(_ bytes: some Collection<UInt8>) {
    data.append(contentsOf: bytes)
    if emit != nil && data.count >= Self.pieceSize { flush() }
  }

  mutating func signed(_ value: Int64) {
    withUnsafeBytes(of: value.littleEndian) { raw($0) }
  }

  mutating func array<Word: FixedWidthInteger>(_ words: [Word]) {
    arrays([words])
  }

  /// `parts` joined, written as one array.
  mutating func arrays<Word: FixedWidthInteger>(_ parts: [[Word]]) {
    int(parts.reduce(0) { $0 + $1.count })
    for words in parts {
      #if _endian(little)
        words.withUnsafeBytes { raw($0) }
      #else
        words.map(\.littleEndian).withUnsafeBytes { raw($0) }
      #endif
    }
  }

  private mutating func raw(_ bytes: UnsafeRawBufferPointer) {
    if let emit, bytes.count >= Self.pieceSize {
      flush()
      emit(bytes)
    } else {
      data.append(contentsOf: bytes)
      if emit != nil && data.count >= Self.pieceSize { flush() }
    }
  }

  mutating func header(_ header: PartialHeader) {
    bytes(Self.encoded(header.options))
    int(Int(header.source?.run ?? 0))
    int(header.source?.bytes ?? 0)
    let input = Array((header.source?.input ?? "").utf8)
    int(input.count)
    bytes(input)
    int(header.lines)
    int(header.malformedLines)
    int(header.filteredLines)
    int(header.commentLines)
    let formatName = Array((header.formatName ?? "").utf8)
    int(formatName.count)
    bytes(formatName)
    int(header.firstMalformed.map { $0.count + 1 } ?? 0)
    bytes(header.firstMalformed ?? [])
    int(header.timeRange == nil ? 0 : 1)
    signed(header.timeRange?.lowerBound ?? 0)
    signed(header.timeRange?.upperBound ?? 0)
    int(header.unreadableRequests)
    signed(header.timeRangeOffsets.earliest)
    signed(header.timeRangeOffsets.latest)
  }

  /// The options as JSON, with their length first.
  private static func encoded(_ options: AnalysisOptions) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    // Options hold strings, numbers and arrays of them only, so encoding cannot fail.
    let json = try! encoder.encode(options)
    var out = ByteWriter()
    out.int(json.count)
    out.bytes(json)
    return Array(out.data)
  }
}

/// Reads what `ByteWriter` wrote, every read checked against the end.
struct ByteReader {
  private let raw: UnsafeRawBufferPointer
  private var offset = 0
  /// The partial file format being read (see `Partial.reader`).
  var version = 9

  init(_ raw: UnsafeRawBufferPointer) {
    self.raw = raw
  }

  var isAtEnd: Bool { offset == raw.count }

  private mutating func take(_ count: Int) throws -> UnsafeRawBufferPointer {
    guard count >= 0, raw.count - offset >= count else {
      throw PartialFileError(description: "the partial result is truncated")
    }
    defer { offset += count }
    return UnsafeRawBufferPointer(rebasing: raw[offset..<offset + count])
  }

  mutating func bytes(_ count: Int) throws -> [UInt8] {
    Array(try take(count))
  }

  mutating func int() throws -> Int {
    let value = UInt64(littleEndian: try take(8).loadUnaligned(as: UInt64.self))
    guard value <= UInt64(Int.max) else {
      throw PartialFileError(description: "a number is out of range")
    }
    return Int(value)
  }

  mutating func signed() throws -> Int64 {
    Int64(littleEndian: try take(8).loadUnaligned(as: Int64.self))
  }

  /// A count, bounded so that a corrupt file cannot ask for absurd allocations.
  mutating func count() throws -> Int {
    let value = try int()
    guard value <= raw.count else {
      throw PartialFileError(description: "a count is out of range")
    }
    return value
  }

  /// An array as `ByteWriter.array` wrote it, where it is.
  mutating func view<Word: FixedWidthInteger>(of type: Word.Type) throws -> WordView<Word> {
    let count = try self.count()
    return WordView(bytes: try take(count * MemoryLayout<Word>.size))
  }

  mutating func header() throws -> PartialHeader {
    let options = try Self.decodedOptions(try bytes(try count()))
    var header = PartialHeader(options: options)
    let run = try int()
    let bytes = try int()
    let name = String(decoding: try self.bytes(try count()), as: UTF8.self)
    if run != 0 { header.source = PartialSource(input: name, bytes: bytes, run: UInt64(run)) }
    header.lines = try int()
    header.malformedLines = try int()
    header.filteredLines = try int()
    header.commentLines = try int()
    let format = String(decoding: try self.bytes(try count()), as: UTF8.self)
    header.formatName = format.isEmpty ? nil : format
    let sample = try count()
    if sample > 0 { header.firstMalformed = try self.bytes(sample - 1) }
    let hasTimes = try int()
    let (earliest, latest) = (try signed(), try signed())
    guard hasTimes <= 1, earliest <= latest else {
      throw PartialFileError(description: "the time range is out of order")
    }
    guard Partial.timeBounds.contains(earliest), Partial.timeBounds.contains(latest) else {
      throw PartialFileError(description: "the time range is out of range")
    }
    if hasTimes == 1 { header.timeRange = earliest...latest }
    if version >= 11 {
      header.unreadableRequests = try int()
      header.timeRangeOffsets = TimeRangeOffsets(earliest: try signed(), latest: try signed())
      // A day each way, checked without abs(), which traps on Int64.min.
      let day: ClosedRange<Int64> = -86_400...86_400
      guard day.contains(header.timeRangeOffsets.earliest),
        day.contains(header.timeRangeOffsets.latest)
      else { throw PartialFileError(description: "a time zone offset is out of range") }
    }
    let (lines, malformed) = (header.lines, header.malformedLines)
    guard lines <= Partial.maxLines, malformed <= lines,
      header.filteredLines <= lines - malformed, header.commentLines <= Partial.maxLines,
      header.unreadableRequests <= lines - malformed - header.filteredLines
    else {
      throw PartialFileError(description: "the line counts are out of range")
    }
    return header
  }

  private static func decodedOptions(_ json: [UInt8]) throws -> AnalysisOptions {
    guard let options = try? JSONDecoder().decode(AnalysisOptions.self, from: Data(json)),
      (1...10).contains(options.length), (options.sessionGap ?? 0) >= 0
    else { throw PartialFileError(description: "unsupported options in the partial result") }
    return options
  }
}

/// The arrays of a partial file after its header, where they lie, in the order that
/// `Partial.serialized(indexed:)` writes them; the index's are empty unless it was indexed.
struct PartialSections {
  var pageEnds: WordView<Int>
  var pageNames: WordView<UInt8>
  var clientEnds: WordView<Int>
  var clientNames: WordView<UInt8>
  var clientRows: WordView<Int32>
  var clientTimes: WordView<Int64>
  /// Page and count, the paths that began (or ended) inside.
  var entries: WordView<Int>
  var exits: WordView<Int>
  /// Each sequence's count (none with `uniqueClients`), then its ids.
  var counts: WordView<Int64>
  var ids: WordView<Int32>
  /// The index: the hashes of the sequences (`ids` without `uniqueClients`, else the
  /// sequences of `windowIds` and `windowCounts`); of the sequences and clients of `ids`
  /// with `uniqueClients`; of the clients' names; the paths entering and leaving by each
  /// page; the sum of the sequences' counts and the paths that began inside.
  var windowHashes: WordView<UInt64>
  var windowIds: WordView<Int32>
  var windowCounts: WordView<Int64>
  var pairHashes: WordView<UInt64>
  var clientHashes: WordView<UInt64>
  var entryCounts: WordView<Int64>
  var exitCounts: WordView<Int64>
  var totals: WordView<Int64>
  /// The panels' tables (none before format 9).
  var panels = PanelSections()
  /// The funnel's counts (none before format 10).
  var funnel = FunnelSections()
  /// The names of the clients of the visits that named no page (none before format 12).
  var pagelessEnds = WordView<Int>()
  var pagelessNames = WordView<UInt8>()

  /// Reads them, to the file's end.
  init(reading input: inout ByteReader) throws {
    pageEnds = try input.view(of: Int.self)
    pageNames = try input.view(of: UInt8.self)
    clientEnds = try input.view(of: Int.self)
    clientNames = try input.view(of: UInt8.self)
    clientRows = try input.view(of: Int32.self)
    clientTimes = try input.view(of: Int64.self)
    entries = try input.view(of: Int.self)
    exits = try input.view(of: Int.self)
    counts = try input.view(of: Int64.self)
    ids = try input.view(of: Int32.self)
    windowHashes = try input.view(of: UInt64.self)
    windowIds = try input.view(of: Int32.self)
    windowCounts = try input.view(of: Int64.self)
    pairHashes = try input.view(of: UInt64.self)
    clientHashes = try input.view(of: UInt64.self)
    entryCounts = try input.view(of: Int64.self)
    exitCounts = try input.view(of: Int64.self)
    totals = try input.view(of: Int64.self)
    if input.version >= 9 { panels = try PanelSections(reading: &input) }
    if input.version >= 10 { funnel = try FunnelSections(reading: &input) }
    if input.version >= 12 {
      pagelessEnds = try input.view(of: Int.self)
      pagelessNames = try input.view(of: UInt8.self)
    }
    if input.version >= 13 {
      panels.pagelessHits = try input.view(of: Int.self)
      panels.pagelessBytes = try input.view(of: Int.self)
    }
    guard input.isAtEnd else { throw PartialFileError(description: "trailing bytes") }
  }

  /// The clients of the visits that named no page, of which there were `unreadable`.
  static func pagelessClients(_ sections: PartialSections, unreadable: Int)
    throws(PartialFileError) -> Interner
  {
    let clients = try strings(sections.pagelessEnds, sections.pagelessNames, of: "clients")
    guard clients.count <= unreadable else {
      throw PartialFileError(description: "more clients without a page than such visits")
    }
    return clients
  }

  /// The strings of `ends` and `names`; `what` names them in errors.
  static func strings(_ ends: WordView<Int>, _ names: WordView<UInt8>, of what: String)
    throws(PartialFileError) -> Interner
  {
    let strings = ends.array().withUnsafeBufferPointer { Interner(arena: names.bytes, ends: $0) }
    guard let strings else {
      throw PartialFileError(description: "the \(what) are of the wrong form")
    }
    return strings
  }
}

/// Little-endian words where they lie in a file's bytes, read one at a time.
struct WordView<Word: FixedWidthInteger>: @unchecked Sendable {
  let bytes: UnsafeRawBufferPointer
  let count: Int

  init(bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
    count = bytes.count / MemoryLayout<Word>.size
  }

  /// No words.
  init() {
    self.init(bytes: UnsafeRawBufferPointer(start: nil, count: 0))
  }

  /// The words, copied.
  func array() -> [Word] {
    [Word](unsafeUninitializedCapacity: count) { buffer, initialized in
      UnsafeMutableRawBufferPointer(buffer).copyMemory(from: bytes)
      #if _endian(big)
        for index in 0..<count { buffer[index] = Word(littleEndian: buffer[index]) }
      #endif
      initialized = count
    }
  }

  /// The least and the greatest of the words in `range`, which lies in the view: one pass
  /// without a check for each word, which the compiler turns into vector instructions.
  func extremes(of range: Range<Int>) -> (min: Word, max: Word) {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "words past the view")
    var (low, high) = (Word.max, Word.min)
    for index in range {
      let word = Word(
        littleEndian: bytes.loadUnaligned(
          fromByteOffset: index * MemoryLayout<Word>.size, as: Word.self))
      low = Swift.min(low, word)
      high = Swift.max(high, word)
    }
    return (low, high)
  }

  @inline(__always)
  subscript(index: Int) -> Word {
    precondition(UInt(bitPattern: index) < UInt(count), "a word past the view")
    return Word(
      littleEndian: bytes.loadUnaligned(
        fromByteOffset: index * MemoryLayout<Word>.size, as: Word.self))
  }
}
