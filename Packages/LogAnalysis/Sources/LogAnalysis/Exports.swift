// The formats a log is read in are part of what this module's API speaks of (options name a
// `LogFormat`, errors are `AnalysisOptionError`s), as NIO's modules re-export NIOCore.
@_exported import LogFormats
