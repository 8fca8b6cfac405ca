import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writing to a file descriptor, the one loop the store files and the download part files use.
public enum FileWrite {
  /// Writes all of `data` to `descriptor`: at its position with write(2), or at `offset`
  /// with pwrite(2); an interrupted call is made again. False when the system refuses (a full
  /// disk), with `errno` set.
  public static func all(_ data: Data, to descriptor: Int32, at offset: Int? = nil) -> Bool {
    data.withUnsafeBytes { all($0, to: descriptor, at: offset) }
  }

  /// `all(_:to:at:)` of bytes where they lie.
  public static func all(
    _ buffer: UnsafeRawBufferPointer, to descriptor: Int32, at offset: Int? = nil
  ) -> Bool {
    var done = 0
    while done < buffer.count {
      let (bytes, count) = (buffer.baseAddress! + done, buffer.count - done)
      let written =
        offset.map { pwrite(descriptor, bytes, count, off_t($0 + done)) }
        ?? write(descriptor, bytes, count)
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return false }
      done += written
    }
    return true
  }

  /// `all(_:to:at:)` of each piece that `contents` hands, in order, to the function it is
  /// given, at the descriptor's position; the pieces after a refused one are not written.
  /// False when the system refuses one, with `errno` set as that refusal left it.
  public static func all(
    handedBy contents: ((UnsafeRawBufferPointer) -> Void) -> Void, to descriptor: Int32
  ) -> Bool {
    var refusal: Int32?
    contents { piece in
      if refusal == nil && !all(piece, to: descriptor) { refusal = errno }
    }
    if let refusal { errno = refusal }
    return refusal == nil
  }
}
