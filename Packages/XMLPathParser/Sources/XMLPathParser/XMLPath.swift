/// A path of element names from the root, joined by dots, with names kept as written
/// (`feed.entry.im:name`), and optionally attribute conditions after an `@`:
/// `feed.entry.link@rel=alternate,href` matches only `link` elements whose `rel` is
/// `alternate` and that carry an `href`. A name holding a dot writes it `\.`
/// (`data.v1\.2`); `*` is any one element (`*` alone is the root, whatever its name).
public struct XMLPath: Hashable, Sendable, CustomStringConvertible {
  /// The name that stands for any one element.
  static let anyName = "*"

  /// The element names from the root.
  public let elements: [String]
  /// Attributes the element must carry, each with the value it must have, if any.
  public let conditions: [AttributeCondition]
  public let description: String

  public init(_ text: String) throws(XMLPathError) {
    description = text
    let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
    elements = Self.names(parts[0])
    guard !elements.contains(where: \.isEmpty) else {
      throw .invalidPath(text, reason: "an element name is empty")
    }
    guard parts.count == 2 else {
      conditions = []
      return
    }
    conditions = try parts[1].split(separator: ",", omittingEmptySubsequences: false).map {
      condition throws(XMLPathError) in
      let pair = condition.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard !pair[0].isEmpty else {
        throw .invalidPath(text, reason: "an attribute name is empty")
      }
      return AttributeCondition(
        name: String(pair[0]), value: pair.count == 2 ? String(pair[1]) : nil)
    }
  }

  /// The names of `text` split at each dot that no backslash escapes.
  private static func names(_ text: Substring) -> [String] {
    var names = [""]
    var escaped = false
    for character in text {
      if escaped {
        names[names.count - 1].append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "." {
        names.append("")
      } else {
        names[names.count - 1].append(character)
      }
    }
    return names
  }

  /// Whether an element with `attributes` meets every condition.
  func accepts(_ attributes: [String: String]) -> Bool {
    conditions.allSatisfy { condition in
      guard let value = attributes[condition.name] else { return false }
      return condition.value.map { $0 == value } ?? true
    }
  }
}

/// An attribute an element must carry, with the value it must have when `value` is set.
public struct AttributeCondition: Hashable, Sendable {
  public let name: String
  public let value: String?
}
