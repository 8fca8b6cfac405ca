import Foundation

/// Why a partial result could not be read.
public struct PartialFileError: Error, Equatable, CustomStringConvertible {
  public let description: String
}

extension Partial {
  private static let magic = Array("fetcher-partial-6\n".utf8)

  /// The partial result in a compact binary form, for `Partial(serialized:)` elsewhere.
  public func serialized() -> Data {
    var out = ByteWriter()
    out.bytes(Self.magic)
    out.bytes(Self.encoded(options))
    out.int(Int(source?.run ?? 0))
    out.int(source?.bytes ?? 0)
    let input = Array((source?.input ?? "").utf8)
    out.int(input.count)
    out.bytes(input)
    out.int(lines)
    out.int(malformedLines)
    out.int(filteredLines)
    out.int(commentLines)
    let formatName = Array((self.formatName ?? "").utf8)
    out.int(formatName.count)
    out.bytes(formatName)
    out.int(firstMalformed.map { $0.count + 1 } ?? 0)
    out.bytes(firstMalformed ?? [])
    out.int(timeRange == nil ? 0 : 1)
    out.signed(timeRange?.lowerBound ?? 0)
    out.signed(timeRange?.upperBound ?? 0)
    for table in [pages, clients.names] {
      out.int(table.count)
      for id in 0..<Int32(table.count) {
        let bytes = table.bytes(id)
        out.int(bytes.count)
        out.bytes(bytes)
      }
    }
    for client in 0..<clients.count {
      out.ids(clients.head(client))
      out.ids(clients.tail(client))
      out.int(clients.counts(client).closed ? 1 : 0)
      if options.sessionGap != nil {
        out.signed(clients.times[2 * client])
        out.signed(clients.times[2 * client + 1])
      }
    }
    for ends in [clients.ends.entries, clients.ends.exits] {
      out.int(ends.count)
      for (page, count) in ends.sorted(by: { $0.key < $1.key }) {
        out.int(Int(page))
        out.int(count)
      }
    }
    // With `uniqueClients`, each sequence and client once; otherwise each sequence's count.
    let table = options.uniqueClients ? pairs : windows
    out.int(table.count)
    table.forEachEntry { ids, count in
      out.ids(ids)
      if !options.uniqueClients { out.int(count) }
    }
    return out.data
  }

  /// Reads what `serialized()` wrote; throws `PartialFileError` on anything else.
  public init(serialized data: Data) throws {
    guard data.starts(with: Self.magic) else {
      if data.starts(with: Array("fetcher-partial-".utf8)) {
        throw PartialFileError(
          description: "a partial result of another fetcher version: analyse its log again")
      }
      throw PartialFileError(description: "not a fetcher partial result")
    }
    var input = ByteReader(data)
    _ = try input.bytes(Self.magic.count)
    let options = try Self.decodedOptions(try input.bytes(try input.count()))
    let length = options.length
    self.init(options: options)
    let run = try input.int()
    let bytes = try input.int()
    let name = String(decoding: try input.bytes(try input.count()), as: UTF8.self)
    if run != 0 { source = PartialSource(input: name, bytes: bytes, run: UInt64(run)) }
    lines = try input.int()
    malformedLines = try input.int()
    filteredLines = try input.int()
    commentLines = try input.int()
    let format = String(decoding: try input.bytes(try input.count()), as: UTF8.self)
    formatName = format.isEmpty ? nil : format
    let sample = try input.count()
    if sample > 0 { firstMalformed = try input.bytes(sample - 1) }
    let hasTimes = try input.int()
    let (earliest, latest) = (try input.signed(), try input.signed())
    guard hasTimes <= 1, earliest <= latest else {
      throw PartialFileError(description: "the time range is out of order")
    }
    guard Self.timeBounds.contains(earliest), Self.timeBounds.contains(latest) else {
      throw PartialFileError(description: "the time range is out of range")
    }
    if hasTimes == 1 { timeRange = earliest...latest }
    guard lines <= Self.maxLines, malformedLines <= lines, filteredLines <= lines - malformedLines,
      commentLines <= Self.maxLines
    else {
      throw PartialFileError(description: "the line counts are out of range")
    }
    for isPages in [true, false] {
      for _ in 0..<(try input.count()) {
        let bytes = try input.bytes(try input.count())
        if isPages { _ = pages.intern(bytes) } else { _ = clients.names.intern(bytes) }
      }
    }
    for client in 0..<clients.count {
      let head = try input.ids(limit: pages.count)
      let tail = try input.ids(limit: pages.count)
      guard head.count <= length - 1, tail.count <= length - 1 else {
        throw PartialFileError(description: "a client's pages do not fit the sequence length")
      }
      let closed = try input.int()
      let first = options.sessionGap == nil ? 0 : try input.signed()
      let last = options.sessionGap == nil ? 0 : try input.signed()
      guard closed <= 1, !head.isEmpty, !tail.isEmpty
      else { throw PartialFileError(description: "a client's paths are of the wrong form") }
      guard Self.timeBounds.contains(first), Self.timeBounds.contains(last), first <= last else {
        throw PartialFileError(description: "a client's times are out of range")
      }
      clients.restore(client, head: head, tail: tail, closed: closed == 1, first: first, last: last)
    }
    // Every sum below stays within the lines (a line is at most one visit, which ends at
    // most one sequence and starts at most one path), so that no merge of partials whose
    // lines add up to at most `maxLines` can overflow.
    for isEntries in [true, false] {
      var sum = 0
      for _ in 0..<(try input.count()) {
        let page = try input.int()
        let count = try input.int()
        sum += min(count, Self.maxLines + 1)
        guard page < pages.count, count > 0, sum <= lines else {
          throw PartialFileError(description: "an entry or exit count is out of range")
        }
        if isEntries {
          clients.ends.entries[Int32(page)] = count
        } else {
          clients.ends.exits[Int32(page)] = count
        }
      }
    }
    var sum = 0
    for _ in 0..<(try input.count()) {
      var ids = try input.ids(limit: pages.count + clients.count)
      guard ids.count == length + (options.uniqueClients ? 1 : 0),
        ids.prefix(length).allSatisfy({ $0 < pages.count }),
        ids.dropFirst(length).allSatisfy({ $0 < clients.count })
      else { throw PartialFileError(description: "a sequence of the wrong form") }
      let amount = options.uniqueClients ? 1 : try input.int()
      sum += min(amount, Self.maxLines + 1)
      guard amount > 0, sum <= lines else {
        throw PartialFileError(description: "the counts add up to more than the lines")
      }
      if !options.uniqueClients { ids.append(0) }
      guard add(ids, amount: amount) else {
        throw PartialFileError(description: "a repeated sequence")
      }
    }
    guard input.isAtEnd else { throw PartialFileError(description: "trailing bytes") }
  }
}

