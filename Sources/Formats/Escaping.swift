/// Control characters from inputs, made visible. A YAML value, a Swift literal or a `.storekit`
/// string can hold ESC, BEL or C1 characters; printed raw they reach a terminal or a CI log as
/// commands (OSC 52 clipboard writes, title changes, screen clears). Every text-like output shows
/// them as Swift writes them, `\u{1B}`.
public enum Escaping {
    /// Whether `scalar` is a control character to escape: C0 except tab and newline, DEL, C1, and
    /// the Unicode line and paragraph separators and bidirectional overrides that reorder what a
    /// reader sees.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: return false
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Whether valid UTF-8 `bytes` encode a scalar ``isControl(_:)`` escapes: an ASCII control
    /// but tab and newline, DEL, C1 (`C2 80`–`C2 9F`), U+2028–U+202E (`E2 80 A8`–`E2 80 AE`) or
    /// U+2066–U+2069 (`E2 81 A6`–`E2 81 A9`).
    static func mayHoldControl(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
        while index < count {
            // Eight printable ASCII bytes at a time (no high bit, none below 0x20, no DEL).
            if index + 8 <= count, let base = bytes.baseAddress {
                let word = UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: index, as: UInt64.self))
                if word & highs == 0, !hasZeroByte(word & 0xE0E0_E0E0_E0E0_E0E0), !hasZeroByte(word ^ (0x7F &* ones)) {
                    index += 8
                    continue
                }
            }
            let byte = bytes[index]
            if byte < 0x20 {
                if byte != 0x09 && byte != 0x0A { return true }
            } else if byte == 0x7F {
                return true
            } else if byte == 0xC2 {
                if index + 1 < count, bytes[index + 1] >= 0x80, bytes[index + 1] <= 0x9F { return true }
            } else if byte == 0xE2, index + 2 < count {
                let second = bytes[index + 1], third = bytes[index + 2]
                if second == 0x80, third >= 0xA8, third <= 0xAE { return true }
                if second == 0x81, third >= 0xA6, third <= 0xA9 { return true }
            }
            index += 1
        }
        return false
    }

    /// `text` with every control character written `\u{…}` (tab and newline stay as they are).
    public static func controlCharacters(_ text: String) -> String {
        // Told by bytes, not scalar by scalar (a text report is escaped whole, and a faulty
        // catalog's spent a third of its time here): a string with none of the encodings of
        // ``isControl``'s scalars is returned as it is; one with any takes the scalar path.
        var probe = text
        if probe.withUTF8({ !Self.mayHoldControl($0) }) { return text }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// A value from an input shown inside a line: control characters and newlines written
    /// `\u{…}`, so the value cannot end the line or start one of its own.
    public static func inline(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return controlCharacters(text) }
        return controlCharacters(text.replacingOccurrences(of: "\r", with: "\\u{D}").replacingOccurrences(of: "\n", with: "\\u{A}"))
    }

    /// Lines of a report, one a line whatever the inputs hold: a newline inside one (an app
    /// name, a product ID, a path) is written `\u{A}`, so an input cannot start a line of its own.
    /// A CI runner takes a line that starts with `::` for a command (`::error …::`,
    /// `::add-mask::`); such a line's first colon is written `\u{3A}`.
    public static func lines(_ lines: [String]) -> String {
        var text = ""
        for line in lines {
            var line = line
            if line.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) {
                line = line.replacingOccurrences(of: "\r\n", with: "\\u{D}\\u{A}").replacingOccurrences(of: "\n", with: "\\u{A}")
            }
            if line.hasPrefix("::") { line = "\\u{3A}" + line.dropFirst() }
            text += line
            text += "\n"
        }
        return controlCharacters(text)
    }
}
