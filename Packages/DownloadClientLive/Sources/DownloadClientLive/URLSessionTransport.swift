import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension Transport {
  /// A transport over one `URLSession` with a data delegate. Stopping never waits for
  /// URLSession: the transfer's continuation is resumed at once, later callbacks are dropped,
  /// and the task is cancelled from another queue (cancelling it from inside Swift task
  /// cancellation can deadlock on Linux).
  public static func urlSession(requestTimeout: Duration) -> Transport {
    let delegate = SessionDelegate()
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.timeoutIntervalForRequest = max(1, Double(requestTimeout.components.seconds))
    configuration.httpMaximumConnectionsPerHost = 16
    let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    return Transport { request, receiver in
      let task = session.dataTask(with: request)
      let transfer = Transfer(receiver: receiver, task: task)
      try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
          transfer.begin(continuation)
          delegate.register(transfer, for: task.taskIdentifier)
          task.resume()
        }
      } onCancel: {
        transfer.finish(CancellationError(), cancellingTask: true)
      }
      delegate.unregister(task.taskIdentifier)
    }
  }
}

/// One request in flight: its receiver and the continuation to resume once.
private final class Transfer: Sendable {
  let receiver: TransferReceiver
  private let task: URLSessionDataTask
  private let outcome = OnceContinuation<Void>()

  init(receiver: TransferReceiver, task: URLSessionDataTask) {
    self.receiver = receiver
    self.task = task
  }

  var isDone: Bool { outcome.isDone }

  func begin(_ continuation: CheckedContinuation<Void, any Error>) {
    _ = outcome.set(continuation)
  }

  /// Ends the transfer, successfully when `error` is nil, and cancels the URLSession task
  /// when it is still running. Later calls do nothing.
  func finish(_ error: (any Error)?, cancellingTask: Bool) {
    outcome.resume(with: error.map { .failure($0) } ?? .success(()))
    if cancellingTask {
      let task = self.task
      DispatchQueue.global().async { task.cancel() }
    }
  }
}

/// Routes the session's callbacks to the transfers.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
  private let transfers = Mutex<[Int: Transfer]>([:])

  func register(_ transfer: Transfer, for identifier: Int) {
    transfers.withLock { $0[identifier] = transfer }
  }

  func unregister(_ identifier: Int) {
    _ = transfers.withLock { $0.removeValue(forKey: identifier) }
  }

  private func transfer(_ task: URLSessionTask) -> Transfer? {
    transfers.withLock { $0[task.taskIdentifier] }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    guard let transfer = transfer(dataTask), !transfer.isDone,
      let http = response as? HTTPURLResponse
    else { return completionHandler(.cancel) }
    // FoundationNetworking on Linux may deliver body data before the completion handler is
    // called, so the delegate queue waits here until the receiver has decided. It is not a
    // thread of the Swift concurrency pool, so waiting cannot starve the receiver.
    let accepted = Mutex(false)
    let decided = DispatchSemaphore(value: 0)
    Task {
      let decision = await transfer.receiver.head(http)
      accepted.withLock { $0 = decision }
      decided.signal()
    }
    decided.wait()
    if accepted.withLock({ $0 }) {
      completionHandler(.allow)
    } else {
      completionHandler(.cancel)
      transfer.finish(nil, cancellingTask: true)
    }
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    guard let transfer = transfer(dataTask), !transfer.isDone else { return }
    if !transfer.receiver.body(data) { transfer.finish(nil, cancellingTask: true) }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    transfer(task)?.finish(error, cancellingTask: false)
  }
}
