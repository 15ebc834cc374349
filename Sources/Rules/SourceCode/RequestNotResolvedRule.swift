import Formats
import Model
import Loaders
import RuleEngine

/// A StoreKit call site whose product IDs the code does not spell out (a parameter, a model's
/// field, a value from a server, RevenueCat offerings): one note per cause, so the user knows
/// where to look and what to put under `requests`. Call sites with the same cause (the same call,
/// argument and reason) are one note at the first, counting and naming the others.
struct RequestNotResolvedRule: Rule {
    let id = RuleID.requestNotResolved.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        var sites = context.project.evidence.sources.unresolved
        // With the RevenueCat snapshot, the offerings' products are the requests.
        if context.project.evidence.revenueCat.app != nil { sites.removeAll { $0.kind == .offerings } }
        guard !sites.isEmpty else { return [context.pass()] }
        var order: [String] = []
        var groups: [String: (finding: Finding, others: [SourceLocation])] = [:]
        for site in sites {
            let finding = note(for: site, context)
            let cause = finding.message + "\u{0}" + site.reason
            if groups[cause] == nil {
                order.append(cause)
                groups[cause] = (finding, [])
            } else {
                groups[cause]!.others.append(site.location)
            }
        }
        return order.map { cause in
            var (finding, others) = groups[cause]!
            if !others.isEmpty {
                let listed = others.prefix(8).map(\.description).joined(separator: ", ") + (others.count > 8 ? ", …" : "")
                finding.notes.append("the same at \(others.count) more call site\(others.count == 1 ? "" : "s"): \(listed)")
            }
            return context.passWithNotes([finding])
        }
    }

    func note(for site: SourceEvidence.UnresolvedRequest, _ context: RuleContext) -> Finding {
        let message: String
        var help = "list the product IDs this call asks for under `requests` in the descriptor, so iapdoctor can check them"
        switch site.kind {
        case .offerings:
            message = "`\(site.api)` fetches the products of RevenueCat offerings; no product ID is written in the code"
            help = "save the RevenueCat project with `iapdoctor revenuecat pull -o revenuecat-snapshot.json` and set `revenuecat.snapshot: revenuecat-snapshot.json`, so its offerings' products are checked; or list them under `requests` in the descriptor"
        case .wrapperWithoutCalls:
            message = "`\(site.api)` hands its parameter to StoreKit, and iapdoctor found no call of it with product IDs it can follow"
        case .empty:
            message = "`\(site.api)` gets `\(site.argument)`, which holds no product ID where the code sets it"
        case .partial:
            message = "`\(site.api)` gets `\(site.argument)`, and iapdoctor could resolve only some of its product IDs"
        case .groupMembersUnknown:
            message = "`\(site.api)` shows the subscription group `\(site.argument)`, and iapdoctor cannot tell which subscriptions it holds"
            help = "pull the App Store Connect snapshot (`iapdoctor asc pull`), which lists each group's subscriptions, or list them under `requests` in the descriptor"
        case .unresolved where site.isGroup:
            message = "`\(site.api)` gets `\(site.argument)`, and iapdoctor cannot tell which subscription group that is"
            help = "list the product IDs of that subscription group under `requests` in the descriptor, so iapdoctor can check them"
        case .unresolved:
            message = "`\(site.api)` gets `\(site.argument)`, and iapdoctor cannot tell which product IDs that is"
        }
        return context.finding(message, at: site.location, help: help, notes: [site.reason])
    }
}
