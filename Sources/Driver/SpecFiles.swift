import Foundation
import Statecraft

/// Finding and reading spec files: the only place `check` touches the file system.
enum SpecFiles {
    struct ReadError: Error {
        var path: String
        var message: String
    }

    /// The files named by `paths`: files as given, folders searched recursively for
    /// `*.machine` files (or `suffix`), sorted so the output is the same on every machine. Hidden files
    /// and folders inside a folder (`.git`, `.build`, the fuzzers' working corpora) are not
    /// searched: they hold copies and tools' data, not the user's specs.
    /// Relative paths start from `context`'s folder; the files keep the paths as given.
    static func collect(_ paths: [String], suffix: String = ".machine",
                        in context: InputFile.Context) -> (files: [String], problems: [(path: String, message: String)]) {
        var files: [String] = []
        var problems: [(path: String, message: String)] = []
        let fm = FileManager.default
        for path in paths {
            if path == InputFile.standardInput {
                files.append(path)
                continue
            }
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: context.resolve(path), isDirectory: &isDirectory) else {
                problems.append((path, InputFile.Problem(path: path, reason: InputFile.describe(ENOENT)).message))
                continue
            }
            guard isDirectory.boolValue else {
                files.append(path)
                continue
            }
            guard let enumerator = fm.enumerator(atPath: context.resolve(path)) else {
                problems.append((path, "cannot read folder '\(path)'"))
                continue
            }
            var found: [String] = []
            while let relative = enumerator.nextObject() as? String {
                if relative.split(separator: "/").last?.hasPrefix(".") == true {
                    enumerator.skipDescendants()
                    continue
                }
                if relative.hasSuffix(suffix) {
                    found.append(path.hasSuffix("/") ? path + relative : path + "/" + relative)
                }
            }
            files += found.sorted()
        }
        return (files, problems)
    }

    /// Reads a spec's bytes (standard input for `-`, shown as `<stdin>`).
    static func read(_ path: String, in context: InputFile.Context) -> Result<SourceFile, ReadError> {
        switch InputFile.read(path, in: context) {
        case .success(let bytes):
            return .success(SourceFile(path: path == InputFile.standardInput ? "<stdin>" : path, bytes: bytes))
        case .failure(let problem):
            return .failure(ReadError(path: path, message: problem.message))
        }
    }
}
