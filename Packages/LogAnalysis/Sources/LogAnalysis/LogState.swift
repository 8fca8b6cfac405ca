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
  /// bytes, which tell its file after it was copied or compressed.
  public struct Position: Codable, Equatable, Sendable {
    public var path: String
    public var device: UInt64
    public var inode: UInt64
    public var offset: Int
    public var head: Data

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
}
