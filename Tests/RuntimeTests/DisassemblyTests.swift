import Foundation
import Statecraft
import Testing
import TestSupport

/// The compiled code of a flat machine and of a statechart, as `statecraft-bench disasm`
/// prints it, pinned by golden files: a change to the code generator shows up as a readable
/// diff of the blocks it changed. Re-record with `STATECRAFT_RECORD=1`.
@Suite struct DisassemblyTests {
    static let golden = Repository.root.appendingPathComponent("Tests/RuntimeTests/Golden")

    @Test func aFlatMachinesBlocks() throws {
        let listing = try program(spec: "PullToRefresh").disassembly
        #expect(Golden.compare(listing, to: Self.golden.appendingPathComponent("PullToRefresh.disasm")) == nil)
        // One block per leaf and event: the parent `ready` is never the active state.
        #expect(listing.contains("\nidle on endDragging:\n"))
        #expect(!listing.contains("\nready on endDragging:\n"))
    }

    @Test func aStatechartsBlocks() throws {
        let source = try String(contentsOf: Self.golden.appendingPathComponent("Doorbell.machine"), encoding: .utf8)
        let listing = Program(try resolvedMachine(source)).disassembly
        #expect(Golden.compare(listing, to: Self.golden.appendingPathComponent("Doorbell.disasm")) == nil)
        #expect(listing.hasPrefix("program Doorbell (statechart)\n"))
        #expect(listing.contains("raise ring("))
        #expect(listing.contains("isActive"))
    }
}
