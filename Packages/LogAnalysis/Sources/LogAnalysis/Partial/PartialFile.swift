import Foundation

extension Partial {
  private static let magic = Array("fetcher-partial-13\n".utf8)
  /// Formats 8 (fetcher 3.1) to 12, read still: format 9 adds the panels' tables at the end,
  /// 10 the funnel's counts after them, 11 the unreadable requests to the header, 12 the
  /// clients of those requests at the end, and 13 the clients panel's counts of them after.
  private static let magic12 = Array("fetcher-partial-12\n".utf8)
  private static let magic11 = Array("fetcher-partial-11\n".utf8)
  private static let magic10 = Array("fetcher-partial-10\n".utf8)
  private static let magic9 = Array("fetcher-partial-9\n".utf8)
  private static let magic8 = Array("fetcher-partial-8\n".utf8)

  /// The partial result in a compact binary form, for `Partial(serialized:)` elsewhere. The
  /// tables are written as arrays of little-endian words, so that reading them back is a copy
  /// and a check, not a parse.
  public func serialized() -> Data {
    serialized(indexed: false)
  }

  /// The partial result as `serialized()` writes it; with `indexed`, the clients in the order
  /// of their names' hashes and the sequences in the order of theirs, followed by those hashes
  /// and the counts of path ends per page: what `IndexedPartial` reads where it lies, and
  /// `PartialFiles.join` joins without loading. Written on every core.
  public func serialized(indexed: Bool) -> Data {
    serialized(indexed: indexed, threads: .max)
  }

  /// The partial result as `serialized(indexed:)` writes it, on `threads` threads at most.
  public func serialized(indexed: Bool, threads: Int) -> Data {
    // Room for it all, so that the bytes are never copied to grow.
    let strings = [pages, clients.names, pagelessClients].map {
      $0.storage.arena.count + 8 * $0.count
    }
    let table = options.uniqueClients ? pairs : windows
    let entryBytes = table.count * (4 * table.width + 8) * (indexed ? 3 : 1)
    var out = ByteWriter(
      capacity: 4096 + strings.reduce(0, +) + 4 * clients.pages.count + 8 * clients.times.count
        + entryBytes + (indexed ? 8 * clients.count + 16 * pages.count : 0))
    write(into: &out, indexed: indexed, threads: threads)
    return out.data
  }

  /// The bytes of `serialized(indexed:threads:)` handed to `piece` in order, a piece at a
  /// time, the large tables where they lie: for writing a partial result to a file without
  /// gathering it in memory first.
  public func serialize(
    indexed: Bool, threads: Int, into piece: (UnsafeRawBufferPointer) -> Void
  ) {
    withoutActuallyEscaping(piece) { piece in
      var out = ByteWriter(emit: piece)
      write(into: &out, indexed: indexed, threads: threads)
      out.flush()
    }
  }

  private func write(into out: inout ByteWriter, indexed: Bool, threads: Int) {
    out.bytes(Self.magic)
    out.header(header)
    let clientOrder = indexed ? clients.names.order() : nil
    out.array(pages.storage.ends)
    out.array(pages.storage.arena)
    let names = clientOrder.map { clients.names.storage(in: $0) } ?? clients.names.storage
    out.array(names.ends)
    out.array(names.arena)
    let rows =
      clientOrder.map { clients.rows(in: $0) } ?? (pages: clients.pages, times: clients.times)
    out.array(rows.pages)
    out.array(rows.times)
    for ends in [clients.ends.entries, clients.ends.exits] {
      out.array(ends.sorted { $0.key < $1.key }.flatMap { [Int($0.key), $0.value] })
    }
    // With `uniqueClients`, each sequence and client once; otherwise each sequence and its
    // count: the counts, then the ids, shard after shard.
    let unique = options.uniqueClients
    let places = clientOrder.map { order in
      var places = [Int32](repeating: 0, count: order.count)
      for (place, client) in order.enumerated() { places[Int(client)] = Int32(place) }
      return places
    }
    let entries = (unique ? pairs : windows).entries(
      hashedBy: indexed ? (unique ? .pair : .sequence) : nil, of: self, clientPlaces: places,
      threads: threads)
    out.arrays(unique ? [] : entries.counts)
    out.arrays(entries.ids)
    // The index, empty unless `indexed`.
    let indexWindows =
      indexed && unique
      ? windows.entries(hashedBy: .sequence, of: self, clientPlaces: nil, threads: threads) : nil
    out.arrays(indexed ? indexWindows?.hashes ?? entries.hashes : [])
    out.arrays(indexWindows?.ids ?? [])
    out.arrays(indexWindows?.counts ?? [])
    out.arrays(indexed && unique ? entries.hashes : [])
    out.array(clientOrder.map { $0.map { clients.names.hashes[Int($0)] } } ?? [])
    for end in PathEnd.allCases {
      out.array(indexed ? pathEndCounts(end) : [])
    }
    out.array(
      indexed ? [Int64(windows.total), Int64(clients.ends.entries.values.reduce(0, +))] : [])
    out.panels(
      panels, of: options.panels, pageCount: pages.count, clientCount: clients.count,
      clientOrder: clientOrder)
    out.funnel(funnelCounts, clientOrder: clientOrder)
    out.array(pagelessClients.storage.ends)
    out.array(pagelessClients.storage.arena)
    for table in [panels.pagelessHits, panels.pagelessBytes] {
      out.array(Array(table.prefix(pagelessClients.count)))
    }
  }

