import ChecksumTypes
import DownloadClient
import Foundation
import Testing

@testable import DownloadClientLive

/// A record with every optional property set, and text that JSON must escape.
private func fullRecord(status: DownloadStatus = .running) -> DownloadRecord {
  var request = DownloadRequest(
    url: URL(string: "https://h.example/a%20b/ü.bin?q=\"1\"&r=\\")!,
    destination: URL(fileURLWithPath: "/tmp/out/named \"x\".bin"),
    folder: URL(fileURLWithPath: "/tmp/out/"),
    expectedChecksum: FileChecksum(.sha512, hex: String(repeating: "ab", count: 64)),
    headers: ["X-Note": "tab\there, quote \" and \\ and \u{01}\u{1F} and é 😀", "Accept": "*/*"],
    mirrors: [URL(string: "http://m1.example/a")!, URL(string: "https://m2.example/ü?\"")!])
  request.expectedSize = 1 << 50
  request.limits = DownloadLimits(
    maxSize: 1 << 40, bytesPerSecond: 512_000, maxSeconds: 1.5, maxRetries: 7)
  request.limits?.connections = 4
  var record = DownloadRecord(
    download: Download(
      id: DownloadID("0a1b2c3d"), request: request, status: status,
      destination: URL(fileURLWithPath: "/tmp/out/named \"x\".bin"), receivedBytes: 1 << 40,
      expectedBytes: Int64.max),
    sequence: Int.max, entityTag: "W/\"v1\"", lastModified: "Tue, 24 Nov 2026 12:15:02 GMT",
    needsSecrets: true)
  record.segments = [
    Segment(start: 0, end: 10, received: 3), Segment(start: 10, end: 20, received: 10),
  ]
  record.placing = true
  record.partFile = FileIdentity(device: UInt64.max, inode: 1 << 63)
  record.mirrorValidators = ["http://m1.example/a": "\"m1\"", "https://m2.example/\"": "W/\"é\""]
  record.failure = .checksumMismatch(
    expected: FileChecksum(.sha256, hex: String(repeating: "0f", count: 32))!, actual: "\"é\"")
  record.download.failure = .httpStatus(404)
  return record
}

/// The lines' JSON as Foundation's objects, which compare whatever the order of keys.
private func object(_ data: Data) throws -> NSDictionary {
  try #require(JSONSerialization.jsonObject(with: data) as? NSDictionary)
}

/// The names of the stored properties of `value` and of the records, requests, downloads,
/// IDs and segments inside it, which a line must hold when each is set.
private func propertyNames(_ value: Any, path: String = "") -> Set<String> {
  var names: Set<String> = []
  let mirror = Mirror(reflecting: value)
  guard mirror.displayStyle == .struct else { return names }
  for child in mirror.children {
    // Not kept in the queue, by design (see `DownloadRequest.pieceChecksums`).
    guard let label = child.label, label != "pieceChecksums" else { continue }
    names.insert(path + label)
    let inner = Mirror(reflecting: child.value)
    let unwrapped: Any? =
      inner.displayStyle == .optional ? inner.children.first?.value : child.value
    if let unwrapped, Mirror(reflecting: unwrapped).displayStyle == .struct,
      !(unwrapped is URL)
    {
      names.formUnion(propertyNames(unwrapped, path: path + label + "."))
    }
  }
  return names
}

/// The keys of `object`, with their paths, down through objects (not through arrays or the
/// headers and the mirrors' validators, whose keys are data, nor through a status or a
/// failure, enums whose keys are their cases).
private func keyNames(_ object: NSDictionary, path: String = "") -> Set<String> {
  var names: Set<String> = []
  for case (let key as String, let value) in object {
    names.insert(path + key)
    if let inner = value as? NSDictionary,
      !["headers", "status", "mirrorValidators", "failure"].contains(key)
    {
      names.formUnion(keyNames(inner, path: path + key + "."))
    }
  }
  return names
}

@Suite struct QueueLineWriterTests {
  private let statuses: [DownloadStatus] = [
    .queued, .running, .retrying(attempt: 2), .waitingForNetwork, .paused, .completed,
    .failed(reason: "the server answered \"no\"\nat\tonce"),
  ]

  @Test func aLineReadsBackAsTheRecord() throws {
    var records = statuses.map { fullRecord(status: $0) }
    // And with every optional property left out.
    records.append(
      DownloadRecord(
        download: Download(
          id: DownloadID("ffffffff"), request: DownloadRequest(url: URL(string: "http://h/")!),
          status: .queued, destination: nil),
        sequence: 0))
    for record in records {
      let line = QueueLineWriter.line(record)
      let decoded = try JSONDecoder().decode([String: StoredRecord].self, from: line)
      #expect(decoded["record"]?.record == record)
    }
  }

