import Foundation
import LogAnalysis
import StoreLive
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The files of `analyze --state FILE`, where a `LogState` stays between runs. FILE holds
/// where the reading stopped and the analysis of the lines read since the base; the base,
/// the analysis of the lines before with its index (see `IndexedPartial`), is
/// `FILE.base-ID` beside it. A run reads FILE, maps the base, and writes FILE again; it
/// writes a new base only when the lines since the base are at least half as many as the
/// base's own (and then names it in FILE), so that a run costs about what the lines since the
/// base cost, not what the base's own do, and rewriting the base gets rarer as it grows.
/// Every file is written
/// as StoreLive's `AtomicFile` writes (to `NAME.tmp-…`, flushed, renamed, the folder flushed);
/// a base that FILE no longer names, and what a killed run left, are removed when a base is
/// written. A state is only ever read for the log and the options it was written for.
public struct StateFile: Sendable {
  public let path: String
  /// Whether a base of `baseLines` lines is written anew with the `deltaLines` after it.
  let rewritesBase: @Sendable (_ baseLines: Int, _ deltaLines: Int) -> Bool

  public init(path: String) {
    self.init(path: path) { baseLines, deltaLines in 2 * deltaLines >= baseLines }
  }

  init(path: String, rewritesBase: @escaping @Sendable (Int, Int) -> Bool) {
    self.path = path
    self.rewritesBase = rewritesBase
  }

  /// What the files hold.
  public struct Saved: Sendable {
    /// Where the reading stopped.
    public let position: LogState.Position
    /// The analysis of the lines since the base.
    let delta: Partial
    let base: IndexedPartial?
    /// The base's file name, in FILE's folder.
    let baseName: String?

    public var options: AnalysisOptions { delta.options }

    /// The whole state, the base loaded.
    public func state() throws(LogStateError) -> LogState {
      var partial = try loadedBase()
      partial.append(delta)
      return LogState(partial: partial, position: position)
    }

    /// The base's partial result, loaded (empty without one).
    fileprivate func loadedBase() throws(LogStateError) -> Partial {
      do {
        return try base?.loaded() ?? Partial(options: options)
      } catch {
        throw LogStateError("its base cannot be read: \(error)")
      }
    }
  }

  /// FILE's first line and, as one line of JSON, its second.
  private static let magic = Array("fetcher-state-2\n".utf8)
  private struct Header: Codable {
    var position: LogState.Position
    /// The base's file name, in FILE's folder; empty without one. Never left out, so that a
    /// damaged name is not read as no base.
    var base: String
  }

  /// What the files hold for reading the log at `path` with `options`; nil when there is no
  /// FILE. Throws `StateLoadError` for a state that cannot be read, or that was written with
  /// other options or for another log (counting on from it would give wrong counts).
  public func load(of path: String, options: AnalysisOptions) throws(StateLoadError) -> Saved? {
    let saved: Saved?
    do {
      saved = try load()
    } catch {
      throw .unreadable(error)
    }
    guard let saved else { return nil }
    guard saved.options == options else { throw .otherOptions }
    guard saved.position.path == path else { throw .otherLog(saved.position.path) }
    return saved
  }

