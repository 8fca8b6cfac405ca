import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Signals as a stream, in place of their default action.
enum Signals {
  /// An element each time one of `numbers` arrives; the sources live as long as the stream.
  static func stream(_ numbers: [Int32]) -> AsyncStream<Int32> {
    let (stream, continuation) = AsyncStream<Int32>.makeStream()
    let sources = numbers.map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { continuation.yield(number) }
      source.resume()
      return source
    }
    // Only cancelled, once, when the stream ends; a source may be cancelled from any thread.
    nonisolated(unsafe) let kept = sources
    continuation.onTermination = { _ in
      for source in kept { source.cancel() }
    }
    return stream
  }
}
