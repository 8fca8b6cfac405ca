import CCurl
import Foundation
import HTTPClient
import Synchronization

/// One request, performed by libcurl on a thread of its own (`TransferThreads`). Stopping never waits for
/// libcurl: the caller is answered at once, and the thread, woken, ends the transfer and is
/// free for the next one.
final class CurlTransfer: Sendable {
  private let request: HTTPRequest
  private let receiver: HTTPReceiver
  private let configuration: HTTPConfiguration
  private let share: CurlShare
  private let threads: TransferThreads
  private let outcome = OnceContinuation<Void>()
  /// The multi handle the transfer runs in while it runs, for `stop()` to wake.
  private let running = Mutex<MultiHandle?>(nil)

  /// libcurl's multi handle, woken from another thread (`curl_multi_wakeup` is thread-safe).
  private struct MultiHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
  }

  init(
    request: HTTPRequest, receiver: HTTPReceiver, configuration: HTTPConfiguration,
    share: CurlShare, threads: TransferThreads = .shared
  ) {
    self.request = request
    self.receiver = receiver
    self.configuration = configuration
    self.share = share
    self.threads = threads
  }

  /// Runs the request to its end, or until `stop()`.
  func run() async throws {
    try await withCheckedThrowingContinuation { continuation in
      guard outcome.set(continuation) else { return }
      threads.run { self.outcome.resume(with: Result { try self.perform() }) }
    }
  }

  /// Ends the transfer at once with `CancellationError`.
  func stop() {
    outcome.resume(with: .failure(CancellationError()))
    running.withLock { multi in
      if let multi { curl_multi_wakeup(multi.pointer) }
    }
  }

  fileprivate var isStopped: Bool { outcome.isDone }

  // MARK: On the transfer's thread

  /// `fields` as libcurl's list, to free with `curl_slist_free_all`.
  private static func list(_ fields: HTTPHeaders) throws -> UnsafeMutablePointer<curl_slist>? {
    var list: UnsafeMutablePointer<curl_slist>?
    for field in fields {
      guard !(field.name + field.value).utf8.contains(where: { $0 == 10 || $0 == 13 }) else {
        curl_slist_free_all(list)
        throw HTTPError.other("the header \(field.name) holds a line break")
      }
      list = curl_slist_append(list, "\(field.name): \(field.value)")
    }
    return list
  }

  /// Where a redirect to `location` from `current` goes, when this transfer follows it itself:
  /// when it leaves the request's origin with secret headers (`HTTPHeaders.isSecret`), which
  /// libcurl would send on (it drops only `Authorization` and `Cookie`).
  fileprivate func redirectDroppingSecrets(from current: URL?, to location: String) -> URL? {
    guard let next = URL(string: location, relativeTo: current)?.absoluteURL, next.isHTTP
    else { return nil }
    let fields = request.headersToSend
    return fields.sendable(to: next, trusting: request.url) == fields ? nil : next
  }

  private func perform() throws {
    var headers = try Self.list(request.headersToSend)
    defer { curl_slist_free_all(headers) }
    guard let handle = curl_easy_init() else { throw HTTPError.other("libcurl cannot start") }
    defer { curl_easy_cleanup(handle) }
    defer { share.saveCookies(of: handle) }
    let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    defer { errorText.deallocate() }
    errorText[0] = 0

    let context = Context(transfer: self, handle: handle)
    let contextPointer = Unmanaged.passUnretained(context).toOpaque()
    try withExtendedLifetime(context) {
      let options = CurlOptions(handle)
      options.set(CURLOPT_URL, request.url.absoluteString)
      options.set(CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headers))
      options.set(CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorText))
      options.set(CURLOPT_SHARE, share.handle)
      options.set(CURLOPT_NOSIGNAL, 1)
      options.set(CURLOPT_PROTOCOLS_STR, "http,https")
      options.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
      options.set(CURLOPT_FOLLOWLOCATION, 1)
      options.set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
      options.set(CURLOPT_MAXREDIRS, configuration.maxRedirects)
      options.set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
      options.set(CURLOPT_BUFFERSIZE, Context.pieceSize)
      // The idle timeout is checked by the progress callback below (libcurl's low-speed
      // limit averages over several seconds, so a burst hides a stall).
      options.set(CURLOPT_CONNECTTIMEOUT, request.idleSeconds)
      if request.method == "HEAD" {
        options.set(CURLOPT_NOBODY, 1)
      } else if request.method != "GET" {
        options.set(CURLOPT_CUSTOMREQUEST, request.method)
      }
      if let body = request.body {
        // libcurl copies the bytes; their size first, as they may hold zeros (an empty body
        // is given one byte, never read, for an address that is not null).
        options.set(CURLOPT_POSTFIELDSIZE_LARGE, Int64(body.count))
        (body.isEmpty ? Data([0]) : body).withUnsafeBytes { bytes in
          options.set(CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
        }
      }
      if let rate = request.rateLimit?.lowestRate {
        // The rate is kept by the body callback (`RateLimit`), after each read: a read never
        // takes more than a second's worth (as curl's own --limit-rate does). libcurl's own
        // limit (CURLOPT_MAX_RECV_SPEED_LARGE, 7.88) is checked only between read loops of up
        // to a hundred reads: a file that arrives at once came at full speed.
        options.set(CURLOPT_BUFFERSIZE, Int(min(Int64(Context.pieceSize), max(1024, rate))))
      }
      if let speed = request.minimumSpeed {
        options.set(CURLOPT_LOW_SPEED_LIMIT, speed.bytesPerSecond)
        options.set(CURLOPT_LOW_SPEED_TIME, speed.seconds)
      }
      // Every coding this libcurl decodes (""); a range is of the coded bytes, so never then.
      if request.acceptsCompression, request.rangeStart == nil {
        options.set(CURLOPT_ACCEPT_ENCODING, "")
      }
      if let netrc = configuration.netrc {
        options.set(CURLOPT_NETRC, Int(CURL_NETRC_OPTIONAL.rawValue))
        if case .file(let path) = netrc { options.set(CURLOPT_NETRC_FILE, path) }
      }
      share.setCookies(on: options)
      if let proxy = configuration.proxy { options.set(CURLOPT_PROXY, proxy) }
      if let socket = configuration.unixSocket { options.set(CURLOPT_UNIX_SOCKET_PATH, socket) }
      if let caFile = configuration.caFile { options.set(CURLOPT_CAINFO, caFile) }
      if configuration.insecure {
        options.set(CURLOPT_SSL_VERIFYPEER, 0)
        options.set(CURLOPT_SSL_VERIFYHOST, 0)
      }
      options.set(CURLOPT_HEADERDATA, contextPointer)
      options.set(CURLOPT_HEADERFUNCTION) { bytes, size, count, context in
        let line = UnsafeRawBufferPointer(start: bytes, count: size * count)
        return Context.from(context).header(line) ? size * count : 0
      }
      options.set(CURLOPT_WRITEDATA, contextPointer)
      options.set(CURLOPT_WRITEFUNCTION) { bytes, size, count, context in
        let piece = UnsafeRawBufferPointer(start: bytes, count: size * count)
        return Context.from(context).body(piece) ? size * count : 0
      }
      options.set(CURLOPT_XFERINFODATA, contextPointer)
      options.set(CURLOPT_NOPROGRESS, 0)
      fetcher_curl_setopt_xferinfo(handle) { context, _, _, _, _ in
        Context.from(context).shouldGoOn ? 0 : 1
      }
      if let failure = options.failure { throw failure }

      var code = perform(handle)
      // A redirect that leaves the origin with secrets is followed here, without them.
      var redirects = 0
      while let next = context.redirect {
        context.redirect = nil
        redirects += 1
        guard redirects <= configuration.maxRedirects else {
          throw HTTPError.tooManyRedirects(limit: configuration.maxRedirects)
        }
        let kept = try Self.list(request.headersToSend.sendable(to: next, trusting: request.url))
        curl_slist_free_all(headers)
        headers = kept
        options.set(CURLOPT_URL, next.absoluteString)
        options.set(CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headers))
        options.set(CURLOPT_MAXREDIRS, configuration.maxRedirects - redirects)
        if let failure = options.failure { throw failure }
        code = perform(handle)
      }
      if let malformed = context.malformed { throw HTTPError.malformedResponse(malformed) }
      // What arrived before an error is still the body's: a resumed download keeps it.
      if !context.flush() || isStopped || context.receiverStopped { return }
      if context.idle { throw HTTPError.idleTimeout(seconds: request.idleSeconds) }
      if context.overTime, let limit = request.timeLimit {
        throw HTTPError.timeLimit(seconds: max(1, Int(limit.components.seconds)))
      }
      guard code == CURLE_OK else {
        throw CurlError.httpError(
          code, message: String(cString: errorText), request: request,
          location: context.headers["Location"], configuration: configuration)
      }
      if !context.headDelivered, !context.deliverHead() { return }
    }
  }

  /// Runs the transfer of `handle` as `curl_easy_perform` does, in its thread's multi handle
  /// (`threadMulti`), which `stop()` wakes: stopped, it lets go of the thread at once, where
  /// libcurl's next callback may be a second away on a quiet connection (and removing a
  /// thousand running downloads left two hundred threads behind).
  private func perform(_ handle: UnsafeMutableRawPointer) -> CURLcode {
    let kept = Self.threadMulti()
    guard let multi = kept ?? curl_multi_init() else { return CURLE_OUT_OF_MEMORY }
    defer { if kept == nil { curl_multi_cleanup(multi) } }
    guard curl_multi_add_handle(multi, handle) == CURLM_OK else { return CURLE_FAILED_INIT }
    defer { curl_multi_remove_handle(multi, handle) }
    running.withLock { $0 = MultiHandle(pointer: multi) }
    defer { running.withLock { $0 = nil } }
    var transfers: Int32 = 1
    while !isStopped {
      guard curl_multi_perform(multi, &transfers) == CURLM_OK else { return CURLE_FAILED_INIT }
      if transfers == 0 {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
          if message.pointee.msg == CURLMSG_DONE { return message.pointee.data.result }
        }
        return CURLE_OK
      }
      // libcurl shortens the wait to its own next deadline (a timeout, a retry).
      guard curl_multi_poll(multi, nil, 0, 1000, nil) == CURLM_OK else {
        return CURLE_FAILED_INIT
      }
    }
    return CURLE_ABORTED_BY_CALLBACK
  }

  /// The multi handle of this thread's transfers, one at a time: made for its first one and
  /// kept for the next (a new one opens and closes a pair of sockets: 4% of the CPU of
  /// thousands of small files), cleaned up when the thread ends; nil when it cannot be
  /// kept (the transfer makes its own). `stop()` wakes it only while its transfer runs in it.
  private static func threadMulti() -> UnsafeMutableRawPointer? {
    guard let multiKey else { return nil }
    if let multi = pthread_getspecific(multiKey) { return multi }
    guard let multi = curl_multi_init() else { return nil }
    guard pthread_setspecific(multiKey, multi) == 0 else {
      curl_multi_cleanup(multi)
      return nil
    }
    return multi
  }

  /// The key of `threadMulti`; nil when the system has no key left.
  private static let multiKey: pthread_key_t? = {
    var key = pthread_key_t()
    return pthread_key_create(&key) { curl_multi_cleanup($0) } == 0 ? key : nil
  }()

  /// The receiver's answer to `head`, waited for on this thread. The task that asks starts on
  /// this thread (`Task.immediate`), so that a receiver that needs no actor answers here; one
  /// that awaits an actor (the download engine's) answers on the global pool, which is woken,
  /// and wakes this thread: Swift 6.3's runtime never lends a thread that started a task
  /// synchronously to an actor, idle or not (seen on Linux in a program of a thread, an actor
  /// and `Task.immediate`, and in strace of `fetcher download -i`: two wake-ups a head).
  fileprivate func accept(_ head: HTTPResponseHead) -> Bool {
    let answer = Mutex(false)
    let decided = DispatchSemaphore(value: 0)
    let decide: @Sendable () async -> Void = { [receiver] in
      let accepted = await receiver.head(head)
      answer.withLock { $0 = accepted }
      decided.signal()
    }
    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
      Task.immediate(operation: decide)
    } else {
      Task(operation: decide)
    }
    decided.wait()
    return answer.withLock { $0 } && !isStopped
  }

  fileprivate func deliver(_ piece: Data) -> Bool {
    !isStopped && receiver.body(piece) && !isStopped
  }
}

