import Foundation

/// Why a state file cannot be used.
public struct LogStateError: Error, Equatable, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}

/// What an analysis that goes on (`analyze --state FILE`, `--follow`) knows: the result so
/// far, and where it stopped reading its log, so that it reads only what is new next, also
/// after the log was rotated. `StateFile` keeps it between runs.
public struct LogState: Sendable {
  /// The analysis of every line read so far.
  public var partial: Partial
  /// Where the reading stopped.
  public var position: Position

  /// Where the reading of a log stopped: its file (by device and inode, which a rename keeps),
  /// how many bytes of log text were read (always up to a line's end), and the log's first
  /// bytes, which tell its file after it was copied or compressed. In a W3C log, `fields` is
  /// the `#Fields:` line in force at `offset`, which says how the lines after it read.
  public struct Position: Codable, Equatable, Sendable {
    public var path: String
    public var device: UInt64
    public var inode: UInt64
    public var offset: Int
    public var head: Data
    public var fields: Data?

    public init(path: String, device: UInt64, inode: UInt64, offset: Int, head: Data) {
      self.path = path
      self.device = device
      self.inode = inode
      self.offset = offset
      self.head = head
    }
  }

  public init(partial: Partial, position: Position) {
    self.partial = partial
    self.position = position
  }

  private static let magic = Array("fetcher-state-1\n".utf8)

  /// The whole state as one piece of data, to keep it elsewhere (a database): a first line
  /// that names the format, the position as one line of JSON, then the partial result
  /// (`Partial.serialized()`). `StateFile` keeps it in files that a run reads little of.
  public func serialized() -> Data {
    var data = Data(Self.magic)
    data.append((try? JSONEncoder().encode(position)) ?? Data())
    data.append(UInt8(ascii: "\n"))
    data.append(partial.serialized())
    return data
  }

  /// Reads what `serialized()` wrote.
  public init(serialized data: Data) throws(LogStateError) {
    guard data.starts(with: Self.magic) else {
      throw LogStateError("not a state of fetcher analyze")
    }
    let rest = data.dropFirst(Self.magic.count)
    guard let newline = rest.firstIndex(of: UInt8(ascii: "\n")),
      let position = try? JSONDecoder().decode(Position.self, from: rest[..<newline])
    else { throw LogStateError("its position cannot be read") }
    do {
      partial = try Partial(serialized: rest[(newline + 1)...])
    } catch {
      throw LogStateError("its result cannot be read: \(error)")
    }
    self.position = position
  }
}
