import StatecraftEventLog
import StatecraftModel

extension Replayer {
    /// How many timer steps one case may take while it settles before it is reported as
    /// still running.
    public static let settleLimit = 100_000

    /// After the last line (`line`), lets virtual time pass for every case from one armed
    /// timer's deadline to the next, firing each as replay does before a line, until no
    /// timer is armed, the run has ended, or `settleLimit` timer steps have fired; records
    /// where each case came to rest (`CaseReport.settled`). The timers' steps are traced
    /// at `line`.
    ///
    /// It answers "where does it end up if nothing else happens?", and runs machines that
    /// drive themselves (a W3C conformance test reaching `pass` through its own timers).
    public mutating func settle(afterLine line: Int, trace: (consuming TraceStep) -> Void = { _ in }) {
        traceFlushLimit = 1
        settle(afterLine: line, sink: { Replayer.deliver($0, to: trace) })
    }

    mutating func settle(afterLine line: Int, sink: TraceSink) {
        let source = SettleLine(lineNumber: line)
        for index in runs.indices {
            runHandles[index]._withUnsafeGuaranteedRef { run in
                let before = run.report.timersFired + run.report.rejected
                while !run.instance.isFinished, let deadline = run.instance.nextDeadline,
                      run.report.timersFired + run.report.rejected - before < Replayer.settleLimit {
                    fireTimers(run, to: deadline, source, sink: sink)
                }
                run.report.settled = run.instance.isFinished ? .final
                    : run.instance.nextDeadline == nil ? .atRest : .stillRunning
            }
        }
    }
}

/// The place settling's timer steps are reported at: after the log's last line.
struct SettleLine: ReplayLine {
    var lineNumber: Int
    func lineText() -> [UInt8] { [] }
    func lineColumn(ofByte offset: Int) -> Int { 1 }
}
