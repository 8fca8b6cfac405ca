// What is read and counted here is LogAnalysis's (`Partial`, `AnalysisOptions`, `LogState`),
// as NIOPosix re-exports NIOCore.
@_exported import LogAnalysis
