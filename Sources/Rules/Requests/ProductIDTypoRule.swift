import Formats
import Model
import Loaders
import RuleEngine

/// A near-miss spelling of a real product ID.
struct ProductIDTypoRule: Rule {
    let id = RuleID.productIdTypo.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let requests = context.knownRequests else { return [] }
        return requests.map { request in
            guard case .typo(let real, let distance) = request.match else { return context.pass(product: request.verdictID) }
            let edits = distance == 1 ? "one character" : "\(distance) characters"
            return context.fail(context.finding(
                "no product has the ID `\(request.request.value)`; did you mean `\(real)`? They differ by \(edits)",
                at: request.request.location, help: context.requestHelp(request, to: real, "request `\(real)`"), product: real))
        }
    }
}
