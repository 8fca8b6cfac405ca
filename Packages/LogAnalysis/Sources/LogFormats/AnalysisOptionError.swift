/// An option value that cannot be used, with the reason.
public struct AnalysisOptionError: Error, Equatable, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}
