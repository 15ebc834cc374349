import Formats
import Model
import Loaders
import RuleEngine

/// A product ID list the build ships against the repository's list of the same name: the build
/// requests what its copy lists, which is what the sources listed when it was built.
struct BuildProductListDiffersRule: Rule {
    let id = RuleID.buildProductListDiffers.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        var outcomes: [Outcome] = []
        for built in context.project.builtApps {
            for list in built.bundledProductIDLists {
                let name = Paths.fileName(of: list.file).lowercased()
                let repository = context.project.requests.filter {
                    $0.source != .build && Paths.fileName(of: $0.location.file).lowercased() == name
                }
                guard let first = repository.first else { continue }
                let listed = Set(repository.map(\.value)), shipped = Set(list.ids.map(\.value))
                let onlyShipped = list.ids.filter { !listed.contains($0.value) }
                let onlyListed = unique(repository.filter { !shipped.contains($0.value) })
                guard !onlyShipped.isEmpty || !onlyListed.isEmpty else {
                    outcomes.append(context.pass())
                    continue
                }
                let shown = "`\(Paths.fileName(of: list.file))`"
                var parts: [String] = []
                if !onlyShipped.isEmpty { parts.append("requests \(quoted(onlyShipped)), which the repository's copy does not list") }
                if !onlyListed.isEmpty { parts.append("lacks \(quoted(onlyListed)), which the repository's copy lists") }
                let note = "the repository's \(shown) is at \(first.location.file)"
                var related = [RelatedSpan(SourceLocation(file: first.location.file), label: "the repository's copy", note: note)]
                related += onlyListed.prefix(5).map { RelatedSpan($0.location, label: "only in the repository's copy") }
                outcomes.append(context.fail(context.finding(
                    "the build's \(shown) " + parts.joined(separator: ", and "),
                    at: onlyShipped.first?.location ?? SourceLocation(file: list.file),
                    help: "build again from the sources you mean to ship, or correct the list the build was made from",
                    notes: [note, "the build requests what its own copy lists; the repository's copy is what the next build will request"],
                    related: related)))
            }
        }
        return outcomes
    }

    private func unique(_ facts: [Fact<String>]) -> [Fact<String>] {
        var seen = Set<String>()
        return facts.filter { seen.insert($0.value).inserted }
    }

    private func quoted(_ facts: [Fact<String>]) -> String {
        let names = facts.prefix(5).map { "`\($0.value)`" }
        let more = facts.count > 5 ? " and \(facts.count - 5) more" : ""
        return names.joined(separator: ", ") + more
    }
}
