import Formats
import Model
import Loaders
import RuleEngine

/// A product ID list (named in `app.product_id_lists`, or a library's configuration file in the
/// sources) from which no ID could be read: an empty list, or a layout iapdoctor does not know.
struct ProductIDListEmptyRule: Rule {
    let id = RuleID.productIdListEmpty.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let lists = context.project.evidence.sources.emptyLists
        guard !lists.isEmpty else { return [context.pass()] }
        return lists.map { list in
            context.passWithNotes([context.finding(
                "no product ID could be read from `\(list.value)`; expected an array of IDs, or arrays under keys such as `Products`, `Subscriptions`, `Consumables`",
                at: list.location,
                notes: ["keys that name secrets or keys (`SharedSecret`, `*secret*`, `*key*`) are never read as product IDs"])])
        }
    }
}
