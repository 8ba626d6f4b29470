/// The `seq` of a `frame` notification, read from the first bytes of its line: arrivals are
/// matched by seq, and parsing a whole 1,000-view frame per client would cost more than the
/// bridge being measured.
enum FrameSeq {
    /// trellisd writes a frame's members in this order, `seq` right after the session's name.
    static let prefix = Array(#"{"jsonrpc":"2.0","method":"frame","params":{"#.utf8)
    static let key = Array(#""seq":"#.utf8)
    /// Enough of a line to hold the prefix, a session name and the seq.
    static let headBytes = 256

    /// The seq when `head` begins a frame notification; nil for anything else (replies, events).
    static func parse(_ head: UnsafeRawBufferPointer) -> Int? {
        guard head.count > prefix.count, head.starts(with: prefix) else { return nil }
        var i = prefix.count
        while i + key.count < head.count {
            if head[i] == key[0], head[i..<(i + key.count)].elementsEqual(key) {
                var j = i + key.count, value = 0, digits = 0
                while j < head.count, head[j] >= 48, head[j] <= 57 {
                    value = value * 10 + Int(head[j] - 48)
                    j += 1
                    digits += 1
                }
                return digits > 0 ? value : nil
            }
            i += 1
        }
        return nil
    }

    /// Whether `head` begins a reply whose result carries a keyframe (the attach took).
    static func isKeyframeReply(_ head: UnsafeRawBufferPointer) -> Bool {
        let marker = Array(#""keyframe":"#.utf8)
        guard !head.starts(with: prefix), head.count >= marker.count else { return false }
        for i in 0...(head.count - marker.count) where head[i] == marker[0] {
            if head[i..<(i + marker.count)].elementsEqual(marker) { return true }
        }
        return false
    }
}