  /// The schema, written out: a line as 4.0.0 wrote it (then the `Codable` layout of the
  /// public types) reads as this record, and the writer writes the same, whatever those
  /// types' `Codable` becomes.
  @Test func theSchemaIsTheOneOnDisk() throws {
    let line = Data(
      #"{"record":{"download":{"id":{"rawValue":"0a1b2c3d"},"request":{"url":"https://h.example/a.iso","destination":"file:///tmp/out/a.iso","folder":"file:///tmp/out/","expectedChecksum":{"algorithm":"sha-256","hex":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"},"expectedSize":100,"limits":{"maxSize":1000,"bytesPerSecond":512,"maxSeconds":1.5,"maxRetries":7},"headers":{"Accept":"*/*"},"mirrors":["http://m1.example/a.iso"]},"status":{"retrying":{"attempt":2}},"destination":"file:///tmp/out/a.iso","receivedBytes":40,"expectedBytes":100},"sequence":3,"entityTag":"\"v1\"","lastModified":"Tue, 24 Nov 2026 12:15:02 GMT","needsSecrets":true,"segments":[{"start":0,"end":50,"received":40},{"start":50,"end":100,"received":0}],"placing":false,"partFile":{"device":2049,"inode":77},"mirrorValidators":{"http://m1.example/a.iso":"\"m1\""}}}"#
        .utf8)
    var request = DownloadRequest(
      url: URL(string: "https://h.example/a.iso")!,
      destination: URL(string: "file:///tmp/out/a.iso")!,
      folder: URL(string: "file:///tmp/out/")!,
      expectedChecksum: FileChecksum(
        .sha256, hex: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"),
      headers: ["Accept": "*/*"], mirrors: [URL(string: "http://m1.example/a.iso")!])
    request.expectedSize = 100
    request.limits = DownloadLimits(
      maxSize: 1000, bytesPerSecond: 512, maxSeconds: 1.5, maxRetries: 7)
    var record = DownloadRecord(
      download: Download(
        id: DownloadID("0a1b2c3d"), request: request, status: .retrying(attempt: 2),
        destination: URL(string: "file:///tmp/out/a.iso")!, receivedBytes: 40,
        expectedBytes: 100),
      sequence: 3, entityTag: "\"v1\"", lastModified: "Tue, 24 Nov 2026 12:15:02 GMT",
      needsSecrets: true)
    record.segments = [
      Segment(start: 0, end: 50, received: 40), Segment(start: 50, end: 100, received: 0),
    ]
    record.partFile = FileIdentity(device: 2049, inode: 77)
    record.mirrorValidators = ["http://m1.example/a.iso": "\"m1\""]
    #expect(
      try JSONDecoder().decode([String: StoredRecord].self, from: line)["record"]?.record == record)
    #expect(try object(QueueLineWriter.line(record)) == object(line))
  }

  /// A record of a later schema is refused by name, not read wrong.
  @Test func aLaterSchemaIsRefused() throws {
    let line = Data(
      #"{"schema":2,"download":{"id":{"rawValue":"a"},"request":{"url":"http://h/"},"status":{"queued":{}},"receivedBytes":0},"sequence":1}"#
        .utf8)
    #expect {
      _ = try JSONDecoder().decode(StoredRecord.self, from: line)
    } throws: { error in
      "\(error)".contains("a record of schema 2, written by a later version of fetcher")
    }
  }

  @Test func aRemovalIsWhatJSONEncoderWrites() throws {
    let id = DownloadID("0a1b2c3d")
    let line = QueueLineWriter.removal(id)
    #expect(try object(line) == object(JSONEncoder().encode(["removed": id])))
  }

  /// A property added to the types must be written too: this fails until the writer (and the
  /// full record above) know it, or it is named here as what is never kept: the rate a process
  /// sees while it runs the download, whether a list found it interrupted, and a request's wishes
  /// of how to be added (paused, beside another).
  @Test func everyStoredPropertyIsWritten() throws {
    let record = fullRecord()
    let written = try keyNames(object(QueueLineWriter.line(record)))
    let notKept: Set = [
      "record.download.bytesPerSecond", "record.download.interrupted",
      "record.download.request.startsPaused", "record.download.request.addsAnother",
    ]
    #expect(
      propertyNames(record).map { "record." + $0 }.filter { !notKept.contains($0) }.sorted()
        == written.sorted().filter { $0 != "record" })
  }
}
