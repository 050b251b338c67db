import StatecraftLanguageServer
import Testing

/// Content-Length framing over bytes that arrive in pieces.
@Suite struct MessageFramerTests {
    static func frame(_ body: String) -> [UInt8] {
        Array("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
    }

    static func frames(_ framer: inout MessageFramer) -> [MessageFramer.Frame] {
        var out: [MessageFramer.Frame] = []
        while let f = framer.next() { out.append(f) }
        return out
    }

    @Test func messagesSplitAtEveryByteComeOutWhole() {
        let bytes = Self.frame("{\"a\":\"é💀\"}") + Self.frame("{}")
        for cut in 0...bytes.count {
            var framer = MessageFramer()
            framer.append(bytes[0..<cut])
            var out = Self.frames(&framer)
            framer.append(bytes[cut...])
            out += Self.frames(&framer)
            #expect(out == [.message(Array("{\"a\":\"é💀\"}".utf8)), .message(Array("{}".utf8))], "cut at \(cut)")
        }
    }

    @Test func otherHeadersAndCaseAreAccepted() {
        var framer = MessageFramer()
        framer.append(Array("content-length:2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}".utf8))
        #expect(Self.frames(&framer) == [.message(Array("{}".utf8))])
    }

    @Test(arguments: [
        ("Content-Length: ten\r\n\r\n", "Content-Length is not a number of bytes ('ten')"),
        ("Content-Type: x\r\n\r\n", "a header block without Content-Length"),
        ("garbage\r\n\r\n", "a header line without ':' ('garbage')"),
        ("Content-Length: -5\r\n\r\n", "Content-Length is not a number of bytes ('-5')"),
        ("Content-Length: 99999999999999999999\r\n\r\n", "Content-Length is not a number of bytes ('99999999999999999999')"),
    ])
    func aBadHeaderIsReportedAndTheNextMessageStillRead(_ header: String, _ problem: String) {
        var framer = MessageFramer()
        framer.append(Array(header.utf8) + Self.frame("[1]"))
        #expect(Self.frames(&framer) == [.badHeader(problem), .message(Array("[1]".utf8))])
    }

    @Test func anEndlessHeaderIsDroppedWithoutGrowingForever() {
        var framer = MessageFramer()
        framer.append([UInt8](repeating: UInt8(ascii: "x"), count: MessageFramer.maxHeaderLength + 10))
        #expect(Self.frames(&framer).count == 1)
        framer.append(Self.frame("{}"))
        #expect(Self.frames(&framer) == [.message(Array("{}".utf8))])
    }

    @Test func aBodyTooLargeIsSkipped() {
        var framer = MessageFramer(maxBodyLength: 1000)
        let length = 3000
        framer.append(Array("Content-Length: \(length)\r\n\r\n".utf8))
        #expect(Self.frames(&framer) == [.badHeader("a message of 3000 bytes is larger than the 1000 bytes accepted")])
        framer.append([UInt8](repeating: 0x20, count: 2000))
        #expect(Self.frames(&framer).isEmpty)
        framer.append([UInt8](repeating: 0x20, count: length - 2000))
        framer.append(Self.frame("{}"))
        #expect(Self.frames(&framer) == [.message(Array("{}".utf8))])
    }
}
