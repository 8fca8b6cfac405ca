import DownloadClient
import Foundation

/// Writes the journal's lines (`{"record":{…}}`, `{"removed":{…}}`) byte by byte, in the
/// queue's own schema (`StoredRecord`, which reads them; version 1, which needs no `schema`
/// key). It is here for speed: the engine writes a line for every change of a download, on its
/// one serial path, and `JSONEncoder` took 13 µs a line, a seventh of a run of thousands of
/// small files (`Benchmarks/queue.sh`); this takes about a tenth of that.
/// `QueueLineWriterTests` hold it to lines of the schema written out in full and to every
/// stored property of the record, so that a property added to it cannot be left out here.
struct QueueLineWriter {
  private var bytes: [UInt8] = []
  /// A value was written last: the next key needs a comma before it.
  private var needsComma = false

  /// The line that puts `record`.
  static func line(_ record: DownloadRecord) -> Data {
    var writer = QueueLineWriter()
    writer.bytes.reserveCapacity(512)
    writer.open()
    writer.key("record")
    writer.record(record)
    writer.close()
    return Data(writer.bytes)
  }

  /// The line that removes the record of `id`.
  static func removal(_ id: DownloadID) -> Data {
    var writer = QueueLineWriter()
    writer.open()
    writer.key("removed")
    writer.id(id)
    writer.close()
    return Data(writer.bytes)
  }

  // MARK: The types

  private mutating func record(_ record: DownloadRecord) {
    open()
    key("download")
    download(record.download)
    key("sequence")
    integer(record.sequence)
    if let entityTag = record.entityTag {
      key("entityTag")
      string(entityTag)
    }
    if let lastModified = record.lastModified {
      key("lastModified")
      string(lastModified)
    }
    key("needsSecrets")
    boolean(record.needsSecrets)
    if let segments = record.segments {
      key("segments")
      array(segments) { writer, segment in writer.segment(segment) }
    }
    key("placing")
    boolean(record.placing)
    if let partFile = record.partFile {
      key("partFile")
      open()
      key("device")
      integer(partFile.device)
      key("inode")
      integer(partFile.inode)
      close()
    }
    if let validators = record.mirrorValidators {
      key("mirrorValidators")
      open()
      for (url, validator) in validators {
        key(url)
        string(validator)
      }
      close()
    }
    if let failure = record.failure {
      key("failure")
      error(failure)
    }
    close()
  }

  private mutating func download(_ download: Download) {
    open()
    key("id")
    id(download.id)
    key("request")
    request(download.request)
    key("status")
    status(download.status)
    if let destination = download.destination {
      key("destination")
      string(destination.absoluteString)
    }
    key("receivedBytes")
    integer(download.receivedBytes)
    if let expectedBytes = download.expectedBytes {
      key("expectedBytes")
      integer(expectedBytes)
    }
    if let failure = download.failure {
      key("failure")
      error(failure)
    }
    close()
  }

  /// A failure, rare and of many shapes: in `JSONEncoder`'s layout, which is what is read back.
  private mutating func error(_ failure: DownloadError) {
    bytes += Array((try? JSONEncoder().encode(failure)) ?? Data("null".utf8))
    needsComma = true
  }

  private mutating func id(_ id: DownloadID) {
    open()
    key("rawValue")
    string(id.rawValue)
    close()
  }

  private mutating func request(_ request: DownloadRequest) {
    open()
    key("url")
    string(request.url.absoluteString)
    if let destination = request.destination {
      key("destination")
      string(destination.absoluteString)
    }
    if let folder = request.folder {
      key("folder")
      string(folder.absoluteString)
    }
    if let checksum = request.expectedChecksum {
      key("expectedChecksum")
      open()
      key("algorithm")
      string(checksum.algorithm.rawValue)
      key("hex")
      string(checksum.hex)
      close()
    }
    if let expectedSize = request.expectedSize {
      key("expectedSize")
      integer(expectedSize)
    }
    if let limits = request.limits {
      key("limits")
      open()
      if let maxSize = limits.maxSize {
        key("maxSize")
        integer(maxSize)
      }
      if let bytesPerSecond = limits.bytesPerSecond {
        key("bytesPerSecond")
        integer(bytesPerSecond)
      }
      if let maxSeconds = limits.maxSeconds {
        key("maxSeconds")
        double(maxSeconds)
      }
      if let maxRetries = limits.maxRetries {
        key("maxRetries")
        integer(maxRetries)
      }
      if let connections = limits.connections {
        key("connections")
        integer(connections)
      }
      close()
    }
    key("headers")
    open()
    for (name, value) in request.headers {
      key(name)
      string(value)
    }
    close()
    if !request.mirrors.isEmpty {
      key("mirrors")
      array(request.mirrors) { writer, mirror in writer.string(mirror.absoluteString) }
    }
    close()
  }

  /// An enum case as `Codable` gives it: `{"case":{}}`, or with its associated values.
  private mutating func status(_ status: DownloadStatus) {
    open()
    switch status {
    case .queued: emptyObject("queued")
    case .running: emptyObject("running")
    case .waitingForNetwork: emptyObject("waitingForNetwork")
    case .paused: emptyObject("paused")
    case .completed: emptyObject("completed")
    case .retrying(let attempt):
      key("retrying")
      open()
      key("attempt")
      integer(attempt)
      close()
    case .failed(let reason):
      key("failed")
      open()
      key("reason")
      string(reason)
      close()
    }
    close()
  }

  private mutating func segment(_ segment: Segment) {
    open()
    key("start")
    integer(segment.start)
    key("end")
    integer(segment.end)
    key("received")
    integer(segment.received)
    close()
  }

  // MARK: JSON

  private mutating func open() {
    bytes.append(UInt8(ascii: "{"))
    needsComma = false
  }

  private mutating func close() {
    bytes.append(UInt8(ascii: "}"))
    needsComma = true
  }

  private mutating func key(_ name: String) {
    if needsComma { bytes.append(UInt8(ascii: ",")) }
    string(name)
    bytes.append(UInt8(ascii: ":"))
    needsComma = false
  }

  private mutating func emptyObject(_ name: String) {
    key(name)
    open()
    close()
  }

  private mutating func array<Element>(
    _ elements: [Element], _ write: (inout QueueLineWriter, Element) -> Void
  ) {
    bytes.append(UInt8(ascii: "["))
    for (index, element) in elements.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      write(&self, element)
    }
    bytes.append(UInt8(ascii: "]"))
    needsComma = true
  }

  private mutating func integer(_ value: some BinaryInteger) {
    bytes.append(contentsOf: String(value).utf8)
    needsComma = true
  }

  /// A finite number (a time span): Swift's shortest text of it is JSON.
  private mutating func double(_ value: Double) {
    bytes.append(contentsOf: String(value).utf8)
    needsComma = true
  }

  private mutating func boolean(_ value: Bool) {
    bytes.append(contentsOf: (value ? "true" : "false").utf8)
    needsComma = true
  }

  /// `text` in quotes, with the quote, the backslash and the control characters escaped, as
  /// JSON requires; everything else as its UTF-8.
  private mutating func string(_ text: String) {
    bytes.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
      case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
      case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: Array("\\u00".utf8))
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 15)])
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
    needsComma = true
  }
}
