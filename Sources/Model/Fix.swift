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
}
