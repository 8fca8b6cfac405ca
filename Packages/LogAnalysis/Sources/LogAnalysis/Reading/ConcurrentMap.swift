import Dispatch

/// `body(index)` for every index in `0..<count`, run on every core, and the results in index
/// order. Each iteration writes only its own slot, and `concurrentPerform` returns after all
/// of them, so no lock is needed (a local `Mutex` shared by the iterations is one that
/// ThreadSanitizer reports as an access race).
package func concurrentMap<T>(_ count: Int, _ body: (Int) -> T) -> [T] {
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
    DispatchQueue.concurrentPerform(iterations: count) { shared[$0] = body($0) }
  }
  return slots.map { $0! }
}
