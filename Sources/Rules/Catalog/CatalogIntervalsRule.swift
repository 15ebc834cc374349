import Formats
import Model
import Loaders
import RuleEngine
import XMLReader

/// Price intervals run in order without overlapping, and only the last one is open-ended.
struct CatalogIntervalsRule: CatalogItemRule {
    let id = RuleID.catalogPriceIntervals.rawValue

    func check(item streamed: CatalogStreamedItem, context: CatalogItemContext) -> [Finding] {
        guard let list = streamed.element["products", "product", "intervals"] else { return [] }
        let intervals = list.children(named: "interval")
        guard !intervals.isEmpty else { return [] }
        var findings: [Finding] = []
        let item = streamed.item
        func date(_ node: XMLElementView, _ name: XMLName) -> Timestamp? { node.child(name).flatMap { Timestamp(iso8601: $0.text) } }
        var previous: (node: XMLElementView, end: Timestamp?)?
        for (index, interval) in intervals.enumerated() {
            let where_ = streamed.location(of: interval)
            let start = date(interval, "start_date")
            let end = date(interval, "end_date")
            let isLast = index == intervals.count - 1
            if let start, let end, end < start {
                findings.append(context.finding(
                    "a price interval of `\(item.name)` ends (\(interval.child("end_date")!.text)) before it starts (\(interval.child("start_date")!.text))",
                    at: where_, help: "swap or correct the dates", product: item.productID?.value))
            }
            if isLast, let endDate = interval.child("end_date") {
                findings.append(context.finding(
                    "the last price interval of `\(item.name)` has an `<end_date>`, so the product has no price after \(endDate.text)",
                    at: streamed.valueLocation(of: endDate),
                    help: "remove `<end_date>` from the last interval so its price stays in force", product: item.productID?.value))
            }
            if !isLast, interval.child("end_date") == nil {
                findings.append(context.finding(
                    "price interval \(index + 1) of `\(item.name)` has no `<end_date>` but another interval follows it",
                    at: where_, help: "end this interval the day the next one starts, or remove the later one",
                    product: item.productID?.value))
            }
            if let previous, let previousEnd = previous.end, let start, start < previousEnd,
                let startDate = interval.child("start_date"), let previousEndDate = previous.node.child("end_date")
            {
                // The two dates that overlap: this start, and the previous end it comes before.
                let ends = streamed.valueLocation(of: previousEndDate)
                let note = "the previous interval ends at \(ends)"
                findings.append(context.finding(
                    "price interval \(index + 1) of `\(item.name)` starts (\(startDate.text)) before the previous one ends",
                    at: streamed.valueLocation(of: startDate), help: "make the intervals follow each other without overlapping, in date order",
                    notes: [note], related: [RelatedSpan(ends, label: "the previous interval ends here", note: note)],
                    product: item.productID?.value))
            }
            previous = (interval, end)
        }
        return findings
    }

    func check(_ context: RuleContext) -> [Outcome] {
        context.outcomes(context.catalogPackages.flatMap { context.itemFindings(in: $0) })
    }
}