  /// Reads what `serialized()` wrote; throws `PartialFileError` on anything else.
  public init(serialized data: Data) throws {
    self = try data.withUnsafeBytes { try Partial(serialized: $0) }
  }

  /// Reads what `serialized()` wrote from bytes that need last only this call (a mapped
  /// file's): nothing read refers to them after.
  package init(serialized raw: UnsafeRawBufferPointer) throws {
    var input = try Self.reader(raw)
    try self.init(reading: &input)
  }

  /// A reader of `raw` past the format's name; throws when `raw` is of another format.
  static func reader(_ raw: UnsafeRawBufferPointer) throws -> ByteReader {
    let version = [
      (magic, 13), (magic12, 12), (magic11, 11), (magic10, 10), (magic9, 9), (magic8, 8),
    ].first {
      raw.starts(with: $0.0)
    }?.1
    guard let version else {
      if raw.starts(with: Array("fetcher-partial-".utf8)) {
        throw PartialFileError(
          description: "a partial result of another fetcher version: analyse its log again")
      }
      throw PartialFileError(description: "not a fetcher partial result")
    }
    var input = ByteReader(raw)
    input.version = version
    _ = try input.bytes(version >= 10 ? magic.count : magic8.count)
    return input
  }

  private init(reading input: inout ByteReader) throws {
    let header = try input.header()
    self.init(options: header.options)
    setHeader(header)
    let sections = try PartialSections(reading: &input)
    pages = try PartialSections.strings(sections.pageEnds, sections.pageNames, of: "pages")
    clients.names = try PartialSections.strings(
      sections.clientEnds, sections.clientNames, of: "clients")
    clients.pages = sections.clientRows.array()
    clients.times = sections.clientTimes.array()
    try checkClients()
    // Every sum below stays within the lines (a line is at most one visit, which ends at
    // most one sequence and starts at most one path), so that no merge of partials whose
    // lines add up to at most `maxLines` can overflow.
    for isEntries in [true, false] {
      let pairs = (isEntries ? sections.entries : sections.exits).array()
      guard pairs.count % 2 == 0 else {
        throw PartialFileError(description: "an entry or exit count is out of range")
      }
      var sum = 0
      for index in stride(from: 0, to: pairs.count, by: 2) {
        let (page, count) = (pairs[index], pairs[index + 1])
        sum += min(count, Self.maxLines + 1)
        guard (0..<pages.count).contains(page), count > 0, sum <= lines else {
          throw PartialFileError(description: "an entry or exit count is out of range")
        }
        if isEntries {
          clients.ends.entries[Int32(page)] = count
        } else {
          clients.ends.exits[Int32(page)] = count
        }
      }
    }
    // The index is read where it lies, by `IndexedPartial`.
    let counts = sections.counts.array()
    let ids = sections.ids.array()
    let width = options.length + (options.uniqueClients ? 1 : 0)
    guard ids.count % width == 0, counts.count == (options.uniqueClients ? 0 : ids.count / width)
    else {
      throw PartialFileError(description: "the sequences are of the wrong form")
    }
    for (index, id) in ids.enumerated()
    where id < 0 || id >= (index % width < options.length ? pages.count : clients.count) {
      throw PartialFileError(description: "a sequence of the wrong form")
    }
    try addSequences(ids: ids, counts: options.uniqueClients ? nil : counts)
    pagelessClients = try PartialSections.pagelessClients(sections, unreadable: unreadableRequests)
    panels = try PanelCounts(
      sections.panels, options: options, pageCount: pages.count, clientCount: clients.count,
      visits: lines - malformedLines - filteredLines,
      pageless: (pagelessClients.count, unreadableRequests))
    funnelCounts = try FunnelCounts(
      sections.funnel, options: options, clientCount: clients.count,
      visits: lines - malformedLines - filteredLines)
  }

