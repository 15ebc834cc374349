import Formats
import Model
import Loaders
import RuleEngine

/// A requested ID that App Store Connect could never hold (characters outside letters, digits,
/// `.`, `_`, `-`, or longer than its limit) is invalid in every environment but Xcode's, and no
/// product can be created to fix it: the code must change.
struct RequestedIDFormatRule: Rule {
    let id = RuleID.requestedIdFormat.rawValue

    /// Letters, digits, `.`, `_` and `-`: what App Store Connect accepts in a product ID.
    static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// Why App Store Connect could not hold `id`, or nil. Stray white space at the ends is
    /// `product-id-whitespace`'s (one cause, one error).
    static func problem(_ id: String, maxLength: Int) -> String? {
        let trimmed = id.trimmingCharacters(in: .whitespaces)
        if let bad = trimmed.unicodeScalars.first(where: { !$0.isASCII || !isAllowed(UInt8($0.value)) }) {
            let shown = bad == " " ? "a space" : "`\(bad)`"
            return "has \(shown), and App Store Connect allows only letters, digits, `.`, `_` and `-` in a product ID"
        }
        if trimmed.count > maxLength {
            return "has \(trimmed.count) characters, and App Store Connect allows at most \(maxLength)"
        }
        return nil
    }

    func check(_ context: RuleContext) -> [Outcome] {
        guard let requests = context.knownRequests else { return [] }
        let maxLength = Int(exactly: context.number("max_length", default: 100).rounded()) ?? 100
        return requests.map { request in
            guard let problem = Self.problem(request.request.value, maxLength: maxLength) else {
                return context.pass(product: request.verdictID)
            }
            return context.fail(context.finding(
                "the requested ID `\(request.request.value)` \(problem), so no product can have it",
                at: request.request.location,
                help: "request the product's real ID (as App Store Connect shows it under In-App Purchases), not a derived or decorated string",
                notes: request.request.source == .code ? ["an ID built in code (a suffix such as `:monthly`, a display name) is the usual cause"] : [],
                product: request.verdictID))
        }
    }
}
