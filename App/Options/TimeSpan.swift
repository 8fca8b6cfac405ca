import ArgumentParser

/// A duration typed on the command line: seconds, or a number with `s`, `m`, `h` or `d`
/// (`90`, `1.5m`, `2h`), as `--max-time` takes it.
struct TimeSpan: ExpressibleByArgument, Equatable {
  let duration: Duration

  init?(argument: String) {
    let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
    var number = Substring(argument)
    var unit = 1.0
    if let last = number.last, let seconds = units[last] {
      unit = seconds
      number = number.dropLast()
    }
    guard let value = Double(number), value.isFinite, value > 0, value * unit <= 1e9 else {
      return nil
    }
    duration = .milliseconds(Int64((value * unit * 1000).rounded()))
  }

  /// The span as it is typed: the largest unit that gives a whole number (`90s`, `2h`).
  var defaultValueDescription: String {
    let milliseconds =
      duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    for (unit, size) in [("d", Int64(86_400_000)), ("h", 3_600_000), ("m", 60_000), ("s", 1000)]
    where milliseconds % size == 0 {
      return "\(milliseconds / size)\(unit)"
    }
    return "\(Double(milliseconds) / 1000)s"
  }
}
