import Dispatch

#if canImport(Darwin)
  import Darwin
#endif

/// Signals handled in place of their default action.
///
/// libdispatch puts its catcher of a signal in place when the source registers, on its own
/// thread, some time after `resume()`; a signal in between met the action set before, and one
/// set to be ignored was lost (a Ctrl-C typed as soon as the interactive screen showed, on a
/// loaded machine, went unanswered). So these return once the source is registered, and the
/// default action stays until then except on Darwin, whose kqueue reports a signal only when
/// it is ignored.
enum Signals {
  /// Calls `handler` on `queue` each time `number` arrives, from the time this returns.
  /// Cancel the source to stop (a signal after that is lost: libdispatch's catcher stays).
  static func handle(
    _ number: Int32, on queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void
  ) async -> any DispatchSourceSignal {
    #if canImport(Darwin)
      signal(number, SIG_IGN)
    #endif
    let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
    source.setEventHandler(handler: handler)
    await withCheckedContinuation { registered in
      source.setRegistrationHandler { registered.resume() }
      source.resume()
    }
    return source
  }

  /// An element each time one of `numbers` arrives, from the time this returns; the sources
  /// live as long as the stream.
  static func stream(_ numbers: [Int32]) async -> AsyncStream<Int32> {
    let (stream, continuation) = AsyncStream<Int32>.makeStream()
    var sources: [any DispatchSourceSignal] = []
    for number in numbers {
      sources.append(await handle(number, on: .global()) { continuation.yield(number) })
    }
    // Only cancelled, once, when the stream ends; a source may be cancelled from any thread.
    nonisolated(unsafe) let kept = sources
    continuation.onTermination = { _ in
      for source in kept { source.cancel() }
    }
    return stream
  }
}
