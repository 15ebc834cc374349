import Formats
import Model
import Loaders
import RuleEngine

/// A stray space makes a different product ID.
struct ProductIDWhitespaceRule: Rule {
    let id = RuleID.productIdWhitespace.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let requests = context.knownRequests else { return [] }
        return requests.map { request in
            guard case .whitespace(let real) = request.match else { return context.pass(product: request.verdictID) }
            return context.fail(context.finding(
                "the requested ID `\(request.request.value)` has leading or trailing white space, so it does not match `\(real)`",
                at: request.request.location, help: context.requestHelp(request, to: real, "remove the white space: request `\(real)`"), product: real)
                .fixed(by: context.literalFix(request, to: real)))
        }
    }
}
