import Foundation

/// Why a partial result could not be read.
public struct PartialFileError: Error, Equatable, CustomStringConvertible {
  public let description: String
}

extension Partial {
  private static let magic = Array("fetcher-partial-7\n".utf8)

  /// The partial result in a compact binary form, for `Partial(serialized:)` elsewhere. The
  /// tables are written as arrays of little-endian words, so that reading them back is a copy
  /// and a check, not a parse.
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
      let (arena, ends) = table.storage
      out.array(ends)
      out.array(arena)
    }
    out.array(clients.pages)
    if options.sessionGap != nil { out.array(clients.times) }
    for ends in [clients.ends.entries, clients.ends.exits] {
      out.int(ends.count)
      for (page, count) in ends.sorted(by: { $0.key < $1.key }) {
        out.int(Int(page))
        out.int(count)
      }
    }
    // With `uniqueClients`, each sequence and client once; otherwise each sequence and its
    // count: the counts, then the ids, shard after shard.
    let table = options.uniqueClients ? pairs : windows
    var ids: [Int32] = []
    ids.reserveCapacity(table.count * table.width)
    var counts: [Int64]? = options.uniqueClients ? nil : []
    counts?.reserveCapacity(table.count)
    for shard in table.shards { shard.appendEntries(ids: &ids, counts: &counts) }
    if let counts { out.array(counts) }
    out.array(ids)
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
    self = try data.withUnsafeBytes { raw in
      var input = ByteReader(raw)
      _ = try input.bytes(Self.magic.count)
      return try Partial(reading: &input)
    }
  }

  private init(reading input: inout ByteReader) throws {
    let options = try Self.decodedOptions(try input.bytes(try input.count()))
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
    pages = try input.strings(of: "pages")
    clients.names = try input.strings(of: "clients")
    clients.pages = try input.array(of: Int32.self)
    if options.sessionGap != nil { clients.times = try input.array(of: Int64.self) }
    try checkClients()
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
    let counts = options.uniqueClients ? nil : try input.array(of: Int64.self)
    let ids = try input.array(of: Int32.self)
    let width = options.length + (options.uniqueClients ? 1 : 0)
    guard ids.count % width == 0, counts == nil || counts?.count == ids.count / width else {
      throw PartialFileError(description: "the sequences are of the wrong form")
    }
    guard input.isAtEnd else { throw PartialFileError(description: "trailing bytes") }
    for (index, id) in ids.enumerated()
    where id < 0 || id >= (index % width < options.length ? pages.count : clients.count) {
      throw PartialFileError(description: "a sequence of the wrong form")
    }
    try addSequences(ids: ids, counts: counts)
  }

  /// Checks each client's first and last pages, and times, as read.
  private func checkClients() throws {
    let keep = clients.keep
    guard clients.pages.count == clients.count * clients.stride,
      options.sessionGap == nil || clients.times.count == 2 * clients.count
    else { throw PartialFileError(description: "the clients are of the wrong form") }
    for client in 0..<clients.count {
      let word = clients.pages[client * clients.stride + 2 * keep]
      let counts = PathCounts(word)
      guard counts.word == word, (1...keep).contains(counts.tails),
        (1...keep).contains(counts.heads)
      else { throw PartialFileError(description: "a client's paths are of the wrong form") }
      guard (clients.head(client) + clients.tail(client)).allSatisfy({ $0 < pages.count }) else {
        throw PartialFileError(description: "a client's page is out of range")
      }
      if options.sessionGap != nil {
        let (first, last) = (clients.times[2 * client], clients.times[2 * client + 1])
        guard Self.timeBounds.contains(first), Self.timeBounds.contains(last), first <= last
        else { throw PartialFileError(description: "a client's times are out of range") }
      }
    }
  }

  /// Adds the sequences read, each `ids` (its pages, then with `uniqueClients` its client,
  /// all checked to be in range) and, without `uniqueClients`, a count; shard after shard,
  /// and the shards on every core.
  private mutating func addSequences(ids: [Int32], counts: [Int64]?) throws {
    let options = self.options
    let unique = options.uniqueClients
    let width = options.length + (unique ? 1 : 0)
    let lines = self.lines
    let sums = SequenceHasher.with(
      length: options.length, pages: pages.hashes, clients: clients.names.hashes
    ) { hasher in
      // Where each shard's sequences start (the sequences of a shard that is out of order
      // are found below, each outside its shard).
      let starts = ids.withUnsafeBufferPointer { ids in
        (0...WindowTable.shardCount).map { shard in
          var (low, high) = (0, ids.count / width)
          while low < high {
            let middle = (low + high) / 2
            let hash = hasher.sequence(ids.baseAddress! + middle * width)
            if WindowTable.shard(of: hash) < shard { low = middle + 1 } else { high = middle }
          }
          return low
        }
      }
      return windows.shards.withUnsafeMutableBufferPointer { windowShards in
        pairs.shards.withUnsafeMutableBufferPointer { pairShards in
          ids.withUnsafeBufferPointer { ids in
            // Safe: each iteration changes only its own shard of each table.
            nonisolated(unsafe) let windowShards = windowShards
            nonisolated(unsafe) let pairShards = pairShards
            nonisolated(unsafe) let hasher = hasher
            nonisolated(unsafe) let ids = ids
            return concurrentMap(WindowTable.shardCount) { shard -> Result<Int, PartialFileError> in
              var sum = 0
              let entries = starts[shard]..<max(starts[shard], starts[shard + 1])
              if unique {
                pairShards[shard].reserve(entries.count, rehash: hasher.pair)
              } else {
                windowShards[shard].reserve(entries.count, rehash: hasher.sequence)
              }
              for entry in entries {
                let sequence = ids.baseAddress! + entry * width
                let amount = counts.map { Int($0[entry]) } ?? 1
                sum += min(amount, Self.maxLines + 1)
                guard amount > 0, sum <= lines else {
                  return .failure(
                    PartialFileError(description: "the counts add up to more than the lines"))
                }
                let hash = hasher.sequence(sequence)
                guard WindowTable.shard(of: hash) == shard else {
                  return .failure(PartialFileError(description: "a sequence out of its place"))
                }
                let new =
                  unique
                  ? pairShards[shard].add(
                    sequence, hash: hasher.pair(sequence), amount: 1, rehash: hasher.pair)
                  : windowShards[shard].add(
                    sequence, hash: hash, amount: amount, rehash: hasher.sequence)
                guard new else {
                  return .failure(PartialFileError(description: "a repeated sequence"))
                }
                if unique {
                  windowShards[shard].add(sequence, hash: hash, amount: 1, rehash: hasher.sequence)
                }
              }
              return .success(sum)
            }
          }
        }
      }
    }
    var sum = 0
    for result in sums {
      sum += try result.get()
      guard sum <= lines else {
        throw PartialFileError(description: "the counts add up to more than the lines")
      }
    }
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

/// Little-endian integers, raw bytes, and arrays of integers (their count, then each).
private struct ByteWriter {
  var data = Data()

  mutating func int(_ value: Int) {
    withUnsafeBytes(of: UInt64(value).littleEndian) { data.append(contentsOf: $0) }
  }

  mutating func bytes(_ bytes: some Collection<UInt8>) {
    data.append(contentsOf: bytes)
  }

  mutating func signed(_ value: Int64) {
    withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
  }

  mutating func array<Word: FixedWidthInteger>(_ words: [Word]) {
    int(words.count)
    #if _endian(little)
      words.withUnsafeBytes { data.append(contentsOf: $0) }
    #else
      data.append(contentsOf: words.map(\.littleEndian).withUnsafeBytes { Data($0) })
    #endif
  }
}

/// Reads what `ByteWriter` wrote, every read checked against the end.
private struct ByteReader {
  private let raw: UnsafeRawBufferPointer
  private var offset = 0

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

  mutating func array<Word: FixedWidthInteger>(of type: Word.Type) throws -> [Word] {
    let count = try self.count()
    let bytes = try take(count * MemoryLayout<Word>.size)
    return [Word](unsafeUninitializedCapacity: count) { words, initialized in
      UnsafeMutableRawBufferPointer(words).copyMemory(from: bytes)
      #if _endian(big)
        for index in 0..<count { words[index] = Word(littleEndian: words[index]) }
      #endif
      initialized = count
    }
  }

  /// Strings as `Interner.storage` gives them; `what` names them in errors.
  mutating func strings(of what: String) throws -> Interner {
    let ends = try array(of: Int.self)
    let arena = try array(of: UInt8.self)
    let strings = ends.withUnsafeBufferPointer { ends in
      arena.withUnsafeBytes { Interner(arena: $0, ends: ends) }
    }
    guard let strings else {
      throw PartialFileError(description: "the \(what) are of the wrong form")
    }
    return strings
  }
}