/// What libcurl's callbacks work with, on the transfer's thread only.
private final class Context {
  let transfer: CurlTransfer
  let handle: UnsafeMutableRawPointer
  /// The fields of the latest response head; a redirect's are replaced by the next one's.
  var headers = HTTPHeaders()
  /// The status of the latest response head.
  var status = 0
  var headDelivered = false
  /// The receiver said to stop (a refused head or body).
  var receiverStopped = false
  /// When the last bytes arrived or the receiver last finished with them (or the transfer
  /// began): time the receiver takes is not the server's silence.
  var lastActivity = ContinuousClock.now
  /// Nothing arrived for longer than the request's idle timeout.
  var idle = false
  /// When the transfer began, for the request's time limit.
  let started = ContinuousClock.now
  /// The transfer took longer than the request's time limit.
  var overTime = false
  /// Why the final response is not valid HTTP, found in its head.
  var malformed: String?
  /// Where the transfer goes next when it follows a redirect itself
  /// (`CurlTransfer.redirectDroppingSecrets`).
  var redirect: URL?

  init(transfer: CurlTransfer, handle: UnsafeMutableRawPointer) {
    self.transfer = transfer
    self.handle = handle
  }

  static func from(_ pointer: UnsafeMutableRawPointer?) -> Context {
    Unmanaged<Context>.fromOpaque(pointer!).takeUnretainedValue()
  }

