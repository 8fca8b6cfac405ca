import CCurl
import Foundation
import HTTPClient

/// libcurl's result codes, as `HTTPError`s that name the cause.
enum CurlError {
  /// The error for `code`; `location` is the last redirect's target, if any.
  static func httpError(
    _ code: CURLcode, message: String, request: HTTPRequest, location: String?,
    configuration: HTTPConfiguration
  ) -> HTTPError {
    let reason = message.isEmpty ? String(cString: curl_easy_strerror(code)) : message
    let url = request.url.redactingPassword.absoluteString
    switch code {
    case CURLE_UNSUPPORTED_PROTOCOL:
      if let location { return .unsupportedScheme("a redirect to \(location)") }
      return .unsupportedScheme(url)
    case CURLE_URL_MALFORMAT:
      return .invalidURL(url)
    case CURLE_COULDNT_RESOLVE_HOST:
      return .nameLookup(host: request.url.host ?? url)
    case CURLE_COULDNT_RESOLVE_PROXY, CURLE_PROXY:
      return .proxy(reason)
    case CURLE_COULDNT_CONNECT:
      return .connect(reason)
    case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM,
      CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_CRL_BADFILE:
      return .tlsCertificate(reason)
    case CURLE_SSL_CONNECT_ERROR:
      return .tls(reason)
    case CURLE_TOO_MANY_REDIRECTS:
      return .tooManyRedirects(limit: configuration.maxRedirects)
    case CURLE_OPERATION_TIMEDOUT:
      // libcurl's low-speed limit; its connect timeout is the idle timeout.
      if let speed = request.minimumSpeed, reason.contains("too slow") { return .tooSlow(speed) }
      return .idleTimeout(seconds: request.idleSeconds)
    case CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING:
      return .malformedResponse(reason)
    case CURLE_RECV_ERROR where reason.contains("chunked-encoding"):
      // libcurl's code for a broken chunked body is the one of a failed read.
      return .malformedResponse(reason)
    case CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_HTTP2,
      CURLE_HTTP2_STREAM:
      return .connectionLost(reason)
    default:
      return .other(reason)
    }
  }
}
