/// A funnel drawn: a bar a step, centred and as wide as its share of the paths that reached
/// the first step, joined to the next by a band that narrows to it; the step's page on the
/// left, its paths and share on the right, and between two steps the paths lost and the median
/// time from one to the next. The numbers also in a table below. Inline SVG, no script.
enum FunnelDiagram {
  static func section(_ funnel: ReportData.Funnel) -> String {
    var out = "<section><h2>Funnel</h2>\n<p class=\"hint\">Of \(funnel.paths) paths. A path "
    out += "reaches a step when it visits one of its pages after reaching the step before; "
    out += "other pages may come between.</p>\n"
    guard !funnel.steps.isEmpty else { return out + "<p>None.</p></section>\n" }
    let (rowHeight, barHeight, middle, widest) = (56.0, 30.0, 390.0, 340.0)
    let height = Double(funnel.steps.count) * rowHeight
    out += HTMLReport.chart(width: 760, height: height, label: "Funnel")
    let width = { (share: Double) in max(2, share * widest) }
    for (index, step) in funnel.steps.enumerated() {
      let top = Double(index) * rowHeight
      let half = width(step.share) / 2
      if index + 1 < funnel.steps.count {
        // The band to the next step, and what was lost on the way.
        let next = funnel.steps[index + 1]
        let nextHalf = width(next.share) / 2
        let (from, to) = (top + barHeight, top + rowHeight)
        out += "<polygon class=\"funnel-lost\" points=\""
        out += [
          (middle - half, from), (middle + half, from), (middle + nextHalf, to),
          (middle - nextHalf, to),
        ].map { "\(Markup.number($0.0)),\(Markup.number($0.1))" }.joined(separator: " ")
        out += "\"/>\n"
        var lost = next.dropOff == 0 ? "none lost" : "−\(next.dropOff) lost"
        if let time = next.medianTime { lost += ", median \(time)" }
        out += "<text x=\"580\" y=\"\(Markup.number(from + 17))\">\(Markup.escape(lost))</text>\n"
      }
      out += "<g tabindex=\"0\"><title>\(Markup.escape(step.page)): \(step.paths) paths "
      out += "(\(Markup.percent(step.share)))</title>"
      out += "<rect class=\"funnel-step\" x=\"\(Markup.number(middle - half))\" "
      out += "y=\"\(Markup.number(top))\" width=\"\(Markup.number(2 * half))\" "
      out += "height=\"\(Markup.number(barHeight))\" rx=\"3\"/>"
      let baseline = Markup.number(top + barHeight / 2 + 5)
      out += "<text class=\"funnel-text\" x=\"4\" y=\"\(baseline)\">\(index + 1). "
      out += "\(Markup.escape(Markup.shortened(step.page, to: 28)))</text>"
      out += "<text class=\"funnel-text\" x=\"580\" y=\"\(baseline)\">\(step.paths) "
      out += "(\(Markup.percent(step.share)))</text></g>\n"
    }
    return out
      + HTMLReport.numbers(
        headers: ["Step", "Paths", "Share", "Lost", "Median time", "Page"],
        rows: funnel.steps.enumerated().map { index, step in
          [
            "\(index + 1)", "\(step.paths)", Markup.percent(step.share),
            index == 0 ? "" : "\(step.dropOff)", step.medianTime ?? "", step.page,
          ]
        })
  }
}
