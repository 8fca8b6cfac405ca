import TestPorts
import Testing

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`).
@Test func readmeExample() throws {
  // snippet: readme
  let port = try freePort()
  let arguments = ["server.py", "--port", "\(port)"]
  // end
  #expect(arguments.last == "\(port)")
}
