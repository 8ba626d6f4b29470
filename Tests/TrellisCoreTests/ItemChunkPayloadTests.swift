import Testing
@testable import TrellisCore

/// A chunk's payload column past 2 GiB: its end offsets are 64-bit, so an operator who raises
/// `--max-message-bytes` cannot let a client overflow them (32-bit ends trapped at 2 GiB and
/// crashed the server).
@Suite struct ItemChunkPayloadTests {
    static let payloadBytes = 96 << 20
    static let items = 23  // 23 × 96 MiB = 2.16 GiB, past 2^31 bytes

    /// An item whose payload is `payloadBytes` bytes, first and last byte marking it.
    static func item(_ k: Int) -> Item {
        var bytes = [UInt8](repeating: 0, count: payloadBytes)
        bytes[0] = UInt8(k)
        bytes[payloadBytes - 1] = UInt8(k) &+ 100
        return Item(id: ItemID("big-\(k)"), data: ItemPayload(bytes: bytes))
    }

    static func expectItem(_ columns: ItemChunkColumns, at offset: Int, is k: Int) {
        let payload = columns.payload(at: offset)
        #expect(payload?.bytes.count == payloadBytes)
        #expect(payload?.bytes.first == UInt8(k))
        #expect(payload?.bytes.last == UInt8(k) &+ 100)
        #expect(columns.ids[offset] == ItemID("big-\(k)"))
    }

    @Test func payloadsPastTwoGiBInOneChunkStayWhole() {
        var columns = ItemChunkColumns(reserving: Self.items + 1)
        for k in 0..<Self.items { columns.append(Self.item(k)) }
        // A payload-less item after them: its end sits past 2^31 with the absent flag beside it.
        columns.append(Item(id: "plain"))
        #expect(columns.payload(at: Self.items) == nil)
        Self.expectItem(columns, at: Self.items - 1, is: Self.items - 1)

        // The items past 2 GiB copied into a chunk of their own (offsets shifted down).
        let tail = ItemChunkColumns(columns, range: (Self.items - 2)..<(Self.items + 1))
        Self.expectItem(tail, at: 0, is: Self.items - 2)
        Self.expectItem(tail, at: 1, is: Self.items - 1)
        #expect(tail.payload(at: 2) == nil)

        // Removing the first item moves every end back by its length.
        columns.remove(at: 0)
        Self.expectItem(columns, at: 0, is: 1)
        Self.expectItem(columns, at: Self.items - 2, is: Self.items - 1)
        #expect(columns.payload(at: Self.items - 1) == nil)
    }
}
