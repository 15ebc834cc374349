import Formats
import Model
import Loaders
import RuleEngine

/// StoreKit does not add the bundle ID: `upgradetopro` is not `com.runmonster.runmonsterfree.upgradetopro`.
struct ShortProductIDRule: Rule {
    let id = RuleID.shortProductId.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let requests = context.knownRequests else { return [context.unknownRequests()] }
        return requests.map { request in
            guard case .shortForm(let full, let others) = request.match else { return context.pass(product: request.verdictID) }
            var notes = ["product IDs are matched exactly; StoreKit does not prefix the bundle ID"]
            if !others.isEmpty { notes.append("it is also the end of \(others.quotedList)") }
            // Certain only when one product ends with it.
            let fix = others.isEmpty ? context.literalFix(request, to: full) : nil
            return context.fail(context.finding(
                "`\(request.request.value)` is the short form of `\(full)`; StoreKit needs the full product ID",
                at: request.request.location,
                help: context.requestHelp(request, to: full, "request `\(full)` instead of `\(request.request.value)`"), notes: notes, product: full).fixed(by: fix))
        }
    }
}
