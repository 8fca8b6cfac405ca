import CCurl
import Foundation
import StoreLive
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A libcurl share handle: the transfers that use it share connections, TLS sessions, name
/// lookups and, with the cookie engine on, cookies, each kind of data behind a lock of its own.
final class CurlShare: Sendable {
  /// The handle is only passed to libcurl, which locks it through the functions below.
  nonisolated(unsafe) let handle: UnsafeMutableRawPointer
  private let locks: Locks
  private let cookies: HTTPConfiguration.Cookies
  /// Held while the jar is written, and the last failure to write it (said once).
  private let jarFailure = Mutex<String?>(nil)

  /// A share for `cookies`: their file is read once, here.
  init(cookies: HTTPConfiguration.Cookies) {
    self.cookies = cookies
    guard let handle = curl_share_init() else { fatalError("libcurl cannot make a share handle") }
    self.handle = handle
    locks = Locks(count: Int(CURL_LOCK_DATA_LAST.rawValue))
    fetcher_curl_share_setopt_pointer(
      handle, CURLSHOPT_USERDATA, Unmanaged.passUnretained(locks).toOpaque())
    fetcher_curl_share_setopt_lock(handle) { _, data, _, userData in
      Unmanaged<Locks>.fromOpaque(userData!).takeUnretainedValue().lock(Int(data.rawValue))
    }
    fetcher_curl_share_setopt_unlock(handle) { _, data, userData in
      Unmanaged<Locks>.fromOpaque(userData!).takeUnretainedValue().unlock(Int(data.rawValue))
    }
    var shared = [CURL_LOCK_DATA_CONNECT, CURL_LOCK_DATA_SSL_SESSION, CURL_LOCK_DATA_DNS]
    if cookies.engineOn { shared.append(CURL_LOCK_DATA_COOKIE) }
    for data in shared {
      fetcher_curl_share_setopt_long(handle, CURLSHOPT_SHARE, Int(data.rawValue))
    }
    if let file = cookies.file, let loader = curl_easy_init() {
      let options = CurlOptions(loader)
      options.set(CURLOPT_SHARE, handle)
      options.set(CURLOPT_COOKIEFILE, file)
      options.set(CURLOPT_COOKIELIST, "RELOAD")
      curl_easy_cleanup(loader)
    }
  }

  /// Turns the cookie engine on for a transfer of this share, as its cookies say.
  func setCookies(on options: CurlOptions) {
    if cookies.engineOn { options.set(CURLOPT_COOKIEFILE, "") }
    if let header = cookies.header { options.set(CURLOPT_COOKIE, header) }
  }

  /// Writes every cookie of the engine to the jar, in Netscape format, as the transfer of
  /// `handle` ends: as every file of the packages is written (`AtomicFile`: a new `0600` file
  /// beside it, synced, renamed over the name), never through a link nor into a FIFO, as
  /// libcurl's own writer would. A jar that cannot be written is said on standard error, as
  /// curl says it, once for each reason.
  func saveCookies(of handle: UnsafeMutableRawPointer) {
    guard let jar = cookies.jar else { return }
    var list: UnsafeMutablePointer<curl_slist>?
    guard fetcher_curl_getinfo_slist(handle, CURLINFO_COOKIELIST, &list) == CURLE_OK else {
      return
    }
    defer { curl_slist_free_all(list) }
    var text = "# Netscape HTTP Cookie File\n# Written by libcurl's cookie engine.\n\n"
    var node = list
    while let current = node {
      text += String(cString: current.pointee.data) + "\n"
      node = current.pointee.next
    }
    jarFailure.withLock { failure in
      do {
        try AtomicFile.replace(URL(fileURLWithPath: jar), with: Data(text.utf8))
      } catch {
        var reason = "\(error)"
        if case .unwritable(_, let why) = error as? StoreFileError { reason = why }
        guard reason != failure else { return }
        failure = reason
        // Standard error itself refusing it is let go: there is nowhere left to say so.
        _ = FileWrite.all(
          Data("warning: cannot write the cookie jar \(jar): \(reason)\n".utf8), to: STDERR_FILENO)
      }
    }
  }

  deinit { curl_share_cleanup(handle) }
}

/// One pthread mutex per kind of shared data, for libcurl's lock callbacks.
private final class Locks: Sendable {
  /// Only locked and unlocked through pthread calls, which are safe from any thread.
  nonisolated(unsafe) private let mutexes: UnsafeMutablePointer<pthread_mutex_t>
  private let count: Int

  init(count: Int) {
    self.count = count
    mutexes = .allocate(capacity: count)
    for index in 0..<count { pthread_mutex_init(mutexes + index, nil) }
  }

  deinit {
    for index in 0..<count { pthread_mutex_destroy(mutexes + index) }
    mutexes.deallocate()
  }

  func lock(_ index: Int) { pthread_mutex_lock(mutexes + index) }
  func unlock(_ index: Int) { pthread_mutex_unlock(mutexes + index) }
}