  /// What the files hold, for whatever log and options; nil when there is no FILE.
  func load() throws(LogStateError) -> Saved? {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw LogStateError(error.localizedDescription)
    }
    guard data.starts(with: Self.magic) else {
      if data.starts(with: Array("fetcher-state-".utf8)) {
        throw LogStateError(
          "a state of another fetcher version: remove it, and the next run reads the whole log")
      }
      throw LogStateError("not a state file of fetcher analyze")
    }
    let rest = data.dropFirst(Self.magic.count)
    guard let newline = rest.firstIndex(of: UInt8(ascii: "\n")),
      let header = try? JSONDecoder().decode(Header.self, from: rest[..<newline])
    else { throw LogStateError("its position cannot be read") }
    let delta: Partial
    do {
      delta = try Partial(serialized: rest[(newline + 1)...])
    } catch {
      throw LogStateError("its result cannot be read: \(error)")
    }
    var base: IndexedPartial?
    if !header.base.isEmpty {
      let name = header.base
      guard Self.isBaseName(name, of: fileName) else {
        throw LogStateError("it names a base that is not its own: \(name)")
      }
      do {
        base = try IndexedPartial(
          file: MappedFile.map(path: folder.appendingPathComponent(name).path))
      } catch {
        throw LogStateError("its base \(name) cannot be read: \(error)")
      }
      guard base?.options == delta.options else {
        throw LogStateError("its base \(name) was written with other options")
      }
    }
    return Saved(
      position: header.position, delta: delta, base: base,
      baseName: header.base.isEmpty ? nil : header.base)
  }

  /// Adds what a run read to what the files held (`saved`, nil when nothing), saves it, and
  /// returns the result of every line read; with `whole`, a whole partial result (the base
  /// loaded and written anew).
  public func save(_ reading: LogState.Reading, after saved: Saved?, whole: Bool = false)
    throws(LogStateError) -> AnalysisOutcome
  {
    if let saved {
      guard saved.options == reading.partial.options, saved.position.path == reading.position.path
      else { throw LogStateError("the reading is of another log or with other options") }
    }
    var delta = saved?.delta ?? Partial(options: reading.partial.options)
    delta.append(reading.partial)
    if let saved, let base = saved.base, !whole, !rewritesBase(base.header.lines, delta.lines) {
      // FILE is written aside on a thread of its own while the result is worked out, and
      // renamed once both are done.
      let (position, baseName, delta) = (reading.position, saved.baseName, delta)
      let written = Mutex<Result<AtomicFile.Prepared, LogStateError>?>(nil)
      let done = DispatchSemaphore(value: 0)
      Thread {
        written.withLock {
          $0 = Result { () throws(LogStateError) in
            try prepare(position: position, delta: delta, base: baseName)
          }
        }
        done.signal()
      }.start()
      let layered = Result { () throws(PartialFileError) in
        try LayeredResult(base: base, delta: delta)
      }
      done.wait()
      let prepared = try written.withLock { $0! }.get()
      let result: LayeredResult
      do {
        result = try layered.get()
      } catch {
        prepared.discard()
        throw LogStateError("its base cannot be read: \(error)")
      }
      try commit(prepared)
      return .layered(result)
    }
    var partial = try saved?.loadedBase() ?? Partial(options: delta.options)
    partial.append(delta)
    try save(LogState(partial: partial, position: reading.position))
    return .whole(partial)
  }

  /// Saves a whole state (a watch's at its end): a new base of every line read.
  public func save(_ state: LogState) throws(LogStateError) {
    let name = "\(fileName).base-\(String(format: "%016llx", UInt64.random(in: 0...UInt64.max)))"
    let base = folder.appendingPathComponent(name)
    try commit(try prepare([state.partial.serialized(indexed: true)], for: base))
    try write(
      position: state.position, delta: Partial(options: state.partial.options), base: name)
    // Bases of earlier runs; bases and files that runs killed before their end left.
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    for other in names
    where other != name
      && (Self.isBaseName(other, of: fileName) || Self.isLeftover(other, of: fileName))
    {
      try? FileManager.default.removeItem(at: folder.appendingPathComponent(other))
    }
  }

  /// Holds `FILE.lock` locked while it lives, so that two runs never use one state at once
  /// (a cron run while the last is still reading, a watch while a run goes on).
  public final class Lock: Sendable {
    private let descriptor: Int32
    fileprivate init(_ descriptor: Int32) { self.descriptor = descriptor }
    deinit { close(descriptor) }
  }

  /// Locks the state; throws when another process holds it. `FILE.lock` is never opened
  /// through a link, nor waited on as a FIFO: it must be a regular file.
  public func lock() throws(LogStateError) -> Lock {
    let lockPath = path + ".lock"
    let acquired: FileLock.Acquired
    do {
      acquired = try FileLock.acquire(lockPath)
    } catch {
      throw LogStateError(error.description)
    }
    switch acquired {
    case .taken(let descriptor): return Lock(descriptor)
    case .heldElsewhere(let descriptor):
      close(descriptor)
      throw LogStateError("another fetcher analyze is using it (\(lockPath) is locked)")
    }
  }

  private var folder: URL { URL(fileURLWithPath: path).deletingLastPathComponent() }
  private var fileName: String { URL(fileURLWithPath: path).lastPathComponent }

  /// Whether `name` is that of a base of the state file named `fileName`.
  /// Whether `name` is what a killed run left of the files of `fileName`: a file written
  /// aside and never renamed (`.NAME.tmp-…` before fetcher 4).
  private static func isLeftover(_ name: String, of fileName: String) -> Bool {
    AtomicFile.isLeftover(name, of: fileName) || name.hasPrefix(".\(fileName).")
      || (name.hasPrefix("\(fileName).base-") && name.contains(".tmp-"))
  }

  private static func isBaseName(_ name: String, of fileName: String) -> Bool {
    let prefix = "\(fileName).base-"
    let id = name.dropFirst(prefix.count)
    return name.hasPrefix(prefix) && id.count == 16 && id.allSatisfy(\.isHexDigit)
      && id == id.lowercased()
  }

  private func write(position: LogState.Position, delta: Partial, base: String?)
    throws(LogStateError)
  {
    try commit(try prepare(position: position, delta: delta, base: base))
  }

  /// FILE's bytes, written aside (see `prepare(_:for:)`).
  private func prepare(position: LogState.Position, delta: Partial, base: String?)
    throws(LogStateError) -> AtomicFile.Prepared
  {
    var header = Data(Self.magic)
    header.append(
      (try? JSONEncoder().encode(Header(position: position, base: base ?? ""))) ?? Data())
    header.append(UInt8(ascii: "\n"))
    return try prepare([header, delta.serialized()], for: URL(fileURLWithPath: path))
  }

  /// `pieces` written beside `url` and flushed; `commit` puts them in its place, so that a
  /// reader finds the old file or the new one, never a part.
  private func prepare(_ pieces: [Data], for url: URL) throws(LogStateError)
    -> AtomicFile.Prepared
  {
    do {
      return try AtomicFile.prepare(url, with: pieces)
    } catch {
      throw LogStateError("cannot write \(url.path): \(Self.reason(error))")
    }
  }

  private func commit(_ prepared: AtomicFile.Prepared) throws(LogStateError) {
    do {
      try prepared.commit()
    } catch {
      throw LogStateError("cannot write \(prepared.destination.path): \(Self.reason(error))")
    }
  }

  /// Why `AtomicFile` could not write.
  private static func reason(_ error: any Error) -> String {
    guard case .unwritable(_, let reason) = error as? StoreFileError else { return "\(error)" }
    return reason
  }
}

/// Why `StateFile.load(of:options:)` refused a state.
public enum StateLoadError: Error, Equatable, CustomStringConvertible {
  /// It cannot be read, or is not a state.
  case unreadable(LogStateError)
  /// It was written with other options than those of this reading.
  case otherOptions
  /// It follows the log at this path, not the one read.
  case otherLog(String)

  public var description: String {
    switch self {
    case .unreadable(let error): "cannot be read: \(error)"
    case .otherOptions: "was written with other options"
    case .otherLog(let path): "follows \(path)"
    }
  }
}
