import FuzzDriver
import TrellisCore
import TrellisProtocol

/// The JSON parser on any bytes: it must return a value or a parse error, never crash, hang or
/// grow without bound; and whatever it accepts, the writer writes back to text that parses to
/// the same value (the round trip every reply and journal line relies on).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let value = try? JSONParser.parse(bytes) else { return 0 }
    let text = JSONWriter.string(value)
    guard let again = try? JSONParser.parse(Array(text.utf8)) else {
        fatalError("the writer's text does not parse: \(text)")
    }
    if again != value { fatalError("the round trip changed the value: \(text)") }
    return 0
}
