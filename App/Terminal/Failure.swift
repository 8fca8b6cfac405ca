import ArgumentParser
import DataFetchFeature
import StyleGuide

/// Prints `reason` as one line on standard error, `printable`, and returns the exit status
/// to throw.
func failure(_ reason: String) -> ExitCode {
  Terminal.writeError("fetcher: \(reason.printable)\n")
  return .failure
}

/// Runs `work`; an error becomes one line on standard error and exit status 1.
func failingWithReason<T>(_ work: () async throws -> T) async throws -> T {
  do {
    return try await work()
  } catch let exit as ExitCode {
    // Already said.
    throw exit
  } catch {
    throw failure("\(error)")
  }
}

/// Prints the state's error cause as one line on standard error and exits 1, if it has one.
func exitOnError(_ state: DataFetchViewModel.State) throws {
  if let cause = state.errorCause { throw failure(cause) }
}
