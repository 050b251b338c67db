extension HarnessSources {
    /// `ReportJSON.swift` of the harness: the JSON report and the command.
    static let reportJSON = #"""
        // The report `statecraft replay --format json` prints, written the same way: members in a
        // fixed order, numbers and strings as our JSON writer writes them, one log to a line.

        /// A JSON document to write.
        indirect enum ReportJSON {
            case null
            case bool(Bool)
            case number(Double)
            case integer(Int)
            case string(String)
            case array([ReportJSON])
            case object([(String, ReportJSON)])

            /// How a control character is escaped: `\u001b` in JSON, `\u{1B}` in a spec.
            enum ControlEscape { case json, spec }

            /// Integers below 10^15 without a fraction, other finite numbers as Swift's shortest
            /// round-trip form, NaN and infinity as `null`.
            static func number(_ value: Double) -> String {
                guard value.isFinite else { return "null" }
                if abs(value) < 1e15, Double(Int64(value)) == value { return String(Int64(value)) }
                return "\(value)"
            }

            /// `s` in double quotes, with quotes, backslashes and control characters escaped.
            static func quoted(_ s: String, controlEscape: ControlEscape) -> String {
                var out: [UInt8] = [0x22]
                for byte in s.utf8 {
                    switch byte {
                    case 0x22, 0x5C: out += [0x5C, byte]
                    case 0x0A: out += [0x5C, 0x6E]
                    case 0x0D: out += [0x5C, 0x72]
                    case 0x09: out += [0x5C, 0x74]
                    case 0..<0x20, 0x7F:
                        let json = Array("0123456789abcdef".utf8), spec = Array("0123456789ABCDEF".utf8)
                        switch controlEscape {
                        case .json:
                            out += [0x5C, 0x75, 0x30, 0x30, json[Int(byte >> 4)], json[Int(byte & 0xF)]]
                        case .spec:
                            out += [0x5C, 0x75, 0x7B]
                            if byte >= 0x10 { out.append(spec[Int(byte >> 4)]) }
                            out += [spec[Int(byte & 0xF)], 0x7D]
                        }
                    default: out.append(byte)
                    }
                }
                out.append(0x22)
                return String(decoding: out, as: UTF8.self)
            }

            var isScalar: Bool {
                switch self {
                case .array(let items): items.isEmpty
                case .object(let members): members.isEmpty
                default: true
                }
            }

            /// The text: the outer `levels` levels of containers one item per line (two-space
            /// indentation; a container of scalars stays on one line), deeper ones on one line.
            func rendered(levels: Int) -> String {
                var out = ""
                write(to: &out, levels: levels, indent: 0)
                return out
            }

            private func write(to out: inout String, levels: Int, indent: Int) {
                switch self {
                case .null: out += "null"
                case .bool(let b): out += b ? "true" : "false"
                case .number(let n): out += ReportJSON.number(n)
                case .integer(let n): out += String(n)
                case .string(let s): out += ReportJSON.quoted(s, controlEscape: .json)
                case .array(let items):
                    container(items.count, "[", "]", to: &out, broken: indent < levels && !items.allSatisfy(\.isScalar),
                              indent: indent) { i, out in items[i].write(to: &out, levels: levels, indent: indent + 1) }
                case .object(let members):
                    container(members.count, "{", "}", to: &out, broken: indent < levels && !members.allSatisfy(\.1.isScalar),
                              indent: indent) { i, out in
                        out += ReportJSON.quoted(members[i].0, controlEscape: .json) + ": "
                        members[i].1.write(to: &out, levels: levels, indent: indent + 1)
                    }
                }
            }

            private func container(_ count: Int, _ open: String, _ close: String, to out: inout String, broken: Bool, indent: Int,
                                   item: (Int, inout String) -> Void) {
                out += open
                for i in 0..<count {
                    if i > 0 { out += broken ? "," : ", " }
                    if broken { out += "\n" + String(repeating: "  ", count: indent + 1) }
                    item(i, &out)
                }
                if broken && count > 0 { out += "\n" + String(repeating: "  ", count: indent) }
                out += close
            }
        }

        extension LogValue {
            var json: ReportJSON {
                switch self {
                case .number(let n): .number(n)
                case .bool(let b): .bool(b)
                case .string(let s): .string(s)
                }
            }
        }

        extension CaseReport {
            /// The case as `replay --format json` writes it.
            var json: ReportJSON {
                var members: [(String, ReportJSON)] = [
                    ("case", key.map { .string($0) } ?? .null), ("firstLine", .integer(firstLine)),
                    ("state", startFailure == nil ? .string(state) : .null),
                    ("configuration", .array(configuration.map { .string($0) })),
                    ("finished", .bool(finished)), ("started", .bool(startFailure == nil)), ("time", .number(time)),
                    ("variables", .object(variables.map { ($0.name, $0.value.json) })),
                    ("outputs", .array(outputs.map { .object([("name", .string($0.name)), ("args", .array($0.arguments.map(\.json)))]) })),
                    ("outputCount", .integer(outputCount)), ("applied", .integer(applied)), ("ignored", .integer(ignored)),
                    ("rejected", .integer(rejected)), ("timersFired", .integer(timersFired)), ("sentTaken", .integer(sentTaken)),
                    ("expectations", .integer(expectations)), ("failureCount", .integer(failureCount)),
                    ("failures", .array(failures.map { f in
                        .object([("line", .integer(f.line)), ("column", .integer(f.column)), ("subject", .string(f.subject)),
                                 ("expected", .string(f.expected)), ("actual", .string(f.actual))])
                    })),
                    ("rejections", .array(rejections.map { r in
                        .object([("line", .integer(r.line)), ("column", .integer(r.column)), ("message", .string(r.message)),
                                 ("specLine", .integer(r.specLine)), ("specColumn", .integer(r.specColumn))])
                    })),
                ]
                // Only where the case broke a property, as replay writes it.
                if !propertyViolations.isEmpty { members.append(("propertyViolations", .array(propertyViolations.map(\.json)))) }
                return .object(members)
            }
        }

        extension PropertyViolationRecord {
            /// A violation as `replay --format json` writes it (`ReplayJSON.caseReport`): the one place
            /// the harness names its members.
            var json: ReportJSON {
                .object([("property", .string(property)), ("specLine", .integer(specLine)), ("line", .integer(line)),
                         ("time", .number(time)), ("message", .string(message))])
            }
        }

        /// `replay-generated LOG|FOLDER...`: replays each log (every `*.jsonl` under a folder;
        /// standard input for `-` or for none) and prints one JSON document, as `statecraft replay
        /// --format json SPEC LOG...` does.
        enum ReplayCommand {
            /// Exit status: 0 every expectation held, nothing was rejected and no property was broken;
            /// 1 an expectation failed, a step was rejected or a property was broken; 2 a log cannot
            /// be read (a malformed line).
            static func run<M: ReplayMachine>(_ type: M.Type, arguments: [String]) -> Int32 {
                let schema = M.schema
                var status: Int32 = 0
                var logs: [ReportJSON] = []
                var allPassed = true
                let expanded = LogPaths.expand(arguments.isEmpty ? ["-"] : arguments)
                for problem in expanded.problems {
                    logs.append(.object([("log", .string(problem.path)), ("passed", .bool(false)), ("cases", .array([])),
                                         ("error", .object([("line", .null), ("column", .null), ("message", .string(problem.message))]))]))
                    allPassed = false
                    status = 2
                }
                for path in expanded.logs {
                    let shown = path == "-" ? "<stdin>" : path
                    let bytes: [UInt8]
                    switch LogReader.read(path) {
                    case .success(let b): bytes = b
                    case .failure(let failure):
                        logs.append(.object([("log", .string(path)), ("passed", .bool(false)), ("cases", .array([])),
                                             ("error", .object([("line", .null), ("column", .null),
                                                                ("message", .string(failure.message))]))]))
                        allPassed = false
                        status = 2
                        continue
                    }
                    var reader = LogReader(bytes: bytes)
                    var replay = Replay<M>()
                    var failure: LogError?
                    do throws(LogError) {
                        while let record = try reader.next() { try replay.consume(record) }
                        replay.finish(afterLine: reader.lineNumber)
                    } catch {
                        failure = error
                    }
                    let cases = replay.cases
                    let passed = failure == nil && cases.allSatisfy(\.passed)
                    var warnings: [LogWarning] = []
                    if let mismatch = reader.headerMismatch(machine: schema.machine, fingerprint: schema.fingerprint) {
                        warnings.append(mismatch)
                    }
                    warnings += reader.warnings
                    var members: [(String, ReportJSON)] = [
                        ("log", .string(shown)), ("passed", .bool(passed)), ("cases", .array(cases.map(\.json))),
                        ("error", failure.map { .object([("line", .integer($0.line)), ("column", .integer($0.column)),
                                                         ("message", .string($0.message))]) } ?? .null),
                    ]
                    if !warnings.isEmpty {
                        members.append(("warnings", .array(warnings.map { w in
                            .object([("id", .string(w.id)), ("line", .integer(w.line)), ("column", .integer(w.column)),
                                     ("message", .string(w.message))])
                        })))
                    }
                    logs.append(.object(members))
                    allPassed = allPassed && passed
                    if failure != nil {
                        status = 2
                    } else if !passed && status == 0 {
                        status = 1
                    }
                }
                let document = ReportJSON.object([("spec", .string(schema.spec)), ("machine", .string(schema.machine)),
                                                  ("passed", .bool(allPassed)), ("logs", .array(logs))])
                print(document.rendered(levels: 2))
                return status
            }
        }

        """#
}
