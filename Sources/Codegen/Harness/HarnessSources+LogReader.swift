extension HarnessSources {
    /// `LogReader.swift` of the harness: lines, blank lines, the BOM, the header, a cut last line.
    static let logReader = #"""
        // Splitting a log into lines: `\n` or `\r\n` ends, blank lines skipped, a byte order mark on
        // line 1, the recording header on the first non-blank line, and a last line cut off by a
        // killed writer (replayed up to the line before it, with a warning).

        #if canImport(Glibc)
        import Glibc
        #elseif canImport(Musl)
        import Musl
        #elseif canImport(Darwin)
        import Darwin
        #endif

        /// A line that breaks the format, or a file that cannot be read (line 0).
        struct LogError: Error {
            var line: Int
            var column: Int
            var message: String
        }

        /// Something replay reports without stopping: a header that names another machine or spec,
        /// a last line cut off.
        struct LogWarning {
            var id: String
            var line: Int
            var column: Int
            var message: String
        }

        /// The records of one log, in order, read from its bytes.
        struct LogReader {
            let bytes: [UInt8]
            var start = 0
            /// The number of the last line read (1-based).
            var lineNumber = 0
            var firstLine = 0
            var header: LogHeader?
            var warnings: [LogWarning] = []

            init(bytes: [UInt8]) { self.bytes = bytes }

            /// The whole contents of `path` (standard input for `-`), or why it cannot be read.
            static func read(_ path: String) -> Result<[UInt8], LogError> {
                func failure(_ code: Int32) -> Result<[UInt8], LogError> {
                    .failure(LogError(line: 0, column: 0, message: "cannot read '\(path)': \(describe(code))"))
                }
                let descriptor = path == "-" ? dup(0) : open(path, O_RDONLY)
                guard descriptor >= 0 else { return failure(errno) }
                defer { _ = close(descriptor) }
                var info = stat()
                if fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR { return failure(EISDIR) }
                var contents: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                while true {
                    let count = chunk.withUnsafeMutableBytes { POSIX.systemRead(descriptor, $0.baseAddress, $0.count) }
                    if count == 0 { return .success(contents) }
                    if count < 0 {
                        if errno == EINTR { continue }
                        return failure(errno)
                    }
                    contents.append(contentsOf: chunk[0..<count])
                }
            }

            static func describe(_ code: Int32) -> String {
                switch code {
                case ENOENT: "no such file or directory"
                case EACCES, EPERM: "permission denied"
                case EISDIR: "it is a folder, not a file"
                case ENOTDIR: "a part of the path is not a folder"
                case ENAMETOOLONG: "the path is too long"
                case ELOOP: "too many symbolic links"
                default: String(cString: strerror(code)).lowercased()
                }
            }

            /// The next record; nil at the end. The header and a cut last line are no records.
            mutating func next() throws(LogError) -> LogRecord? {
                while start < bytes.count {
                    var lineEnd = start
                    while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
                    let unterminated = lineEnd == bytes.count
                    var stop = lineEnd
                    if stop > start, bytes[stop - 1] == 0x0D { stop -= 1 }
                    var from = start
                    start = unterminated ? lineEnd : lineEnd + 1
                    lineNumber += 1
                    if lineNumber == 1, stop - from >= 3, bytes[from] == 0xEF, bytes[from + 1] == 0xBB, bytes[from + 2] == 0xBF {
                        from += 3
                    }
                    if bytes[from..<stop].allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                    if firstLine == 0 { firstLine = lineNumber }
                    let text = Array(bytes[from..<stop])
                    var reader = LineReader(text)
                    do throws(LineRefusal) {
                        switch try reader.parseLine(number: lineNumber, headerAllowed: lineNumber == firstLine) {
                        case .record(let record): return record
                        case .header(let header): self.header = header
                        }
                    } catch {
                        if unterminated && JSONPrefix.isUnfinishedObject(text) {
                            let message = lineNumber > 1
                                ? "the last line is cut off (no line end, and its object is not closed); replayed up to line \(lineNumber - 1)"
                                : "the last line is cut off (no line end, and its object is not closed); no line before it"
                            warnings.append(LogWarning(id: "truncated-log-line", line: lineNumber,
                                                       column: LogText.column(ofByte: text.count, in: text), message: message))
                            continue
                        }
                        throw LogError(line: lineNumber, column: LogText.column(ofByte: error.offset, in: text), message: error.message)
                    }
                }
                return nil
            }

            /// The header's warning when it names another machine, or another version of the spec.
            func headerMismatch(machine name: String, fingerprint: String) -> LogWarning? {
                guard let header else { return nil }
                if header.machine != name {
                    return LogWarning(id: "log-header-mismatch", line: header.line,
                                      column: LogText.column(ofByte: header.machineOffset, in: header.text),
                                      message: "the log was recorded from machine '\(header.machine)', not '\(name)'")
                }
                if header.spec != fingerprint {
                    return LogWarning(id: "log-header-mismatch", line: header.line,
                                      column: LogText.column(ofByte: header.specOffset, in: header.text),
                                      message: "the log was recorded against another version of the spec: its fingerprint was \(header.spec), the spec's is \(fingerprint)")
                }
                return nil
            }
        }

        /// Whether a line's bytes are the beginning of a JSON object that stops before its end (what
        /// a killed writer leaves): a pushdown automaton that accepts every proper prefix of an
        /// object and refuses anything no continuation could make valid.
        enum JSONPrefix {
            static func isUnfinishedObject(_ bytes: [UInt8]) -> Bool {
                var scanner = Scanner()
                for b in bytes where !scanner.feed(b) { return false }
                return scanner.started && !scanner.finished
            }

            private struct Scanner {
                enum Expect { case start, keyOrClose, key, colon, value, valueOrClose, afterValue, done }
                enum Container { case object, array }
                enum NumberState { case minus, zero, integer, dot, fraction, exponentMark, exponentSign, exponent }

                var expect = Expect.start
                var stack: [Container] = []
                var started = false
                var finished = false
                var inString = false
                var stringIsKey = false
                /// -1 after a backslash; 1...4 hex digits of `\u` left.
                var escape = 0
                var continuation = 0
                var nextLow: UInt8 = 0x80
                var nextHigh: UInt8 = 0xBF
                var number: NumberState?
                var literal: [UInt8] = []

                mutating func feed(_ b: UInt8) -> Bool {
                    if inString { return feedString(b) }
                    if let state = number {
                        if let next = Scanner.numberStep(state, b) {
                            number = next
                            return true
                        }
                        guard state == .zero || state == .integer || state == .fraction || state == .exponent else { return false }
                        number = nil
                        expect = .afterValue
                    }
                    if !literal.isEmpty {
                        guard b == literal.removeFirst() else { return false }
                        if literal.isEmpty { expect = .afterValue }
                        return true
                    }
                    if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { return true }
                    switch expect {
                    case .start:
                        guard b == 0x7B else { return false }
                        started = true
                        stack.append(.object)
                        expect = .keyOrClose
                    case .keyOrClose, .key:
                        if b == 0x7D && expect == .keyOrClose { return close(.object) }
                        guard b == 0x22 else { return false }
                        inString = true
                        stringIsKey = true
                    case .colon:
                        guard b == 0x3A else { return false }
                        expect = .value
                    case .value, .valueOrClose:
                        if b == 0x5D && expect == .valueOrClose { return close(.array) }
                        return startValue(b)
                    case .afterValue:
                        switch b {
                        case 0x2C: expect = stack.last == .object ? .key : .value
                        case 0x7D: return close(.object)
                        case 0x5D: return close(.array)
                        default: return false
                        }
                    case .done:
                        return false
                    }
                    return true
                }

                private mutating func startValue(_ b: UInt8) -> Bool {
                    switch b {
                    case 0x7B:
                        stack.append(.object)
                        expect = .keyOrClose
                    case 0x5B:
                        stack.append(.array)
                        expect = .valueOrClose
                    case 0x22:
                        inString = true
                        stringIsKey = false
                    case 0x2D: number = .minus
                    case 0x30: number = .zero
                    case 0x31...0x39: number = .integer
                    case 0x74: literal = Array("rue".utf8)
                    case 0x66: literal = Array("alse".utf8)
                    case 0x6E: literal = Array("ull".utf8)
                    default: return false
                    }
                    return true
                }

                private mutating func close(_ container: Container) -> Bool {
                    guard stack.last == container else { return false }
                    stack.removeLast()
                    if stack.isEmpty {
                        finished = true
                        expect = .done
                    } else {
                        expect = .afterValue
                    }
                    return true
                }

                private mutating func feedString(_ b: UInt8) -> Bool {
                    if continuation > 0 {
                        guard b >= nextLow && b <= nextHigh else { return false }
                        (nextLow, nextHigh) = (0x80, 0xBF)
                        continuation -= 1
                        return true
                    }
                    if escape == -1 {
                        switch b {
                        case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74: escape = 0
                        case 0x75: escape = 4
                        default: return false
                        }
                        return true
                    }
                    if escape > 0 {
                        guard (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x66) else { return false }
                        escape -= 1
                        return true
                    }
                    switch b {
                    case 0x22:
                        inString = false
                        expect = stringIsKey ? .colon : .afterValue
                    case 0x5C: escape = -1
                    case 0x00..<0x20: return false
                    case 0x20..<0x80: break
                    case 0xC2...0xDF: continuation = 1
                    case 0xE0: (continuation, nextLow) = (2, 0xA0)
                    case 0xED: (continuation, nextHigh) = (2, 0x9F)
                    case 0xE1...0xEF: continuation = 2
                    case 0xF0: (continuation, nextLow) = (3, 0x90)
                    case 0xF1...0xF3: continuation = 3
                    case 0xF4: (continuation, nextHigh) = (3, 0x8F)
                    default: return false
                    }
                    return true
                }

                private static func numberStep(_ state: NumberState, _ b: UInt8) -> NumberState? {
                    let digit = b >= 0x30 && b <= 0x39
                    let e = (b | 0x20) == 0x65
                    switch state {
                    case .minus: return b == 0x30 ? .zero : digit ? .integer : nil
                    case .zero: return b == 0x2E ? .dot : e ? .exponentMark : nil
                    case .integer: return digit ? .integer : b == 0x2E ? .dot : e ? .exponentMark : nil
                    case .dot: return digit ? .fraction : nil
                    case .fraction: return digit ? .fraction : e ? .exponentMark : nil
                    case .exponentMark: return digit ? .exponent : (b == 0x2B || b == 0x2D) ? .exponentSign : nil
                    case .exponentSign, .exponent: return digit ? .exponent : nil
                    }
                }
            }
        }

        /// The logs named on the command line, as `replay` takes them: files (and `-`) as given,
        /// folders replaced by every `*.jsonl` file under them (hidden ones skipped), sorted; a
        /// folder without one is a problem to report.
        enum LogPaths {
            static func expand(_ paths: [String]) -> (logs: [String], problems: [(path: String, message: String)]) {
                var logs: [String] = []
                var problems: [(path: String, message: String)] = []
                for path in paths {
                    guard path != "-", isFolder(path, followingLinks: true) else {
                        logs.append(path)  // (a missing file is reported when it is opened)
                        continue
                    }
                    var found: [String] = []
                    collect(path.hasSuffix("/") ? String(path.dropLast()) : path, into: &found)
                    if found.isEmpty { problems.append((path, "no *.jsonl log under folder '\(path)'")) }
                    logs += found.sorted()
                }
                return (logs, problems)
            }

            static func isFolder(_ path: String, followingLinks: Bool) -> Bool {
                var info = stat()
                let status = followingLinks ? stat(path, &info) : lstat(path, &info)
                return status == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            }

            /// Every `*.jsonl` entry under `folder`, whose subfolders it enters (not through links).
            static func collect(_ folder: String, into found: inout [String]) {
                guard let directory = opendir(folder) else { return }
                defer { closedir(directory) }
                while let entry = readdir(directory) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                    }
                    if name.hasPrefix(".") { continue }
                    let path = folder + "/" + name
                    if isFolder(path, followingLinks: false) {
                        if name.hasSuffix(".jsonl") { found.append(path) }
                        collect(path, into: &found)
                    } else if name.hasSuffix(".jsonl") {
                        found.append(path)
                    }
                }
            }
        }

        /// The C functions under names that do not clash with this file's own.
        enum POSIX {
            static func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
        }

        """#
}
