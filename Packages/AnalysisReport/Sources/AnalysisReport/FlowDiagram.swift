/// The top sequences as a flow: one column per step, a node per page at that step, and a link
/// per pair of pages on consecutive steps, as wide as the occurrences that go through it
/// (Sankey-style). SVG, sized by its viewBox so that it scales to any screen.
struct FlowDiagram {
  let rows: [ReportData.Row]
  let length: Int

  static let width = 960.0
  static let nodeWidth = 12.0
  static let gap = 10.0
  static let padding = 12.0
  /// A label's line and the width of one of its characters, at the report's 14 px.
  static let lineHeight = 16.0
  static let characterWidth = 8.5

  private struct Node {
    var page: String
    var count: Int
    var y = 0.0
    var height = 0.0
    var outgoing = 0.0
    var incoming = 0.0
  }

  /// The number the shares are of: each row's count over its share.
  private var total: Double {
    guard let first = rows.first(where: { $0.share > 0 }) else { return 1 }
    return Double(first.count) / first.share
  }

  func svg() -> String {
    guard !rows.isEmpty, length >= 2 else { return "" }
    let flowTotal = Double(rows.reduce(0) { $0 + $1.count })
    // Nodes per step, most visited first.
    var columns: [[Node]] = (0..<length).map { step in
      var counts: [String: Int] = [:]
      for row in rows { counts[row.pages[step], default: 0] += row.count }
      return counts.map { Node(page: $0.key, count: $0.value) }.sorted {
        $0.count != $1.count ? $0.count > $1.count : $0.page < $1.page
      }
    }
    let tallest = columns.map(\.count).max() ?? 1
    let height = max(240, Double(tallest) * 26 + 2 * Self.padding)
    let scale = (height - 2 * Self.padding - Double(tallest - 1) * Self.gap) / flowTotal
    for step in columns.indices {
      var y = Self.padding
      for index in columns[step].indices {
        columns[step][index].y = y
        columns[step][index].height = Double(columns[step][index].count) * scale
        y += columns[step][index].height + Self.gap
      }
    }
    let spacing = (Self.width - 2 * Self.padding - Self.nodeWidth) / Double(length - 1)
    func x(_ step: Int) -> Double { Self.padding + Double(step) * spacing }

    var links = ""
    for step in 0..<(length - 1) {
      var pairs: [String: (from: Int, to: Int, count: Int)] = [:]
      let position = { (column: Int, page: String) in
        columns[column].firstIndex { $0.page == page }!
      }
      for row in rows {
        let from = position(step, row.pages[step])
        let to = position(step + 1, row.pages[step + 1])
        pairs["\(from) \(to)", default: (from, to, 0)].count += row.count
      }
      // Stacked in the order of the nodes at the other end, so that bands cross less.
      for pair in pairs.values.sorted(by: { ($0.from, $0.to) < ($1.from, $1.to) }) {
        let thickness = Double(pair.count) * scale
        let startY = columns[step][pair.from].y + columns[step][pair.from].outgoing + thickness / 2
        let endY =
          columns[step + 1][pair.to].y + columns[step + 1][pair.to].incoming + thickness / 2
        columns[step][pair.from].outgoing += thickness
        columns[step + 1][pair.to].incoming += thickness
        let startX = x(step) + Self.nodeWidth
        let endX = x(step + 1)
        let middle = (startX + endX) / 2
        let from = columns[step][pair.from].page
        let to = columns[step + 1][pair.to].page
        let label =
          "\(from) → \(to): \(pair.count) (\(Markup.percent(Double(pair.count) / total)))"
        links += """
          <path class="link" tabindex="0" data-count="\(pair.count)" \
          stroke-width="\(Markup.number(thickness))" aria-label="\(Markup.escape(label))" \
          d="M\(Markup.number(startX)) \(Markup.number(startY)) C\(Markup.number(middle)) \
          \(Markup.number(startY)) \(Markup.number(middle)) \(Markup.number(endY)) \
          \(Markup.number(endX)) \(Markup.number(endY))"><title>\(Markup.escape(label))</title></path>

          """
      }
    }
    var nodes = ""
    for (step, column) in columns.enumerated() {
      let last = step == length - 1
      // Labels go right of their node, the last column's left: the last gap is shared by two
      // columns of labels, which get half of it each.
      let room = length > 2 && step >= length - 2 ? spacing / 2 : spacing
      let characters = max(6, Int((room - Self.nodeWidth - 8) / Self.characterWidth))
      var lastLabelY = -Double.infinity
      for node in column {
        let labelX = last ? x(step) - 4 : x(step) + Self.nodeWidth + 4
        let labelY = node.y + node.height / 2
        // A label too close to the one above it is left out: the node's title still says it.
        var label = ""
        if labelY - lastLabelY >= Self.lineHeight {
          lastLabelY = labelY
          label = """
            <text x="\(Markup.number(labelX))" y="\(Markup.number(labelY))" \
            text-anchor="\(last ? "end" : "start")">\
            \(Markup.escape(Markup.shortened(node.page, to: characters)))</text>
            """
        }
        nodes += """
          <g class="node"><title>\(Markup.escape("\(node.page): \(node.count)"))</title>\
          <rect x="\(Markup.number(x(step)))" y="\(Markup.number(node.y))" \
          width="\(Markup.number(Self.nodeWidth))" height="\(Markup.number(max(1, node.height)))"/>\
          \(label)</g>

          """
      }
    }
    return """
      <svg xmlns="http://www.w3.org/2000/svg" class="flow" role="img" \
      viewBox="0 0 \(Markup.number(Self.width)) \(Markup.number(height))" \
      aria-label="Flow of the top \(rows.count) sequences">
      \(links)\(nodes)</svg>
      """
  }
}
