import Dispatch

/// `body(index)` for every index in `0..<count`, run on every core, and the results in index
/// order.
package func concurrentMap<T>(_ count: Int, _ body: (Int) -> T) -> [T] {
  concurrentMap(count, threads: .max, body)
}

/// `body(index)` for every index in `0..<count`, run on every core (or on `threads` at most),
/// and the results in index order. Each iteration writes only its own slot, and
/// `concurrentPerform` returns after all of them, so no lock is needed (a local `Mutex` shared
/// by the iterations is one that ThreadSanitizer reports as an access race).
package func concurrentMap<T>(_ count: Int, threads: Int, _ body: (Int) -> T) -> [T] {
  guard threads > 1 else { return (0..<count).map(body) }
  let slots = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
  slots.initialize(repeating: nil)
  defer {
    slots.deinitialize()
    slots.deallocate()
  }
  // Safe: each iteration writes its own slot; the slots are read after all have returned.
  nonisolated(unsafe) let shared = slots
  withoutActuallyEscaping(body) { body in
    nonisolated(unsafe) let body = body
    let workers = min(count, threads)
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      for index in stride(from: worker, to: count, by: workers) { shared[index] = body(index) }
    }
  }
  return slots.map { $0! }
}
