import Formats
import Model
import Loaders
import RuleEngine

/// A git submodule the sources read or hold is not checked out: its code (often the shared store
/// module that names the product IDs) is not there, so the requests it makes cannot be seen.
struct SubmoduleNotCheckedOutRule: Rule {
    let id = RuleID.submoduleNotCheckedOut.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let sources = context.project.evidence.sources
        guard sources.sourcesKey != nil else { return [] }
        guard !sources.absentSubmodules.isEmpty else { return [context.pass()] }
        return sources.absentSubmodules.map { submodule in
            context.fail(context.finding(
                "the git submodule `\(submodule.value)` is not checked out: its folder is missing or empty, so the code in it was not scanned",
                at: submodule.location,
                help: "run `git submodule update --init --recursive` in the repository, then check again",
                notes: ["a clone without `--recurse-submodules` leaves each submodule an empty folder; the product IDs its code requests are unknown until it is there"]))
        }
    }
}
