import ArgumentParser

/// The flags curl's and aria2c's users type out of habit for what `fetcher download` does
/// anyway: taken, so that a line copied from either runs, and said in the help.
struct HabitOptions: ParsableArguments {
  @Flag(
    name: [.customShort("O"), .customLong("remote-name")],
    help: "curl's: name the file after the URL, as fetcher does unless --out.")
  var remoteName = false

  @Flag(
    name: [.customShort("L"), .customLong("location")],
    help: "curl's: follow redirects, as fetcher does (up to 10).")
  var location = false

  @Option(
    name: [.customShort("C"), .customLong("continue-at")],
    help: ArgumentHelp(
      "curl's -C -: go on from the bytes on disk, as fetcher does; only - is taken.",
      valueName: "-"))
  var continueAt: String?

  @Flag(
    name: .customLong("continue"),
    help:
      "aria2c's -c: go on from the bytes on disk, as fetcher does (here -c is curl's --cookie-jar)."
  )
  var continues = false

  func validate() throws {
    if let continueAt, continueAt != "-" {
      throw ValidationError(
        "-C/--continue-at takes only - (go on from the bytes on disk, as fetcher does by "
          + "itself): fetcher never starts a file at an offset you give")
    }
  }
}
