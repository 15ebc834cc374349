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
