import StatecraftEventLog
import StatecraftModel
import StatecraftRuntime

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

    /// After the last line (`line`), takes for every case what is due at its current
    /// instant: the events its last line sent itself (`send` without a delay), which are
    /// taken before the next line, and the log's end stands for that next line. Time does
    /// not move (that is `settle`).
    public mutating func finishInstant(afterLine line: Int, trace: (consuming TraceStep) -> Void = { _ in }) {
        traceFlushLimit = 1
        finishInstant(afterLine: line, sink: { Replayer.deliver($0, to: trace) })
    }

    mutating func finishInstant(afterLine line: Int, sink: TraceSink) {
        let source = SettleLine(lineNumber: line)
        for index in runs.indices {
            runHandles[index]._withUnsafeGuaranteedRef { run in
                if run.instance.hasTimerDue(by: run.instance.now) { fireTimers(run, to: run.instance.now, source, sink: sink) }
            }
        }
    }

    mutating func settle(afterLine line: Int, sink: TraceSink) {
        let source = SettleLine(lineNumber: line)
        // A log with no lines still asks where the machine comes to rest on its own: one
        // case (without a key) starts, as at a first line, and settles.
        if runs.isEmpty {
            _ = openRun(for: nil, source: SettleLine(lineNumber: max(line, 1)))
            finishInstant(afterLine: line, sink: sink)
        }
        for index in runs.indices {
            runHandles[index]._withUnsafeGuaranteedRef { run in
                func steps() -> Int { run.report.timersFired + run.report.sentTaken + run.report.rejected }
                let before = steps()
                while !run.instance.isFinished, let deadline = run.instance.nextDeadline, steps() - before < Replayer.settleLimit {
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