  /// Whether the transfer goes on: it was not stopped, is not idle for too long nor over its
  /// time limit, and the receiver took what arrived. libcurl asks after every read, and at
  /// least once a second.
  var shouldGoOn: Bool {
    if transfer.isStopped { return false }
    if let limit = transfer.timeLimit, started.duration(to: .now) > limit {
      overTime = true
      return false
    }
    idle = lastActivity.duration(to: .now) > transfer.idleTimeout
    return !idle && flush()
  }

  /// One line of a response head, a status line starting a new one. The head of the final
  /// response (not informational, not a redirect that is followed) goes to the receiver at
  /// its end; false stops the transfer.
  func header(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard !headDelivered else {  // trailers
      lastActivity = .now
      return true
    }
    let line = Self.trimming(bytes[...]) { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }
    let startsAHead = line.starts(with: "HTTP/".utf8)
    if startsAHead {
      headers = HTTPHeaders()
      status =
        String(decoding: line, as: UTF8.self).split(separator: " ").dropFirst().first
        .flatMap { Int($0) } ?? 0
    }
    // An interim answer (1xx) is not progress: a server that sends nothing else is silent.
    if !(100..<200).contains(status) { lastActivity = .now }
    if startsAHead {
      return true
    } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
      let blank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
      headers.append(
        name: String(decoding: Self.trimming(line[..<colon], blank), as: UTF8.self),
        value: String(decoding: Self.trimming(line[(colon + 1)...], blank), as: UTF8.self))
    } else if line.isEmpty {
      let informational = (100..<200).contains(status)
      let followed = Self.redirects.contains(status) && headers["Location"] != nil
      if followed {
        redirect = transfer.redirectDroppingSecrets(from: effectiveURL, to: headers["Location"]!)
        return redirect == nil
      }
      if !informational {
        malformed = Self.conflictingLengths(in: headers)
        return malformed == nil && deliverHead()
      }
    }
    return true
  }

  /// Why `headers` cannot say how long the body is: `Content-Length` fields (or the values of
  /// one, separated by commas) that differ, which RFC 9112 makes an unrecoverable error (a
  /// sender that repeats one value is fine). libcurl takes one of them.
  private static func conflictingLengths(in headers: HTTPHeaders) -> String? {
    let fields = headers.fields.filter { $0.name.equalsIgnoringCase("Content-Length") }
    // One field of one value, as nearly every response has: nothing to compare.
    if fields.count < 2, fields.first?.value.utf8.contains(UInt8(ascii: ",")) != true {
      return nil
    }
    let values = fields.flatMap { $0.value.split(separator: ",") }
      .map(\.trimmingWhitespace)
    guard Set(values).count > 1 else { return nil }
    return "conflicting Content-Length fields (\(values.joined(separator: ", ")))"
  }

  /// `bytes` without the bytes at either end for which `drop` is true.
  private static func trimming(
    _ bytes: Slice<UnsafeRawBufferPointer>, _ drop: (UInt8) -> Bool
  ) -> Slice<UnsafeRawBufferPointer> {
    let start = bytes.firstIndex { !drop($0) } ?? bytes.endIndex
    let end = bytes[start...].lastIndex { !drop($0) }.map { $0 + 1 } ?? start
    return bytes[start..<end]
  }

  /// The URL of the request being answered (after the redirects so far): the request's own
  /// when libcurl spells it the same, without parsing it again.
  private var effectiveURL: URL? {
    var text: UnsafeMutablePointer<CChar>?
    guard fetcher_curl_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &text) == CURLE_OK,
      let text
    else { return nil }
    let spelt = String(cString: text)
    let requested = transfer.requestURL
    return requested.baseURL == nil && spelt == requested.absoluteString
      ? requested : URL(string: spelt)
  }

  /// The statuses whose `Location` libcurl follows.
  private static let redirects: Set<Int> = [301, 302, 303, 307, 308]

  /// The most bytes read at once, and handed to the receiver at once.
  static let pieceSize = 512 * 1024

  /// Where the body's pieces are gathered.
  private let pool = PiecePool(size: pieceSize)
  /// Body bytes not yet handed to the receiver: `count` bytes in `buffer`. libcurl passes a
  /// read on in 16 KiB pieces; they are gathered here and handed on once a read is done (at
  /// the next progress call) or the buffer is full, so the receiver sees 32 times fewer,
  /// larger pieces.
  private var pending: (buffer: UnsafeMutableRawPointer, count: Int)?

  deinit {
    if let pending { pool.give(pending.buffer) }
  }

  /// A piece of the final response's body; the head goes to the receiver first.
  func body(_ piece: UnsafeRawBufferPointer) -> Bool {
    lastActivity = .now
    if !headDelivered, !deliverHead() { return false }
    var rest = piece
    while !rest.isEmpty {
      var (buffer, count) = pending ?? (pool.take(), 0)
      let taken = min(rest.count, pool.size - count)
      (buffer + count).copyMemory(from: rest.baseAddress!, byteCount: taken)
      count += taken
      rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
      pending = (buffer, count)
      if count == pool.size, !flush() { return false }
    }
    return keepRate(after: piece.count)
  }

  /// Waits, when the bytes so far came faster than the request's rate, until they have not,
  /// after handing them to the receiver (so that progress shows while it waits); false when
  /// the transfer was stopped meanwhile. Time spent waiting is not the server's silence.
  private func keepRate(after bytes: Int) -> Bool {
    guard let limit = transfer.rateLimit else { return true }
    var wait = limit.wait(after: bytes)
    guard wait > .zero else { return true }
    guard flush() else { return false }
    // In slices, so that a stop is seen within a tenth of a second.
    while wait > .zero, !transfer.isStopped {
      let slice = min(wait, .milliseconds(100))
      Thread.sleep(
        forTimeInterval: Double(slice.components.attoseconds) / 1e18
          + Double(slice.components.seconds))
      wait -= slice
    }
    lastActivity = .now
    return !transfer.isStopped
  }

  /// Hands the gathered body bytes to the receiver; false when it stops the transfer.
  func flush() -> Bool {
    guard let (buffer, count) = pending else { return true }
    pending = nil
    defer { lastActivity = .now }
    guard transfer.deliver(pool.piece(buffer, count: count)) else {
      receiverStopped = true
      return false
    }
    return true
  }

  /// Hands the final response's head to the receiver; false when it stops the transfer.
  func deliverHead() -> Bool {
    headDelivered = true
    var status = 0
    var version = 0
    fetcher_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
    fetcher_curl_getinfo_long(handle, CURLINFO_HTTP_VERSION, &version)
    let head = HTTPResponseHead(
      status: status, headers: headers, version: Self.versionName(version),
      url: effectiveURL ?? transfer.requestURL)
    defer { lastActivity = .now }
    guard transfer.accept(head) else {
      receiverStopped = true
      return false
    }
    return true
  }

  private static func versionName(_ version: Int) -> String {
    switch version {
    case Int(CURL_HTTP_VERSION_1_0): return "HTTP/1.0"
    case Int(CURL_HTTP_VERSION_2_0): return "HTTP/2"
    case Int(CURL_HTTP_VERSION_3): return "HTTP/3"
    default: return "HTTP/1.1"
    }
  }
}

