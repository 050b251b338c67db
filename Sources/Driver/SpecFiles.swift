import Foundation
import Statecraft

/// Finding and reading spec files: the only place `check` touches the file system.
enum SpecFiles {
    struct ReadError: Error {
        var message: String
    }

    /// The files named by `paths`: files as given, folders searched recursively for
    /// `*.machine` files, sorted so the output is the same on every machine.
    static func collect(_ paths: [String]) -> (files: [String], problems: [String]) {
        var files: [String] = []
        var problems: [String] = []
        let fm = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
                problems.append("cannot read '\(path)': no such file or directory")
                continue
            }
            guard isDirectory.boolValue else {
                files.append(path)
                continue
            }
            guard let enumerator = fm.enumerator(atPath: path) else {
                problems.append("cannot read folder '\(path)'")
                continue
            }
            var found: [String] = []
            while let relative = enumerator.nextObject() as? String {
                if relative.hasSuffix(".machine") {
                    found.append(path.hasSuffix("/") ? path + relative : path + "/" + relative)
                }
            }
            files += found.sorted()
        }
        return (files, problems)
    }

    /// Reads a file's bytes.
    static func read(_ path: String) -> Result<SourceFile, ReadError> {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return .failure(ReadError(message: "cannot read '\(path)': permission denied or not a regular file"))
        }
        defer { try? handle.close() }
        do {
            let data = try handle.readToEnd() ?? Data()
            return .success(SourceFile(path: path, bytes: [UInt8](data)))
        } catch {
            return .failure(ReadError(message: "cannot read '\(path)': \(error.localizedDescription)"))
        }
    }
}
