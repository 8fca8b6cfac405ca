import DownloadClient
import Foundation
import StoreLive
import Testing

@testable import DownloadClientLive

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The claims of downloads, each `Claims` of a folder standing for a process of its own (a
/// claim is held by an open of the file, which another open, in this process or another, sees).
@Suite struct ClaimsTests {
  @Test func aClaimHeldIsBusyForOthersUntilLetGoAndOtherDownloadsAreFree() throws {
    let folder = try TemporaryFolder()
    let (first, second) = (
      Claims(folder: folder.file("claims")), Claims(folder: folder.file("claims"))
    )
    let ids = [DownloadID.random(), DownloadID("0000abcd"), DownloadID("not-hex")]
    let held = try ids.map { try first.claim($0) }
    for id in ids {
      #expect(first.isHeld(id) && second.isHeld(id))
      #expect(throws: DownloadError.busy(id, pid: getpid())) { try second.claim(id) }
    }
    let other = try second.claim(DownloadID("0000abce"))
    other.release()
    for claim in held { claim.release() }
    for id in ids {
      #expect(!second.isHeld(id))
      try second.claim(id).release()
    }
  }

  #if os(Linux)
    @Test func claimingMakesNoFileADownload() throws {
      let folder = try TemporaryFolder()
      let claims = Claims(folder: folder.file("claims"))
      let held = try (0..<100).map { _ in try claims.claim(DownloadID.random()) }
      defer { for claim in held { claim.release() } }
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder.file("claims").path)
          == ["byte-locks"])
    }

    @Test func anEarlierVersionsClaimOnItsOwnFileIsRespected() throws {
      let folder = try TemporaryFolder()
      let claims = Claims(folder: folder.file("claims"))
      try FileManager.default.createDirectory(
        at: folder.file("claims"), withIntermediateDirectories: true)
      let id = DownloadID("0badc0de")
      // An earlier version's claim: an flock on <id>.lock, holding its process ID.
      let earlier = open(folder.file("claims/\(id).lock").path, O_RDWR | O_CREAT, 0o600)
      defer { close(earlier) }
      #expect(pwrite(earlier, "4242\n", 5, 0) == 5)
      #expect(flock(earlier, LOCK_EX) == 0)
      #expect(claims.isHeld(id))
      #expect(throws: DownloadError.busy(id, pid: 4242)) { try claims.claim(id) }
      flock(earlier, LOCK_UN)
      #expect(!claims.isHeld(id))
      try claims.claim(id).release()
    }

    @Test func aDownloadsByteIsItsNumberAndOtherIDsGoPastThem() {
      #expect(Claims.byte(of: DownloadID("00000000")) == 0)
      #expect(Claims.byte(of: DownloadID("ffffffff")) == 0xffff_ffff)
      #expect(Claims.byte(of: DownloadID("+1234567")) >= 1 << 32)
      #expect(Claims.byte(of: DownloadID("a")) >= 1 << 32)
      #expect(Claims.byte(of: DownloadID("a")) != Claims.byte(of: DownloadID("b")))
    }
  #endif
}
