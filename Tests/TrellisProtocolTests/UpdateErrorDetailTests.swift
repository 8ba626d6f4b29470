import Testing
import TrellisCore
@testable import TrellisProtocol

/// An update error's typed details encode to the JSON the protocol has always sent.
@Suite struct UpdateErrorDetailTests {
    @Test func numbersAndIndexPathsEncodeAsBefore() {
        let error = UpdateError.insertItemOutOfRange(IndexPath(1, 2), itemCount: 3)
        #expect(JSONWriter.string(.object(error.jsonDetails)) == #"{"item":2,"itemCount":3,"section":1}"#)
        let duplicate = UpdateError.duplicateInsertIndexPath(IndexPath(0, 4))
        #expect(JSONWriter.string(.object(duplicate.jsonDetails)) == #"{"indexPath":{"item":4,"section":0}}"#)
    }

    @Test func eachKindOfDetail() {
        #expect(UpdateErrorDetail.int(-7).json == .number(-7))
        #expect(UpdateErrorDetail.indexPath(IndexPath(3, Int.max)).json
                == .object(["section": .number(3), "item": .number(Double(Int.max))]))
        #expect(UpdateErrorDetail.string("insertItems").json == .string("insertItems"))
        #expect(UpdateErrorDetail.strings(["a", "b"]).json == .array([.string("a"), .string("b")]))
    }
}
