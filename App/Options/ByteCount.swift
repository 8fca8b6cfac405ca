import ArgumentParser

/// A size or a rate typed on the command line: bytes, or a number with `K`, `M` or `G`
/// (powers of 1024, as curl, wget and aria2c read them): `500K`, `10M`, `1.5G`.
struct ByteCount: ExpressibleByArgument, Equatable {
  let bytes: Int64

  init?(argument: String) {
    let units: [Character: Double] = ["k": 1024, "m": 1_048_576, "g": 1_073_741_824]
    var number = Substring(argument)
    var unit = 1.0
    if let last = number.last?.lowercased().first, let size = units[last] {
      unit = size
      number = number.dropLast()
    }
    guard let value = Double(number), value.isFinite, value >= 1, value * unit <= 1e18 else {
      return nil
    }
    bytes = Int64((value * unit).rounded())
  }
}
