/// A partial result written with its index (`Partial.serialized(indexed: true)`), read where
/// it lies in a mapped file: its clients sorted by the hashes of their names, its sequences
/// by theirs, so that what a few new lines touch of many old ones is found by walking both in
/// order, without loading the old ones. The sizes are checked when it is opened; every id is
/// checked when it is used.
package struct IndexedPartial: @unchecked Sendable {
  private let file: PinnedBytes
  package let header: PartialHeader
  /// The pages, loaded: few beside the clients and sequences.
  let pages: Interner
  /// Where each client's name ends in `clientNames`.
  let clientEnds: WordView<Int>
  let clientNames: WordView<UInt8>
  /// Each client's pages, laid out as `Clients.pages`.
  let clientRows: WordView<Int32>
  /// With a session gap, each client's first and last times.
  let clientTimes: WordView<Int64>
  /// The hashes of the clients' names, in order.
  let clientHashes: WordView<UInt64>
  /// The sequences' pages (`length` each), counts and hashes, in the order of the hashes.
  let windowIds: WordView<Int32>
  let windowCounts: WordView<Int64>
  let windowHashes: WordView<UInt64>
  /// With `uniqueClients`: each sequence and client (`length + 1` ids) and their hashes, in
  /// the order of the hashes.
  let pairIds: WordView<Int32>
  let pairHashes: WordView<UInt64>
  /// The paths entering and leaving by each page (`Partial.pathEndCounts`).
  let entryCounts: WordView<Int64>
  let exitCounts: WordView<Int64>
  /// The sum of the sequences' counts.
  let windowTotal: Int
  /// What the panels counted, loaded and checked (the clients' in the order of their hashes).
  let panels: PanelCounts
  /// What the funnel counted, loaded and checked (the clients in the order of their hashes).
  let funnel: FunnelCounts
  /// The paths known to have begun inside (a gap seen).
  let endedPaths: Int
  /// The clients of the visits that named no page, loaded (`Partial.pagelessClients`).
  let pagelessClients: Interner

  package var options: AnalysisOptions { header.options }
  var clientCount: Int { clientHashes.count }
  var sequenceCount: Int { windowHashes.count }

  /// Reads the bytes of `file` (a mapped file's), which `Partial.serialized(indexed: true)`
  /// wrote, where they lie.
  package init(file: PinnedBytes) throws(PartialFileError) {
    self.file = file
    do {
      var input = try Partial.reader(file.bytes)
      header = try input.header()
      let sections = try PartialSections(reading: &input)
      pages = try PartialSections.strings(sections.pageEnds, sections.pageNames, of: "pages")
      clientEnds = sections.clientEnds
      clientNames = sections.clientNames
      clientRows = sections.clientRows
      clientTimes = sections.clientTimes
      windowHashes = sections.windowHashes
      pairHashes = sections.pairHashes
      clientHashes = sections.clientHashes
      entryCounts = sections.entryCounts
      exitCounts = sections.exitCounts
      let totals = sections.totals
      guard totals.count == 2 else {
        throw PartialFileError(description: "it is not an indexed partial result")
      }
      if header.options.uniqueClients {
        (windowIds, windowCounts) = (sections.windowIds, sections.windowCounts)
        pairIds = sections.ids
      } else {
        (windowIds, windowCounts) = (sections.ids, sections.counts)
        pairIds = WordView(bytes: UnsafeRawBufferPointer(start: nil, count: 0))
      }
      (windowTotal, endedPaths) = (Int(totals[0]), Int(totals[1]))
      pagelessClients = try PartialSections.pagelessClients(
        sections, unreadable: header.unreadableRequests)
      panels = try PanelCounts(
        sections.panels, options: header.options, pageCount: pages.count,
        clientCount: sections.clientHashes.count,
        visits: header.lines - header.malformedLines - header.filteredLines,
        pageless: (pagelessClients.count, header.unreadableRequests))
      funnel = try FunnelCounts(
        sections.funnel, options: header.options, clientCount: sections.clientHashes.count,
        visits: header.lines - header.malformedLines - header.filteredLines)
    } catch let error as PartialFileError {
      throw error
    } catch {
      throw PartialFileError(description: "\(error)")
    }
    let length = header.options.length
    let stride = 2 * Clients.keep(length: length) + 1
    let clients = clientHashes.count
    let sessions = header.options.sessionGap != nil
    guard clientEnds.count == clients, clientRows.count == clients * stride,
      clientTimes.count == (sessions ? 2 * clients : 0),
      windowIds.count == sequenceCount * length, windowCounts.count == sequenceCount,
      pairIds.count == pairHashes.count * (length + 1),
      entryCounts.count == pages.count, exitCounts.count == pages.count,
      (0...header.lines).contains(windowTotal), (0...header.lines).contains(endedPaths)
    else { throw PartialFileError(description: "its index is of the wrong form") }
    if header.options.panels.contains(.clients) {
      // The clients panel names any client: every name is checked here, once.
      var end = 0
      for index in 0..<clients {
        guard clientEnds[index] >= end else {
          throw PartialFileError(description: "a client's name is out of range")
        }
        end = clientEnds[index]
      }
      guard end <= clientNames.count else {
        throw PartialFileError(description: "a client's name is out of range")
      }
    }
  }

  /// For each of `names`, the index of the client of that name here, or -1: found by walking
  /// the names in the order of their hashes beside the clients.
  func clientIndexes(of names: Interner) throws(PartialFileError) -> [Int] {
    var indexes = [Int](repeating: -1, count: names.count)
    var next = 0
    for id in names.order() {
      let hash = names.hashes[Int(id)]
      while next < clientCount && clientHashes[next] < hash { next += 1 }
      var candidate = next
      while candidate < clientCount && clientHashes[candidate] == hash {
        let name = try clientName(candidate)
        let known = names.bytes(id).withUnsafeBytes { bytes in
          bytes.count == name.count
            && (bytes.isEmpty || Interner.equal(bytes.baseAddress!, name.baseAddress!, bytes.count))
        }
        if known {
          indexes[Int(id)] = candidate
          break
        }
        candidate += 1
      }
    }
    return indexes
  }

  /// The name of client `index`.
  func clientName(_ index: Int) throws(PartialFileError) -> UnsafeRawBufferPointer {
    try clientNameTable.name(index)
  }

  /// The clients' names, by index: what reading them needs, without the rest.
  var clientNameTable: NameTable { NameTable(ends: clientEnds, bytes: clientNames) }

  /// Names laid out one after another, each found by where it ends.
  struct NameTable {
    let ends: WordView<Int>
    let bytes: WordView<UInt8>

    /// The name at `index`.
    func name(_ index: Int) throws(PartialFileError) -> UnsafeRawBufferPointer {
      let start = index == 0 ? 0 : ends[index - 1]
      let end = ends[index]
      guard 0 <= start, start <= end, end <= bytes.count else {
        throw PartialFileError(description: "a client's name is out of range")
      }
      return UnsafeRawBufferPointer(rebasing: bytes.bytes[start..<end])
    }
  }

  /// The whole partial result, loaded.
  package func loaded() throws -> Partial {
    // The partial copies what it reads, while the file is mapped.
    try Partial(serialized: file.bytes)
  }

  /// Checks that every page id of the sequences (and of the sequences and clients, with
  /// `uniqueClients`) is one of its pages, every client id one of its clients, every count
  /// positive, and the hashes in order.
  func checkSequences() throws(PartialFileError) {
    let ids = WordView<UInt32>(bytes: windowIds.bytes)
    let pairs = WordView<UInt32>(bytes: pairIds.bytes)
    let (counts, pageCount) = (windowCounts, UInt32(pages.count))
    let (clientCount, width) = (UInt32(self.clientCount), options.length + 1)
    let parts = 16
    let errors = concurrentMap(parts) { part -> PartialFileError? in
      func range(of count: Int) -> Range<Int> {
        let size = (count + parts - 1) / parts
        return min(count, part * size)..<min(count, (part + 1) * size)
      }
      let (idRange, countRange) = (range(of: ids.count), range(of: counts.count))
      if !idRange.isEmpty && ids.extremes(of: idRange).max >= pageCount {
        return PartialFileError(description: "a sequence of the wrong form")
      }
      if !countRange.isEmpty && counts.extremes(of: countRange).min <= 0 {
        return PartialFileError(description: "a sequence's count is out of range")
      }
      for index in range(of: pairs.count)
      where pairs[index] >= (index % width == width - 1 ? clientCount : pageCount) {
        return PartialFileError(description: "a sequence of the wrong form")
      }
      for hashes in [windowHashes, pairHashes, clientHashes] {
        for index in range(of: hashes.count) where index > 0 && hashes[index - 1] > hashes[index] {
          return PartialFileError(description: "its index is out of order")
        }
      }
      return nil
    }
    if let error = errors.compactMap({ $0 }).first { throw error }
  }
}
