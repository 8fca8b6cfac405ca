import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#endif

#if canImport(Glibc)

  extension Transport {
    /// Plain HTTP/1.1 over a POSIX socket for `http` URLs, with large reads on a thread of its
    /// own, and `fallback` (URLSession) for every other scheme. On Linux URLSession's data
    /// delegate tops out near 0.2 GB/s with 16 KiB callbacks and buffers what it cannot
    /// deliver; this reads 1 MiB at a time and memory stays flat.
    public static func socket(requestTimeout: Duration, fallback: Transport) -> Transport {
      Transport { request, receiver in
        var request = request
        for _ in 0...5 {
          guard request.url?.scheme?.lowercased() == "http" else {
            return try await fallback.stream(request, receiver)
          }
          let connection = SocketConnection(
            request: request, receiver: receiver, idleTimeout: requestTimeout)
          let redirect = try await withTaskCancellationHandler {
            try await connection.run()
          } onCancel: {
            connection.stop()
          }
          guard let redirect else { return }
          request.url = redirect
        }
        throw URLError(.httpTooManyRedirects)
      }
    }
  }

  /// One request on one connection, run on its own thread.
  private final class SocketConnection: Sendable {
    private let request: URLRequest
    private let receiver: TransferReceiver
    private let idleTimeout: Duration
    private let outcome = OnceContinuation<URL?>()

    init(request: URLRequest, receiver: TransferReceiver, idleTimeout: Duration) {
      self.request = request
      self.receiver = receiver
      self.idleTimeout = idleTimeout
    }

    private var isDone: Bool { outcome.isDone }

    /// Runs the request; returns the target of a redirect, which the receiver did not see.
    func run() async throws -> URL? {
      try await withCheckedThrowingContinuation { continuation in
        guard outcome.set(continuation) else { return }
        Thread { self.outcome.resume(with: Result { try self.transfer() }) }.start()
      }
    }

    /// Ends the transfer at once; the thread notices within 100 ms and closes the socket.
    func stop() {
      outcome.resume(with: .failure(CancellationError()))
    }

    // MARK: The transfer, on its thread

    private static let redirects: Set<Int> = [301, 302, 303, 307, 308]

    private func transfer() throws -> URL? {
      guard let url = request.url, let host = url.host else { throw URLError(.badURL) }
      let port = url.port ?? 80
      let socket = try connect(host: host, port: port)
      defer { close(socket) }
      try send(requestText(url: url, host: host, port: port), on: socket)

      let bufferSize = 1 << 20
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
      defer { buffer.deallocate() }
      var head: [UInt8] = []
      var body: Body?
      while true {
        let count = try receive(on: socket, into: buffer)
        if count == 0 {
          guard let body else { throw URLError(.networkConnectionLost) }
          try body.endOfStream()
          return nil
        }
        var bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
        if body == nil {
          head.append(contentsOf: bytes)
          guard let end = Self.endOfHead(head) else {
            guard head.count < 64 * 1024 else { throw URLError(.cannotParseResponse) }
            continue
          }
          guard let parsed = HTTPHead(head[..<end]) else { throw URLError(.cannotParseResponse) }
          let rest = head.count - (end + 4)
          bytes = UnsafeRawBufferPointer(rebasing: bytes[(count - rest)...])
          if Self.redirects.contains(parsed.status),
            let location = parsed.value(for: "Location").flatMap({
              URL(string: $0, relativeTo: url)
            })
          {
            return location.absoluteURL
          }
          guard accept(parsed, url: url) else { return nil }
          body = Body(head: parsed)
        }
        guard let current = body, try current.feed(bytes, to: receiver.body) else { return nil }
        if current.isComplete { return nil }
      }
    }

    /// Hands the head to the receiver and waits for its answer.
    private func accept(_ head: HTTPHead, url: URL) -> Bool {
      guard
        let response = HTTPURLResponse(
          url: url, statusCode: head.status, httpVersion: "HTTP/1.1", headerFields: head.headers)
      else { return false }
      let answer = Mutex(false)
      let decided = DispatchSemaphore(value: 0)
      Task {
        let accepted = await receiver.head(response)
        answer.withLock { $0 = accepted }
        decided.signal()
      }
      decided.wait()
      return answer.withLock { $0 } && !isDone
    }

    private func requestText(url: URL, host: String, port: Int) -> String {
      var target = url.path.isEmpty ? "/" : url.path
      if let query = url.query { target += "?" + query }
      let hostHeader = host.contains(":") ? "[\(host)]" : host
      var lines = [
        "\(request.httpMethod ?? "GET") \(target) HTTP/1.1",
        "Host: \(hostHeader)\(port == 80 ? "" : ":\(port)")",
        "Connection: close",
      ]
      for (name, value) in request.allHTTPHeaderFields ?? [:] where name.lowercased() != "host" {
        lines.append("\(name): \(value)")
      }
      return lines.joined(separator: "\r\n") + "\r\n\r\n"
    }

    private static func endOfHead(_ bytes: [UInt8]) -> Int? {
      guard bytes.count >= 4 else { return nil }
      for index in 0...(bytes.count - 4)
      where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13
        && bytes[index + 3] == 10
      {
        return index
      }
      return nil
    }

    // MARK: Sockets

    private func connect(host: String, port: Int) throws -> Int32 {
      var hints = addrinfo()
      hints.ai_family = AF_UNSPEC
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
      var list: UnsafeMutablePointer<addrinfo>?
      guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
        throw URLError(
          .cannotFindHost, userInfo: [NSLocalizedDescriptionKey: "cannot find host \(host)"])
      }
      defer { freeaddrinfo(list) }
      var lastError = URLError(
        .cannotConnectToHost, userInfo: [NSLocalizedDescriptionKey: "cannot connect to \(host)"])
      var candidate: UnsafeMutablePointer<addrinfo>? = first
      while let address = candidate {
        candidate = address.pointee.ai_next
        let socket = Glibc.socket(
          address.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { continue }
        do {
          try connect(socket, to: address.pointee, naming: "\(host):\(port)")
          return socket
        } catch let error as URLError {
          lastError = error
          close(socket)
        } catch {
          close(socket)
          throw error
        }
      }
      throw lastError
    }

    /// Connects `socket` without blocking, waiting in 100 ms steps so that a stop is noticed,
    /// for at most `idleTimeout`; the socket is left blocking again. `name` is for errors.
    private func connect(_ socket: Int32, to address: addrinfo, naming name: String) throws {
      func failure(_ reason: String) -> URLError {
        URLError(
          .cannotConnectToHost,
          userInfo: [NSLocalizedDescriptionKey: "cannot connect to \(name): \(reason)"])
      }
      let flags = fcntl(socket, F_GETFL)
      _ = fcntl(socket, F_SETFL, flags | O_NONBLOCK)
      defer { _ = fcntl(socket, F_SETFL, flags) }
      if Glibc.connect(socket, address.ai_addr, address.ai_addrlen) == 0 { return }
      guard errno == EINPROGRESS else { throw failure(String(cString: strerror(errno))) }
      let deadline = ContinuousClock.now.advanced(by: idleTimeout)
      guard try wait(for: POLLOUT, on: socket, until: deadline, failure: failure) else {
        throw failure("no answer within \(idleTimeout.components.seconds) s")
      }
      var code: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      guard getsockopt(socket, SOL_SOCKET, SO_ERROR, &code, &length) == 0, code == 0 else {
        throw failure(String(cString: strerror(code)))
      }
    }

    private func send(_ text: String, on socket: Int32) throws {
      var bytes = Array(text.utf8)
      var sent = 0
      while sent < bytes.count {
        let count = bytes.withUnsafeMutableBytes {
          Glibc.send(socket, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
        }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { throw URLError(.networkConnectionLost) }
        sent += count
      }
    }

    /// Reads what is there, waiting in 100 ms steps so that a stop is noticed; throws a
    /// timeout after `idleTimeout` without data.
    private func receive(on socket: Int32, into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    {
      let deadline = ContinuousClock.now.advanced(by: idleTimeout)
      while true {
        let ready = try wait(for: POLLIN, on: socket, until: deadline) { _ in
          URLError(.networkConnectionLost)
        }
        guard ready else { throw URLError(.timedOut) }
        let count = recv(socket, buffer.baseAddress, buffer.count, 0)
        if count < 0 && errno == EINTR { continue }
        guard count >= 0 else { throw URLError(.networkConnectionLost) }
        return count
      }
    }

    /// Waits in 100 ms steps, so that a stop is noticed, until `socket` is ready for `events`;
    /// returns false once `deadline` has passed first. A failing `poll` throws what `failure`
    /// makes of its reason.
    private func wait(
      for events: Int32, on socket: Int32, until deadline: ContinuousClock.Instant,
      failure: (String) -> URLError
    ) throws -> Bool {
      while true {
        guard !isDone else { throw CancellationError() }
        var poller = pollfd(fd: socket, events: Int16(events), revents: 0)
        let ready = poll(&poller, 1, 100)
        if ready < 0 && errno != EINTR { throw failure(String(cString: strerror(errno))) }
        if ready > 0 { return true }
        guard ContinuousClock.now < deadline else { return false }
      }
    }
  }

  /// The body of a response: counted by `Content-Length`, chunked, or up to the end of the
  /// connection.
  private final class Body {
    private let expected: Int64?
    private var received: Int64 = 0
    private var chunked: ChunkedDecoder?

    init(head: HTTPHead) {
      expected = head.status == 204 || head.status == 304 ? 0 : head.contentLength
      chunked = head.isChunked ? ChunkedDecoder() : nil
    }

    var isComplete: Bool {
      if let chunked { return chunked.isDone }
      return expected.map { received >= $0 } ?? false
    }

    /// Passes the body bytes in `bytes` on; false when the receiver stops.
    func feed(_ bytes: UnsafeRawBufferPointer, to receiver: (Data) -> Bool) throws -> Bool {
      guard bytes.count > 0 else { return true }
      if chunked != nil {
        var keepGoing = true
        try chunked!.feed(bytes) { piece in
          if keepGoing { keepGoing = receiver(Data(piece)) }
        }
        return keepGoing
      }
      let usable = expected.map { Int(min(Int64(bytes.count), $0 - received)) } ?? bytes.count
      received += Int64(usable)
      return receiver(Data(UnsafeRawBufferPointer(rebasing: bytes[0..<usable])))
    }

    /// The connection ended: fine only when the body was complete or had no length.
    func endOfStream() throws {
      if chunked != nil, !isComplete { throw URLError(.networkConnectionLost) }
      if let expected, received < expected { throw URLError(.networkConnectionLost) }
    }
  }
#endif
