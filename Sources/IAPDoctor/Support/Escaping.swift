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

    /// `text` with every control character written `\u{…}` (tab and newline stay as they are).
    public static func controlCharacters(_ text: String) -> String {
        // Printable ASCII (with tab and newline) has nothing to escape: told by bytes, not scalar by
        // scalar (every line of a text report comes by here: a faulty catalog's spent a third of
        // its report in this test). Any other byte takes the scalar check.
        var probe = text
        let printable = probe.withUTF8 { bytes in
            !bytes.contains { byte in (byte < 0x20 || byte >= 0x7F) && byte != 0x09 && byte != 0x0A }
        }
        if printable { return text }
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
}
