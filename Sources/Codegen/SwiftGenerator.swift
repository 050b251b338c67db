import StatecraftDiagnostics
import StatecraftModel

/// Writes a checked machine as one self-contained Swift file (`statecraft swift`): a value
/// type with typed states, events, outputs and variables, stepped by straight-line code that
/// follows the runtime's semantics exactly (the differential tests hold it to `Instance`).
///
/// The file imports nothing but Foundation, and Foundation only when a spec calls `atan2`:
/// an app builds it without linking any of Statecraft.
///
/// A machine with one active leaf is written as a `switch` on it (`FlatMachineWriter`); a
/// statechart (parallel and history states, `done`, `always`, `raise`, `in(...)`, internal
/// transitions, `initial ->`) as SCXML's macrostep on a bit set of active states
/// (`ChartWriter`), which also keeps the events a machine sends itself (`send`, `cancel`).
/// Both write and read the runtime's snapshots. A spec is refused
/// (``SwiftGenerator/Unsupported``) only when a name of its clashes with a member of the type.
public enum SwiftGenerator {
    /// How the file is written.
    public struct Options: Sendable {
        /// The machine type's name; the machine's name when nil.
        public var typeName: String?
        /// `public` (for a library target) or `internal` (the default).
        public var isPublic: Bool
        /// The spec's file name as the header comment cites it.
        public var specName: String
        /// The spec's fingerprint (`SpecFingerprint`), as 16 hex digits, for the header.
        public var fingerprint: String

        /// Options for a spec file.
        public init(typeName: String? = nil, isPublic: Bool = false, specName: String, fingerprint: String) {
            self.typeName = typeName
            self.isPublic = isPublic
            self.specName = specName
            self.fingerprint = fingerprint
        }
    }

    /// What the generator cannot write yet, at the construct that needs it.
    public struct Unsupported: Error, Sendable {
        /// Lowercase, no final period: "variable 'state' has the name of a member of the generated type; rename it".
        public var message: String
        /// Where in the spec.
        public var range: SourceRange
    }

    /// The Swift file for `machine`, or the first construct it cannot write.
    public static func generate(_ machine: Machine, options: Options) throws(Unsupported) -> String {
        var writer = FlatMachineWriter(machine, options)
        return try writer.write()
    }
}
