/// HTTP header fields in order, looked up by name whatever its case.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
  public private(set) var fields: [(name: String, value: String)]

  public init(_ fields: [(name: String, value: String)] = []) {
    self.fields = fields
  }

  public init(dictionaryLiteral elements: (String, String)...) {
    fields = elements.map { (name: $0.0, value: $0.1) }
  }

  /// The value of the first field called `name`; setting replaces every field of that name
  /// (nil removes them).
  public subscript(name: String) -> String? {
    get { fields.first { $0.name.equalsIgnoringCase(name) }?.value }
    set {
      let index = fields.firstIndex { $0.name.equalsIgnoringCase(name) }
      fields.removeAll { $0.name.equalsIgnoringCase(name) }
      guard let newValue else { return }
      fields.insert((name, newValue), at: Swift.min(index ?? fields.count, fields.count))
    }
  }

  /// Adds a field after the others, keeping any of the same name.
  public mutating func append(name: String, value: String) {
    fields.append((name, value))
  }

  public func makeIterator() -> some IteratorProtocol<(name: String, value: String)> {
    fields.makeIterator()
  }

  public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
    lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
  }
}
