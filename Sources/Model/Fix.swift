import Formats

/// An edit that fixes a finding by itself, for `check --fix`: the text `location` spans (on one
/// line) is `original`, bare or between quotes, and becomes `replacement` (inside the same
/// quotes). A rule makes one only where the edit is certain (exactly one product matches, exactly
/// one key is near); when the file's text at the span is not `original` any more (the file changed,
/// or the value is built from pieces or escaped), the fix is refused, never guessed.
public struct Fix: Sendable, Hashable {
    public var location: SourceLocation
    public var original: String
    public var replacement: String

    public init(location: SourceLocation, original: String, replacement: String) {
        self.location = location
        self.original = original
        self.replacement = replacement
    }

    /// Whether `replacement` can be written into a literal or a key of any language as it is:
    /// 1 to 255 of a product ID's characters (letters, digits, `.`, `_`, `-`), which no language
    /// reads as a quote, an escape or an interpolation. Rules offer only such fixes and
    /// `check --fix` applies no other: a product ID from the descriptor or App Store Connect that
    /// holds `"`, `\(` or `${` must not become code in the user's file.
    public var replacementIsSafe: Bool { Self.isSafeReplacement(replacement) }

    public static func isSafeReplacement(_ text: String) -> Bool {
        let bytes = text.utf8
        return !bytes.isEmpty && bytes.count <= 255 && bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"): true
            default: false
            }
        }
    }

    /// The span of the text to replace, for reports that carry the edit (SARIF's `fixes`), from
    /// the span's width alone: the whole span when it is as wide as `original`, inside its quotes
    /// when it is two wider, inside `@"…"` when it is three wider in Objective-C; nil otherwise
    /// (`check --fix` reads the file and decides there).
    public var replacedSpan: SourceLocation? {
        guard location.isOneLine else { return nil }
        let width = location.endColumn - location.column, count = original.unicodeScalars.count
        var span = location
        switch width - count {
        case 0: return span
        case 2: span.column += 1
        case 3:
            let objectiveC = [".m", ".mm", ".h"].contains { location.file.lowercased().hasSuffix($0) }
            guard objectiveC else { return nil }
            span.column += 2
        default: return nil
        }
        span.endColumn -= 1
        return span
    }
}