extension Partial {
  /// The options as JSON, with their length first.
  fileprivate static func encoded(_ options: AnalysisOptions) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    // Options hold strings, numbers and arrays of them only, so encoding cannot fail.
    let json = try! encoder.encode(options)
    var out = ByteWriter()
    out.int(json.count)
    out.bytes(json)
    return Array(out.data)
  }

  fileprivate static func decodedOptions(_ json: [UInt8]) throws -> AnalysisOptions {
    guard let options = try? JSONDecoder().decode(AnalysisOptions.self, from: Data(json)),
      (2...10).contains(options.length), (options.sessionGap ?? 0) >= 0
    else { throw PartialFileError(description: "unsupported options in the partial result") }
    return options
  }
}

/// Little-endian integers and raw bytes.
private struct ByteWriter {
  var data = Data()

  mutating func int(_ value: Int) {
    withUnsafeBytes(of: UInt64(value).littleEndian) { data.append(contentsOf: $0) }
  }

  mutating func bytes(_ bytes: some Sequence<UInt8>) {
    data.append(contentsOf: bytes)
  }

  mutating func signed(_ value: Int64) {
    withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
  }

  mutating func ids(_ ids: some Collection<Int32>) {
    int(ids.count)
    for id in ids { withUnsafeBytes(of: id.littleEndian) { data.append(contentsOf: $0) } }
  }
}

private struct ByteReader {
  private let data: Data
  private var offset: Int

  init(_ data: Data) {
    self.data = data
    offset = data.startIndex
  }

  var isAtEnd: Bool { offset == data.endIndex }

  mutating func bytes(_ count: Int) throws -> [UInt8] {
    guard count >= 0, data.endIndex - offset >= count else {
      throw PartialFileError(description: "the partial result is truncated")
    }
    defer { offset += count }
    return Array(data[offset..<offset + count])
  }

  mutating func int() throws -> Int {
    let bytes = try bytes(8)
    let value = bytes.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    guard value <= UInt64(Int.max) else {
      throw PartialFileError(description: "a number is out of range")
    }
    return Int(value)
  }

  mutating func signed() throws -> Int64 {
    let bytes = try bytes(8)
    return Int64(bitPattern: bytes.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
  }

  /// A count, bounded so that a corrupt file cannot ask for absurd allocations.
  mutating func count() throws -> Int {
    let value = try int()
    guard value <= data.count else {
      throw PartialFileError(description: "a count is out of range")
    }
    return value
  }

  mutating func ids(limit: Int) throws -> [Int32] {
    try (0..<(try count())).map { _ in
      let bytes = try bytes(4)
      let value = Int32(bitPattern: bytes.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
      guard value >= 0, Int(value) < limit else {
        throw PartialFileError(description: "an id is out of range")
      }
      return value
    }
  }
}
