import Foundation

/// A JSON-RPC 2.0 error: a code and a message. aria2 answers its own failures with code 1.
public struct RPCError: Error, Sendable, Equatable, CustomStringConvertible {
  public var code: Int
  public var message: String

  public init(code: Int, message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { message }

  public static let unparsable = RPCError(code: -32700, message: "Parse error.")
  public static let invalidRequest = RPCError(code: -32600, message: "Invalid Request.")
  public static let unauthorized = RPCError(code: 1, message: "Unauthorized")

  /// An unknown method, as aria2c answers it (code 1, not JSON-RPC's -32601), so that its
  /// clients read it as they read aria2c's.
  public static func methodNotFound(_ name: String) -> RPCError {
    RPCError(code: 1, message: "No such method: \(name)")
  }

  public static func invalidParams(_ message: String) -> RPCError {
    RPCError(code: -32602, message: message)
  }

  /// A failure of the method itself, with aria2's code 1.
  public static func failure(_ message: String) -> RPCError {
    RPCError(code: 1, message: message)
  }

  /// The error as the `error` member of a response.
  public var value: JSONValue {
    .object(["code": .integer(code), "message": .string(message)])
  }

  /// The error an `error` member holds; nil when it is not one.
  public init?(_ value: JSONValue) {
    guard let code = value["code"]?.integer else { return nil }
    self.init(code: code, message: value["message"]?.string ?? "")
  }
}

/// A call: a method, its positional parameters, and an ID unless it is a notification.
public struct RPCRequest: Sendable, Equatable {
  /// Nil for a notification, which gets no answer.
  public var id: JSONValue?
  public var method: String
  public var params: [JSONValue]

  public init(id: JSONValue?, method: String, params: [JSONValue] = []) {
    self.id = id
    self.method = method
    self.params = params
  }

  /// The request `value` holds; throws `.invalidRequest` when it holds none (no method, or
  /// parameters that are not a list).
  public init(_ value: JSONValue) throws(RPCError) {
    guard let object = value.object, let method = object["method"]?.string else {
      throw .invalidRequest
    }
    let params: [JSONValue]
    switch object["params"] {
    case nil, .null?: params = []
    case .array(let list)?: params = list
    default: throw .invalidParams("params must be a list: aria2 takes positional parameters")
    }
    self.init(id: object["id"], method: method, params: params)
  }

  /// The request as JSON.
  public var value: JSONValue {
    var object: [String: JSONValue] = [
      "jsonrpc": "2.0", "method": .string(method), "params": .array(params),
    ]
    if let id { object["id"] = id }
    return .object(object)
  }
}

/// The answers of JSON-RPC 2.0.
public enum RPCResponse {
  /// The answer of the call with `id`: its result, or its error.
  public static func message(id: JSONValue?, _ outcome: Result<JSONValue, RPCError>)
    -> JSONValue
  {
    var object: [String: JSONValue] = ["jsonrpc": "2.0", "id": id ?? .null]
    switch outcome {
    case .success(let result): object["result"] = result
    case .failure(let error): object["error"] = error.value
    }
    return .object(object)
  }

  /// The result or the error of an answer.
  public static func outcome(of value: JSONValue) -> Result<JSONValue, RPCError> {
    if let error = value["error"] {
      return .failure(RPCError(error) ?? .failure("an error without a code: \(error)"))
    }
    guard let result = value["result"] else { return .failure(.invalidRequest) }
    return .success(result)
  }

  /// A notification (a call without an ID) of `method` with `params`.
  public static func notification(_ method: String, _ params: [JSONValue]) -> JSONValue {
    RPCRequest(id: nil, method: method, params: params).value
  }

  /// The answer to the JSON text `body`, a call or a batch of them, each answered by
  /// `handle`; nil when nothing is to be answered (notifications only).
  public static func answer(
    _ body: Data, isolation: isolated (any Actor)? = #isolation,
    handle: (RPCRequest) async -> Result<JSONValue, RPCError>
  ) async -> Data? {
    await answer(body, authorize: { _ in true }, handle: handle)
  }

  /// The most calls a batch holds: aria2's front ends send a handful (AriaNg one multicall),
  /// a script that queues a list one addUri each.
  public static let maxBatch = 10_000

  /// The answer to the JSON text `body`, a call or a batch of at most `maxBatch` calls: when
  /// `authorize` takes every call, each answered by `handle` in order; otherwise one
  /// `Unauthorized` error, before any call runs. A batch with an entry that is no call, or
  /// longer than `maxBatch`, gets one `Invalid Request` error: no answer is much longer than
  /// its request. Nil when nothing is to be answered (notifications only).
  public static func answer(
    _ body: Data, isolation: isolated (any Actor)? = #isolation,
    authorize: ([RPCRequest]) -> Bool,
    handle: (RPCRequest) async -> Result<JSONValue, RPCError>
  ) async -> Data? {
    await answer(
      body, authorize: authorize,
      handleEach: { requests in
        var outcomes: [Result<JSONValue, RPCError>] = []
        for request in requests { outcomes.append(await handle(request)) }
        return outcomes
      })
  }

  /// `answer(_:authorize:handle:)`, the calls all handed to `handleEach`, which answers each
  /// in order (and may run several at once, as a batch of `addUri` is).
  public static func answer(
    _ body: Data, isolation: isolated (any Actor)? = #isolation,
    authorize: ([RPCRequest]) -> Bool,
    handleEach: ([RPCRequest]) async -> [Result<JSONValue, RPCError>]
  ) async -> Data? {
    // Measured before it is parsed: a body too deep, or a batch too long (a million zeros
    // took seconds to parse), costs one pass over its bytes.
    let shape = JSONValue.shape(of: body)
    guard shape.entries <= maxBatch else { return message(id: nil, .failure(.invalidRequest)).json }
    guard shape.depth <= JSONValue.maxDepth, let parsed = try? JSONValue(measured: body) else {
      return message(id: nil, .failure(.unparsable)).json
    }
    let requests: [RPCRequest]
    if case .array(let calls) = parsed {
      // Its length was counted before it was parsed (`shape.entries`).
      guard !calls.isEmpty,
        let all = try? calls.map({ call throws(RPCError) in try RPCRequest(call) })
      else { return message(id: nil, .failure(.invalidRequest)).json }
      requests = all
    } else {
      do {
        requests = [try RPCRequest(parsed)]
      } catch {
        return message(id: parsed["id"], .failure(error)).json
      }
    }
    guard authorize(requests) else {
      let id = parsed.array == nil ? requests[0].id : nil
      return message(id: id, .failure(.unauthorized)).json
    }
    var answers: [JSONValue] = []
    for (request, outcome) in zip(requests, await handleEach(requests)) where request.id != nil {
      answers.append(message(id: request.id, outcome))
    }
    if parsed.array == nil { return answers.first?.json }
    return answers.isEmpty ? nil : JSONValue.array(answers).json
  }
}
