import DownloadRPC
import Foundation
import Testing

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
        + #"{"jsonrpc":"2.0","id":"3","method":"c"},{"foo":"boo"}]"#)
    let results = answer?.array?.map { $0["result"] ?? $0["error"]?["code"] }
    #expect(results == ["a", "c", .integer(-32600)])
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

  @Test func numbersWrittenAsStringsReadAsIntegers() throws {
    let value = try JSONValue(json: Data(#"{"a":"42","b":42,"c":4.0,"d":"x","e":4.5}"#.utf8))
    #expect(value["a"]?.integer == 42)
    #expect(value["b"]?.integer == 42)
    #expect(value["c"]?.integer == 4)
    #expect(value["d"]?.integer == nil)
    #expect(value["e"]?.integer == nil)
  }
}
