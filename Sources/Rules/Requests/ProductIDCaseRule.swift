import Formats
import Model
import Loaders
import RuleEngine

/// Product IDs are case-sensitive.
struct ProductIDCaseRule: Rule {
    let id = RuleID.productIdCaseMismatch.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let requests = context.knownRequests else { return [] }
        return requests.map { request in
            guard case .caseMismatch(let real) = request.match else { return context.pass(product: request.verdictID) }
            // Certain only when no other product has the same letters in another case.
            let lowered = real.lowercased()
            let alike = context.productIndex.ids.filter { $0.lowercased() == lowered }.count
            let fix = alike == 1 && request.request.value == request.request.value.trimmingCharacters(in: .whitespaces)
                ? context.literalFix(request, to: real) : nil
            return context.fail(context.finding(
                "`\(request.request.value)` differs from the product ID `\(real)` only in letter case, and product IDs are case-sensitive",
                at: request.request.location, help: context.requestHelp(request, to: real, "request `\(real)` exactly"), product: real).fixed(by: fix))
        }
    }
}