extension HTTPRequest {
  /// The idle timeout in whole seconds, at least 1, as libcurl and the errors count it.
  var idleSeconds: Int { max(1, Int(idleTimeout.components.seconds)) }
}

extension CurlTransfer {
  fileprivate var requestURL: URL { request.url }
  fileprivate var idleTimeout: Duration { request.idleTimeout }
  fileprivate var timeLimit: Duration? { request.timeLimit }
  fileprivate var rateLimit: RateLimit? { request.rateLimit }
}

/// Sets options on an easy handle, keeping the first failure.
final class CurlOptions {
  private let handle: UnsafeMutableRawPointer
  private(set) var failure: HTTPError?

  init(_ handle: UnsafeMutableRawPointer) {
    self.handle = handle
  }

  func set(_ option: CURLoption, _ value: Int) {
    check(option, fetcher_curl_setopt_long(handle, option, value))
  }

  func set(_ option: CURLoption, _ value: Int64) {
    check(option, fetcher_curl_setopt_off(handle, option, curl_off_t(value)))
  }

  func set(_ option: CURLoption, _ value: String) {
    check(option, fetcher_curl_setopt_string(handle, option, value))
  }

  func set(_ option: CURLoption, _ value: UnsafeMutableRawPointer?) {
    check(option, fetcher_curl_setopt_pointer(handle, option, value))
  }

  func set(_ option: CURLoption, _ value: fetcher_curl_data_callback) {
    check(option, fetcher_curl_setopt_data_callback(handle, option, value))
  }

  private func check(_ option: CURLoption, _ code: CURLcode) {
    guard code != CURLE_OK, failure == nil else { return }
    failure = .other(
      "libcurl refused option \(option.rawValue): \(String(cString: curl_easy_strerror(code)))")
  }
}
