/// Template values left where a real one belongs: `{SKU}`, `{team_id}`, `xxxxx`, `YOUR_…`,
/// `TODO:`. ``placeholder(in:)`` is the readable test; ``asciiPlaceholder(bytes:)`` the same test on
/// the bytes of an ASCII text, without making a string (a test holds the two equal).
public enum Placeholders {
    public static let markers = ["your_", "your-", "todo:", "changeme", "replace_me", "lorem ipsum"]

    /// The placeholder in `text`, if it has one.
    public static func placeholder(in text: String) -> String? {
        if case .ascii(let marker) = asciiPlaceholder(in: text) { return marker }
        if let open = text.firstIndex(of: "{"), let close = text[open...].firstIndex(of: "}"),
            text.distance(from: open, to: close) > 1
        {
            let inner = text[text.index(after: open)..<close]
            if inner.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }) {
                return String(text[open...close])
            }
        }
        let lower = text.lowercased()
        if lower.contains("xxxxx") { return "xxxxx" }
        for marker in markers where lower.contains(marker) {
            return marker
        }
        return nil
    }

    public enum ASCIIResult: Equatable {
        /// The text is ASCII; this is its placeholder, if any.
        case ascii(String?)
        /// The text is not ASCII: the general test decides.
        case notASCII
    }

    /// The same test on the bytes of a pure-ASCII text (where characters are bytes and lower-casing
    /// is per byte), without making a string unless a placeholder is found.
    public static func asciiPlaceholder(in text: String) -> ASCIIResult {
        var text = text
        return text.withUTF8 { asciiPlaceholder(bytes: $0) }
    }

    public static func asciiPlaceholder(bytes: UnsafeBufferPointer<UInt8>) -> ASCIIResult {
        var open = -1
        // Which markers occur, by their place in `markers` (bit 0: `xxxxx`).
        var found = 0
        let count = bytes.count
        var index = 0
        let seconds = markerSeconds
        while index < count {
            let byte = bytes[index]
            // Most bytes start no marker, and most that could are not followed by the marker's
            // second letter: one table load, then on (the markers' first letters, t r c l y,
            // are a quarter of the letters of English text).
            let second = seconds[Int(byte)]
            if second == 0 {
                index += 1
                continue
            }
            if byte >= 0x80 { return .notASCII }
            if byte == UInt8(ascii: "{") {
                if open < 0 { open = index }
            } else if index + 1 < count, bytes[index + 1] | 0x20 == second {
                switch byte | 0x20 {
                case UInt8(ascii: "x"):
                    if has(bytes, at: index, "xxxxx") { found |= 1 }
                case UInt8(ascii: "y"):
                    if has(bytes, at: index, "your_") { found |= 1 << 1 }
                    if has(bytes, at: index, "your-") { found |= 1 << 2 }
                case UInt8(ascii: "t"):
                    if has(bytes, at: index, "todo:") { found |= 1 << 3 }
                case UInt8(ascii: "c"):
                    if has(bytes, at: index, "changeme") { found |= 1 << 4 }
                case UInt8(ascii: "r"):
                    if has(bytes, at: index, "replace_me") { found |= 1 << 5 }
                case UInt8(ascii: "l"):
                    if has(bytes, at: index, "lorem ipsum") { found |= 1 << 6 }
                default:
                    break
                }
            }
            index += 1
        }
        if open >= 0, let close = bytes[open...].firstIndex(of: UInt8(ascii: "}")), close - open > 1 {
            let inner = bytes[(open + 1)..<close]
            if inner.allSatisfy({ isWordByte($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }) {
                return .ascii(String(decoding: bytes[open...close], as: UTF8.self))
            }
        }
        guard found != 0 else { return .ascii(nil) }
        if found & 1 != 0 { return .ascii("xxxxx") }
        for (offset, marker) in markers.enumerated() where found & (1 << (offset + 1)) != 0 { return .ascii(marker) }
        return .ascii(nil)
    }

    /// By byte: 0 when it starts no marker; for a marker's first letter (either case), the
    /// lower-case second letter of the markers it starts (`xx`, `yo`, `to`, `ch`, `re`, `lo`);
    /// 1 for `{` and every non-ASCII byte. Made once and kept for the life of the process (a
    /// plain pointer: reading a static array's buffer cost more than the scan it served).
    nonisolated(unsafe) private static let markerSeconds: UnsafePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        table.initialize(repeating: 0, count: 256)
        for byte in 0x80...0xFF { table[byte] = 1 }
        table[Int(UInt8(ascii: "{"))] = 1
        for (first, second) in [("x", "x"), ("y", "o"), ("t", "o"), ("c", "h"), ("r", "e"), ("l", "o")] {
            let lower = first.utf8.first!, next = second.utf8.first!
            table[Int(lower)] = next
            table[Int(lower - 0x20)] = next
        }
        return UnsafePointer(table)
    }()

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// Whether the ASCII bytes at `start`, lower-cased, are `marker` (lower-case ASCII).
    @inline(__always)
    private static func has(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, _ marker: StaticString) -> Bool {
        let count = marker.utf8CodeUnitCount
        guard start + count <= bytes.count else { return false }
        let needle = marker.utf8Start
        for offset in 0..<count {
            var byte = bytes[start + offset]
            if byte >= 0x41 && byte <= 0x5A { byte |= 0x20 }
            if byte != needle[offset] { return false }
        }
        return true
    }
}
