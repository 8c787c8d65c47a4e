import CofferErrors
import Testing

@testable import AsymmetricKeys

@Suite("SSH wire format (RFC 4251 §5)")
struct SSHWireTests {
    @Test("uint32, string and mpint round-trip through the writer and reader")
    func roundTrip() throws {
        var writer = SSHWireWriter()
        writer.writeUInt32(0xDEAD_BEEF)
        writer.writeString("ssh-rsa")
        writer.writeMPInt(magnitude: [0x00, 0x80, 0x01])   // leading zero dropped, sign byte added
        writer.writeMPInt(magnitude: [0x7F])
        writer.writeMPInt(magnitude: [UInt8]())             // zero
        #expect(writer.bytes == [0xDE, 0xAD, 0xBE, 0xEF,
                                 0, 0, 0, 7] + Array("ssh-rsa".utf8) + [
                                 0, 0, 0, 3, 0x00, 0x80, 0x01,
                                 0, 0, 0, 1, 0x7F,
                                 0, 0, 0, 0])
        var reader = SSHWireReader(writer.bytes[...], context: "test")
        #expect(try reader.readUInt32() == 0xDEAD_BEEF)
        #expect(Array(try reader.readString()) == Array("ssh-rsa".utf8))
        #expect(Array(try reader.readPositiveMPInt("a")) == [0x80, 0x01])
        #expect(Array(try reader.readPositiveMPInt("b")) == [0x7F])
        #expect(try reader.readPositiveMPInt("c").isEmpty)
        #expect(reader.isAtEnd)
        try reader.finish()
    }

    @Test("RFC 4251's mpint examples")
    func rfcExamples() throws {
        // 0x9a378f9b2e332a7 → 00 00 00 08 09 a3 78 f9 b2 e3 32 a7; 0x80 → 00 00 00 02 00 80.
        var writer = SSHWireWriter()
        writer.writeMPInt(magnitude: [0x09, 0xA3, 0x78, 0xF9, 0xB2, 0xE3, 0x32, 0xA7])
        writer.writeMPInt(magnitude: [0x80])
        #expect(writer.bytes == [0, 0, 0, 8, 0x09, 0xA3, 0x78, 0xF9, 0xB2, 0xE3, 0x32, 0xA7, 0, 0, 0, 2, 0x00, 0x80])
    }

    @Test("a string length that overruns the data names the offset of the length")
    func stringOverrun() throws {
        var reader = SSHWireReader([0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xF0, 1, 2][...], baseOffset: 100, context: "blob")
        _ = try reader.readString()
        let error = #expect(throws: KeyError.self) { try reader.readString() }
        #expect(error?.code == .malformed)
        #expect(error?.offset == 105)
        #expect(error?.reason.contains("offset 105") == true)
        // The cursor did not move: the same read fails the same way.
        #expect(reader.offset == 105)
    }

    @Test("a truncated uint32 is an error, never a crash", arguments: 0..<4)
    func truncatedUInt32(_ count: Int) {
        var reader = SSHWireReader([UInt8](repeating: 1, count: count)[...], context: "blob")
        #expect(throws: KeyError(.malformed, "")) { try reader.readUInt32() }
    }

    @Test("negative and non-minimal mpints are rejected")
    func mpintSignRules() {
        let negative: [UInt8] = [0, 0, 0, 1, 0x80]
        let superfluousZero: [UInt8] = [0, 0, 0, 2, 0x00, 0x7F]
        let loneZero: [UInt8] = [0, 0, 0, 1, 0x00]
        for bytes in [negative, superfluousZero, loneZero] {
            var reader = SSHWireReader(bytes[...], context: "blob")
            let error = #expect(throws: KeyError.self) { try reader.readPositiveMPInt("n") }
            #expect(error?.code == .malformed)
            #expect(error?.offset == 0)
        }
    }

    @Test("an mpint over 16384 bits is refused before use")
    func mpintTooLarge() {
        var bytes: [UInt8] = [0, 0, 0x08, 0x02]
        bytes += [UInt8](repeating: 0x11, count: 0x0802)
        var reader = SSHWireReader(bytes[...], context: "blob")
        #expect(throws: KeyError(.malformed, "")) { try reader.readPositiveMPInt("n") }
    }

    @Test("trailing bytes are reported at their offset")
    func trailing() throws {
        var reader = SSHWireReader([0, 0, 0, 0, 9][...], context: "blob")
        _ = try reader.readString()
        let error = #expect(throws: KeyError.self) { try reader.finish() }
        #expect(error?.offset == 4)
    }
}
