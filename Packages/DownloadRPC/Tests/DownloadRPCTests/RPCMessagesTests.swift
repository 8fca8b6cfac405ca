import Foundation
import Synchronization
import Testing

@testable import DownloadRPC

/// JSON-RPC 2.0 as its specification's examples read: calls, batches, notifications, errors.
@Suite struct RPCMessagesTests {
  /// Answers every call with its method's name, and records the calls.
  private func answer(_ text: String) async -> JSONValue? {
    await RPCResponse.answer(Data(text.utf8)) { request in .success(.string(request.method)) }
      .map { try! JSONValue(json: $0) }
  }

  @Test func aCallIsAnsweredWithItsID() async throws {
    let answer = await answer(#"{"jsonrpc":"2.0","id":7,"method":"aria2.getVersion"}"#)
    #expect(answer == .object(["jsonrpc": "2.0", "id": .integer(7), "result": "aria2.getVersion"]))
  }

  @Test func aNotificationGetsNoAnswer() async {
    #expect(await answer(#"{"jsonrpc":"2.0","method":"aria2.getVersion"}"#) == nil)
    #expect(
      await answer(#"[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"b"}]"#) == nil)
  }

  @Test func aBatchIsAnsweredInOrderWithoutItsNotifications() async {
    let answer = await answer(
      #"[{"jsonrpc":"2.0","id":"1","method":"a"},{"jsonrpc":"2.0","method":"b"},"#
        + #"{"jsonrpc":"2.0","id":"3","method":"c"}]"#)
    let results = answer?.array?.map { $0["result"] ?? $0["error"]?["code"] }
    #expect(results == ["a", "c"])
  }

  /// Unlike JSON-RPC's example, which answers each entry, so that 2 MB of `0,` cannot ask for
  /// 80 MB of errors.
  @Test func aBatchWithAnEntryThatIsNoCallOrTooManyGetsOneError() async {
    let mixed = await answer(#"[{"jsonrpc":"2.0","id":"1","method":"a"},{"foo":"boo"},0]"#)
    #expect(mixed?["error"]?["code"] == .integer(-32600))
    #expect(mixed?.array == nil)
    let call = #"{"jsonrpc":"2.0","id":1,"method":"a"}"#
    let longest = Array(repeating: call, count: RPCResponse.maxBatch)
    #expect(await answer("[" + longest.joined(separator: ",") + "]")?.array?.count == 10_000)
    let tooLong = "[" + (longest + [call]).joined(separator: ",") + "]"
    #expect(await answer(tooLong)?["error"]?["code"] == .integer(-32600))
  }

  /// A body's depth and its batch's length are measured in one pass, before it is parsed:
  /// commas and brackets in strings, and those of inner values, do not count.
  @Test func aBodyIsMeasuredBeforeItIsParsed() {
    let batch = #"[1, "a,b]", [2, 3], {"x": 1, "y": "\",["}]"#
    #expect(JSONValue.shape(of: Data(batch.utf8)) == (depth: 2, entries: 4))
    #expect(JSONValue.shape(of: Data(#"{"a": [1, 2]}"#.utf8)) == (depth: 2, entries: 0))
  }

  @Test func textNestedPastTheLimitIsAParseErrorAndIsNotDecoded() async throws {
    let deepest = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
    #expect(throws: Never.self) { try JSONValue(json: Data(deepest.utf8)) }
    let deeper = "[" + deepest + "]"
    #expect(throws: JSONTooDeep.self) { try JSONValue(json: Data(deeper.utf8)) }
    // Brackets in strings, escaped quotes among them, are not nesting.
    let quoted = #"{"a":"[[[[\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}"#
    #expect(try JSONValue(json: Data(quoted.utf8))["a"]?.string?.count == 45)
    // 200,000 levels (the attack that held the daemon for minutes) are refused at once.
    let attack = String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)
    #expect(await answer(attack)?["error"]?["code"] == .integer(-32700))
  }

  @Test func anUnauthorizedBodyGetsOneErrorAndRunsNothing() async {
    let ran = Mutex<[String]>([])
    let shown = Mutex<[String]>([])
    let body = #"[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","id":2,"method":"b"}]"#
    let answer = await RPCResponse.answer(
      Data(body.utf8),
      authorize: { requests in
        shown.withLock { $0 = requests.map(\.method) }
        return false
      },
      handle: { request in
        ran.withLock { $0.append(request.method) }
        return .success(.null)
      })
    let value = try? JSONValue(json: answer ?? Data())
    #expect(value?["error"]?["message"] == "Unauthorized")
    #expect(value?["id"] == .null)
    #expect(shown.withLock { $0 } == ["a", "b"])
    #expect(ran.withLock { $0 }.isEmpty)
  }

  @Test func unreadableTextIsAParseErrorAndAnEmptyBatchInvalid() async {
    #expect(await answer("{not json")?["error"]?["code"] == .integer(-32700))
    #expect(await answer("{not json")?["id"] == .null)
    #expect(await answer("[]")?["error"]?["code"] == .integer(-32600))
  }

  @Test func namedParametersAreRefusedWithTheReason() async {
    let answer = await answer(#"{"jsonrpc":"2.0","id":1,"method":"a","params":{"x":1}}"#)
    #expect(answer?["error"]?["code"] == .integer(-32602))
    #expect(answer?["id"] == .integer(1))
  }

  @Test func anAnswerReadsBackAsItsOutcome() throws {
    let success = RPCResponse.message(id: "a", .success(["x"]))
    #expect(try RPCResponse.outcome(of: success).get() == ["x"])
    let failure = RPCResponse.message(id: "a", .failure(.unauthorized))
    #expect(throws: RPCError.unauthorized) { try RPCResponse.outcome(of: failure).get() }
  }

  @Test func aRequestWritesWhatItReads() throws {
    let request = RPCRequest(id: "q", method: "aria2.tellStatus", params: ["token:s", "1"])
    #expect(try RPCRequest(request.value) == request)
    #expect(try RPCRequest(JSONValue(json: request.value.json)) == request)
  }

  @Test func everyKindOfValueReadsAsItsCase() throws {
    let text = #"[null,true,false,0,-3,1.5,12345678901234,"s",{"a":[1,"b"]},[]]"#
    let expected: JSONValue = [
      .null, .bool(true), .bool(false), .integer(0), .integer(-3), .number(1.5),
      .integer(12_345_678_901_234), "s", .object(["a": [.integer(1), "b"]]), [],
    ]
    #expect(try JSONValue(json: Data(text.utf8)) == expected)
    // As the Decodable conformance reads it, which reads what other types hold.
    #expect(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) == expected)
    #expect(try JSONValue(json: expected.json) == expected)
  }

  @Test func numbersWrittenAsStringsReadAsIntegers() throws {
    let value = try JSONValue(json: Data(#"{"a":"42","b":42,"c":4.0,"d":"x","e":4.5}"#.utf8))
    #expect(value["a"]?.integer == 42)
    #expect(value["b"]?.integer == 42)
    #expect(value["c"]?.integer == 4)
    #expect(value["d"]?.integer == nil)
    #expect(value["e"]?.integer == nil)
  }
}