  /// Checks each client's first and last pages, and times, as read.
  private func checkClients() throws {
    let keep = clients.keep
    guard clients.pages.count == clients.count * clients.stride,
      clients.times.count == (options.sessionGap == nil ? 0 : 2 * clients.count)
    else { throw PartialFileError(description: "the clients are of the wrong form") }
    for client in 0..<clients.count {
      let row = client * clients.stride
      try Clients.check(keep: keep, pageCount: pages.count) { clients.pages[row + $0] }
      if options.sessionGap != nil {
        try Clients.check(first: clients.times[2 * client], last: clients.times[2 * client + 1])
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
                pairShards[shard].reserve(entries.count)
              } else {
                windowShards[shard].reserve(entries.count)
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
                  ? pairShards[shard].add(sequence, hash: hasher.pair(sequence), amount: 1)
                  : windowShards[shard].add(sequence, hash: hash, amount: amount)
                guard new else {
                  return .failure(PartialFileError(description: "a repeated sequence"))
                }
                if unique {
                  windowShards[shard].add(sequence, hash: hash, amount: 1)
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

/// Which hash orders the entries of a table in an indexed partial.
enum EntryHash {
  /// The hash of the pages (`SequenceHasher.sequence`).
  case sequence
  /// The hash of the pages and the client after them (`SequenceHasher.pair`).
  case pair
}

extension WindowTable {
  /// The ids and counts of every entry, shard after shard, in parts to be written one after
  /// another; with `hash`, each shard's entries in the order of their hashes, which come too
  /// (the shards on every core, or on `threads` at most). `clientPlaces` renumbers the client
  /// after the pages, in a table of sequences and clients.
  func entries(
    hashedBy hash: EntryHash?, of partial: Partial, clientPlaces: [Int32]?, threads: Int
  ) -> (
    ids: [[Int32]], counts: [[Int64]], hashes: [[UInt64]]
  ) {
    let (width, length) = (self.width, partial.options.length)
    if hash == nil && clientPlaces == nil {
      // As they lie, each shard copied to its place.
      let starts = shards.reduce(into: [0]) { $0.append($0.last! + $1.count) }
      var counts: [Int64] = []
      let ids = [Int32](unsafeUninitializedCapacity: count * width) { ids, initialized in
        counts = [Int64](unsafeUninitializedCapacity: count) { counts, countsInitialized in
          nonisolated(unsafe) let (ids, counts) = (ids, counts)
          _ = concurrentMap(Self.shardCount, threads: threads) { shard in
            shards[shard].copyEntries(
              ids: ids.baseAddress! + starts[shard] * width,
              counts: counts.baseAddress! + starts[shard])
          }
          countsInitialized = count
        }
        initialized = count * width
      }
      return ([ids], [counts], [])
    }
    let parts = SequenceHasher.with(
      length: length, pages: partial.pages.hashes, clients: partial.clients.names.hashes
    ) { hasher in
      nonisolated(unsafe) let hasher = hasher
      return concurrentMap(Self.shardCount, threads: threads) { shard in
        let count = shards[shard].count
        var ids = [Int32](repeating: 0, count: count * width)
        var counts = [Int64](repeating: 0, count: count)
        ids.withUnsafeMutableBufferPointer { ids in
          counts.withUnsafeMutableBufferPointer {
            shards[shard].copyEntries(ids: ids.baseAddress!, counts: $0.baseAddress!)
          }
        }
        var hashes: [UInt64] = []
        if let hash {
          hashes = ids.withUnsafeBufferPointer { ids in
            (0..<count).map { entry in
              let at = ids.baseAddress! + entry * width
              return hash == .pair ? hasher.pair(at) : hasher.sequence(at)
            }
          }
          let order = hashes.withUnsafeBufferPointer { Hashing.order($0) }.map { Int($0) }
          hashes = order.map { hashes[$0] }
          counts = order.map { counts[$0] }
          ids = [Int32](unsafeUninitializedCapacity: ids.count) { sorted, initialized in
            ids.withUnsafeBufferPointer { ids in
              for (place, entry) in order.enumerated() {
                (sorted.baseAddress! + place * width).initialize(
                  from: ids.baseAddress! + entry * width, count: width)
              }
            }
            initialized = ids.count
          }
        }
        if let clientPlaces, width > length {
          for client in stride(from: length, to: ids.count, by: width) {
            ids[client] = clientPlaces[Int(ids[client])]
          }
        }
        return (ids, counts, hashes)
      }
    }
    return (parts.map(\.0), parts.map(\.1), parts.map(\.2))
  }
}
