import Formats
import Model
import Loaders
import RuleEngine

extension RuleContext {
    /// The fix that makes a request's literal `replacement`: where the request is written as text
    /// someone edits (code, a descriptor, a list file, not a build) on one line, and only to a
    /// product ID no language reads as code (``Fix/isSafeReplacement(_:)``).
    func literalFix(_ request: ResolvedRequest, to replacement: String) -> Fix? {
        let written = request.request
        guard written.source != .build, written.source != .revenueCat, written.location.isOneLine, written.value != replacement,
              Fix.isSafeReplacement(replacement) else { return nil }
        return Fix(location: written.location, original: written.value, replacement: replacement)
    }
}

extension Finding {
    /// The finding with `fix` set.
    func fixed(by fix: Fix?) -> Finding {
        var finding = self
        finding.fix = fix
        return finding
    }
}
