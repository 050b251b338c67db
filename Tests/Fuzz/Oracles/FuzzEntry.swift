import Foundation

/// The `main` of every fuzz-* executable.
///
/// Built by `Tests/Fuzz/fuzz` (with `-sanitize=fuzzer,address -DFUZZING`), it hands the
/// oracle to libFuzzer, which takes the command line (`-max_total_time=60 corpus/`, …).
/// Built plainly (`swift build`), it runs the oracle over the files and folders it is given
/// and reports each input's violations: the way to reproduce a finding in a debugger.
public enum FuzzEntry {
    public typealias Callback = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

    public static func main(_ oracle: any FuzzOracle.Type, libFuzzer callback: Callback) -> Never {
        oracle.prepare()
        #if FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
        #else
        exit(runFiles(oracle, Array(CommandLine.arguments.dropFirst())))
        #endif
    }

    /// What the libFuzzer callback does with one input: a violation is reported and aborts
    /// the process, which libFuzzer records as a finding with its input.
    public static func test(_ oracle: any FuzzOracle.Type, _ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        let found = oracle.violations(input)
        if !found.isEmpty {
            FileHandle.standardError.write(Data(("fuzz-\(oracle.name): " + found.joined(separator: "\n") + "\n").utf8))
            abort()
        }
        return 0
    }

    /// Runs `oracle` over every file named, and every file in the folders named; the exit
    /// status is 1 when any input has a violation.
    static func runFiles(_ oracle: any FuzzOracle.Type, _ paths: [String]) -> Int32 {
        guard !paths.isEmpty else {
            FileHandle.standardError.write(Data("usage: fuzz-\(oracle.name) FILE|FOLDER ...\n".utf8))
            return 2
        }
        var status: Int32 = 0
        for path in paths.flatMap(inputFiles) {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("error: cannot read '\(path)'\n".utf8))
                status = 2
                continue
            }
            let found = oracle.violations(Array(data))
            print("\(path): \(found.isEmpty ? "ok" : found.joined(separator: "\n"))")
            if !found.isEmpty { status = max(status, 1) }
        }
        return status
    }

    /// `path` itself, or the files in it when it is a folder, sorted.
    public static func inputFiles(_ path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let folder = path.hasSuffix("/") ? path : path + "/"
        return names.filter { !$0.hasPrefix(".") }.sorted().map { folder + $0 }
    }
}

#if FUZZING
/// libFuzzer's entry point for programs that have their own `main` (since LLVM 11).
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: FuzzEntry.Callback) -> Int32
#endif
