import Formats
import Model
import Loaders
import RuleEngine

/// A hint: products the project knows (the descriptor's, App Store Connect's) whose IDs are among
/// the build's string constants, though no request the sources show names them. Absence proves
/// nothing (short Swift strings live in the code), so only presence is said.
struct BuildExecutableNamesProductRule: Rule {
    let id = RuleID.buildExecutableNamesProduct.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let known = context.project.products.compactMap { $0.productID?.value }
        guard !known.isEmpty else { return [] }
        let requested = Set(context.project.requests.map(\.value))
        var outcomes: [Outcome] = []
        for built in context.project.builtApps {
            guard let signature = built.signature, let strings = signature.identifierStrings else { continue }
            var seen = Set<String>()
            let held = known.filter { strings.contains($0) && !requested.contains($0) && seen.insert($0).inserted }
            guard !held.isEmpty else {
                outcomes.append(context.pass())
                continue
            }
            let names = held.prefix(5).map { "`\($0)`" }.joined(separator: ", ") + (held.count > 5 ? " and \(held.count - 5) more" : "")
            var finding = context.finding(
                "the build's executable holds \(names) among its string constants, though no request the sources show names \(held.count == 1 ? "it" : "them"): the build likely still asks for \(held.count == 1 ? "it" : "them")",
                at: SourceLocation(file: signature.file),
                notes: ["a hint from `__TEXT,__cstring`; Swift keeps strings of up to 15 bytes in the code, so the products not named here may be requested too"])
            finding.severity = .note
            outcomes.append(context.passWithNotes([finding]))
        }
        return outcomes
    }
}
