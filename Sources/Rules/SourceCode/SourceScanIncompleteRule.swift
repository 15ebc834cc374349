import Formats
import Model
import Loaders
import RuleEngine

/// Files under `app.sources` that were not read (unreadable, oversized, a broken link or a link
/// loop): IDs requested there would be missed, so the scan says so instead of staying silent.
struct SourceScanIncompleteRule: Rule {
    let id = RuleID.sourceScanIncomplete.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let problems = context.project.evidence.sources.problems
        guard !problems.isEmpty else { return [context.pass()] }
        return problems.map { problem in
            context.passWithNotes([context.finding(
                problem.value, at: problem.location,
                notes: ["product IDs requested in this file are not in the checklist"])])
        }
    }
}
