import Formats
import Model
import Loaders
import RuleEngine

/// App Store Connect lists each linked resource once in a relationship's `data`. A snapshot that
/// repeats one was edited or written by another tool: the link is read once (so a group linked
/// 200 times is one group, not 200 copies of its subscriptions), and the repeat is reported.
struct ASCRepeatedLinkRule: Rule {
    let id = RuleID.ascSnapshotRepeatedLink.rawValue

    /// Repeats listed one by one; past this many, one note counts the rest.
    static let maxListed = 20

    func check(_ context: RuleContext) -> [Outcome] {
        guard let facts = context.project.ascSnapshot else { return [] }
        let repeats = facts.snapshot.repeatedLinks
        guard !repeats.isEmpty else { return [context.pass()] }
        var findings = repeats.prefix(Self.maxListed).map { link in
            context.finding(
                "relationship `\(link.relationship)` of \(link.owner) lists \(link.reference) \(link.count) times; App Store Connect lists each linked resource once, so it is read once",
                at: link.location)
        }
        if repeats.count > Self.maxListed, var note = findings.first {
            note.message = "\(repeats.count - Self.maxListed) more relationships list a linked resource more than once"
            note.severity = .note
            findings.append(note)
        }
        return [context.passWithNotes(findings)]
    }
}
