/// The stored values as `fetch --json` and `status --json` print them:
/// `{"responseCode":"<uuid>"|null,"timesFetched":<n>}`, with `null` before any fetch.
public struct FetchValues: Codable, Equatable, Sendable {
  public var responseCode: String?
  public var timesFetched: Int

  public init(_ state: DataFetchViewModel.State) {
    responseCode = state.responseCode.map { _ in state.responseCodeText }
    timesFetched = state.timesFetched
  }

  // Written by hand so that a missing code is `null`, not a missing key.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(responseCode, forKey: .responseCode)
    try container.encode(timesFetched, forKey: .timesFetched)
  }
}
