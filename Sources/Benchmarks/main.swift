// statecraft-bench: replay throughput, run on purpose in release mode, never as a test.
//
// Build everything once (the `run` command also times the `statecraft` binary built next to it):
//
//     swift build -c release
//
// Commands (run from the repository root, which holds Specs/):
//
//     .build/release/statecraft-bench generate --machine Drawer --events 1000000 --out /tmp/drawer.jsonl [--seed 1]
//         Writes a deterministic log (same bytes every time for a seed): a `time` on every line, no
//         expectation lines. Machines: Drawer, VibrantButton, PullToRefresh (its refreshes
//         run into the 2 s timer), PeekRating, SwipeToDismiss (four interleaved cases),
//         CheckoutScreen (a case per visit to the screen; payments refused, and timed out by
//         its 10 s timer), MediaPlayer (the statechart: regions, history, eventless and raised
//         events, timer).
//
//     .build/release/statecraft-bench run [--events 1000000] [--runs 5] [--machine Drawer ...]
//                                         [--dir /tmp/statecraft-bench] [--python] [--no-cli] [--stepping]
//         For each machine (by default every one but CheckoutScreen, whose runtime rows take
//         minutes at this size), generates (or reuses) DIR/<Machine>-<events>.jsonl and prints the
//         median of the runs for: a raw newline count (read(2) + memchr), EventLogReader.next(),
//         EventLogReader.nextRaw(), replay in process (Replayer.replay, on one thread and with
//         the second thread reading, as the CLI does for files), the
//         `statecraft replay` process (plain and --trace --format jsonl; peak RSS is the
//         child's own, from wait4), Instance.send over the log decoded ahead of time, the same
//         events stepped from an EventTape with Instance.run, the hand-written Swift `switch`
//         (every machine but MediaPlayer: HandWritten.swift) and the generated Swift
//         (Machines/*.swift, every machine), one machine per case in a log with cases. The last
//         four are timed in rounds, one of each per round, and their ratio to the hand-written
//         machine (for MediaPlayer, the generated machine's to the runtime's) is the median of
//         the rounds' ratios (a change in the VM's speed hits them all alike); the hand-written
//         and generated rows say whether they end, in every case, in the interpreter's states
//         with its variables ("DIFFERS" when not). --stepping prints only those four rows. In-process peak RSS is this process's
//         high-water mark after the stage (getrusage), so it only grows down the table.
//         --python also runs python/transitions_baseline.py (needs `pip install transitions`)
//         and, for MediaPlayer, python/statemachine_baseline.py (python-statemachine 3.2 through
//         its SCXML processor, over the first 20,000 lines), and prints how many times faster
//         the CLI is.
//
//     .build/release/statecraft-bench allocs [--machine Drawer] [--count 5000]
//         Heap allocations per event for each stage, counted by Valgrind memcheck ("total heap
//         usage") over N and 2N events: (allocs(2N) - allocs(N)) / N. Needs valgrind. `hand` is the
//         hand-written twin, `generated` the type `statecraft swift` writes, sent typed events
//         (each machine that has one; in a log with cases, one machine per case).
//
//     .build/release/statecraft-bench probe --stage next|raw|replay|replay2|step|tape|hand|generated|record --machine M --log FILE --count N [--repeat R]
//         One stage over the first N events, nothing printed: what `allocs` runs under Valgrind
//         (replay2: replay with the second thread reading). --repeat steps (step, tape, hand,
//         generated) R times over the decoded events, for a profiler: `perf record` then sees the
//         stepping.
//
//     .build/release/statecraft-bench read-raw --log FILE [--runs 5] [--machine Drawer [--specs Specs]]
//         Only the newline scan and EventLogReader.nextRaw() over FILE (median of the runs, ns
//         per line), and with --machine Replayer.replay on one thread and on two; quick to run,
//         and small enough to run under callgrind.
//
//     .build/release/statecraft-bench disasm --spec Specs/PullToRefresh.machine
//         The compiled program as text: each block (a flat machine's per state and event; a
//         statechart's entry, exit, guard and action blocks) with its register code, registers
//         named after what they hold. Tests/RuntimeTests/Golden/*.disasm are such listings.
//
//     .build/release/statecraft-bench lsp-latency [--runs 21] [--transitions 2000] [--specs Specs]
//         The language server's time from a textDocument/didChange to its publishDiagnostics,
//         in process (median, min and max of the runs, ms), on every bundled spec and on a
//         generated flat spec with N transitions (N/10 states in a ring, ten guarded events each).
//
//     .build/release/statecraft-bench parallel-summary [--regions 50] [--events 100000] [--runs 5] [--dir /tmp/statecraft-bench]
//         Generates a parallel chart of N regions and a log where half the lines are events no
//         transition takes, then times the `statecraft replay` process on it plain, with
//         --summary (text and JSON) and with --format html (median seconds, peak RSS, output
//         size): the summary's cost on a chart whose configurations rarely repeat.
//
//     .build/release/statecraft-bench paths [--runs 3] [--states 250 --states 500 ...]
//         How `statecraft paths` grows with a chart's size: for each N (250, 500, 1000, 2000 by
//         default) a generated chart of N states in a binary tree (every state reachable within
//         check's default bounds) is checked, then TestGeneration.generate writes a log per
//         transition; the medians of both, and the generation's µs per state (flat when the
//         growth is linear).
//
//     .build/release/statecraft-bench chart --states N --out FILE
//         Writes that generated chart, to time the real binary on it: statecraft paths FILE.
//
//     .build/release/statecraft-bench properties [--events 2000000] [--runs 9] [--machine PullToRefresh ...] [--dir DIR]
//         What watching properties costs replay: each bundled machine with properties (but CheckoutScreen, unless named) replays its
//         generated log in process with its properties and with them cut out, on one thread and
//         on two (the CLI's reader thread), back to back in each of K rounds; the cost is the
//         median of the rounds' ratios.
//
//     .build/release/statecraft-bench search [--spec FILE ...] [--max-configurations N ...] [--max-depth 12] [--runs 3]
//         `check`'s witness search on each spec (by default the two debounce reproductions under
//         Tests/CheckerTests/Fixtures) at each configuration bound (default 5000): the
//         configurations visited, the verdicts (reached, proven unreachable, not reached), and the
//         median time and peak RSS of the `statecraft check` process (from wait4). With --reach
//         TARGET: the whole-spec search's verdict on that state (or line) against the targeted
//         search's (`check --reach`), the configurations each visited, and the median time of
//         `statecraft check --reach`.
//
//     .build/release/statecraft-bench record [--events 1000000] [--runs 5] [--out /dev/null]
//         What recording costs an app: EventLogWriter writing N Drawer-like events (a time and
//         two fields: `touchBegan` with y and onContent) to FILE, close included; the median
//         ns per event of the runs (issue 33's ceiling is 150). `allocs` counts its
//         allocations per event as the `record` stage. Then the same events sent to the
//         generated Drawer with send(_:at:recordingTo:) into the writer, against the same
//         sends without recording: the median difference, ns per event.
//
//     python3 Sources/Benchmarks/python/lsp_latency.py .build/release/statecraft Specs/PeekRating.machine [RUNS]
//         The same two times through the real binary's pipes, as an editor sees them.
//
//     python3 Sources/Benchmarks/python/transitions_baseline.py Drawer /tmp/statecraft-bench/Drawer-1000000.jsonl
//         Python's `transitions` package replaying the same log (Drawer, VibrantButton,
//         PullToRefresh); prints "events/s N".
//
// Peak RSS on a 1 GB log (about 18 M Drawer events):
//
//     .build/release/statecraft-bench run --events 18000000 --runs 1 --machine Drawer
//     (or: /usr/bin/time -v .build/release/statecraft replay Specs/Drawer.machine FILE)

#if canImport(Glibc)
import Glibc
#endif

let status = Arguments(Array(CommandLine.arguments.dropFirst())).dispatch()
exit(status)
