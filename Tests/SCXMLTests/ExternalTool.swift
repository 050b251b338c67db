import Foundation

/// A file in a fresh temporary folder, removed by `remove()`.
struct TemporaryFile {
    let url: URL

    init(name: String, contents: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-scxml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        url = folder.appendingPathComponent(name)
        try contents.write(to: url, atomically: true, encoding: .utf8)
    }

    func remove() { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
}
