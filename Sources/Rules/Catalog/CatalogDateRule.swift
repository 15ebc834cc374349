import Formats
import Model
import Loaders
import RuleEngine

/// Dates in a package are calendar dates written `YYYY-MM-DD`.
struct CatalogDateRule: CatalogItemRule {
    let id = RuleID.catalogDate.rawValue

    func check(item streamed: CatalogStreamedItem, context: CatalogItemContext) -> [Finding] {
        let names = streamed.element.names
        let start = names.id(of: "start_date"), end = names.id(of: "end_date")
        guard start >= 0 || end >= 0 else { return [] }
        var findings: [Finding] = []
        streamed.element.forEachDescendant { node in
            guard node.nameID == start || node.nameID == end else { return }
            let text = node.text
            if text.count == 10, Timestamp(iso8601: text) != nil { return }
            findings.append(context.finding(
                "`<\(node.name)>` of `\(streamed.item.name)` is `\(text)`; expected a date written `YYYY-MM-DD`",
                at: streamed.valueLocation(of: node), help: "write the date as year-month-day, e.g. `2026-11-22`",
                product: streamed.item.productID?.value))
        }
        return findings
    }

    func check(_ context: RuleContext) -> [Outcome] {
        context.outcomes(context.catalogPackages.flatMap { context.itemFindings(in: $0) })
    }
}
