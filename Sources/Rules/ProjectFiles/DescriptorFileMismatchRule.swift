import Formats
import Model
import Loaders
import RuleEngine

/// Where a project file and the descriptor state the same fact differently, the file wins (it is
/// what the build uses) and the descriptor is out of date: say both values and where each is.
struct DescriptorFileMismatchRule: Rule {
    let id = RuleID.descriptorFileMismatch.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        context.project.evidence.disagreements.map { disagreement in
            var finding = context.finding(
                "\(disagreement.subject) is `\(disagreement.file.value)` in \(disagreement.file.location), but the descriptor says `\(disagreement.descriptor.value)`",
                at: disagreement.descriptor.location,
                help: "set `\(disagreement.key)` to `\(disagreement.file.value)`, or remove it and let iapdoctor read the file",
                notes: ["iapdoctor uses the file's value, since that is what the build uses"],
                // The message names the file's place in words; the span shows it.
                related: [RelatedSpan(disagreement.file.location, label: "the file says `\(disagreement.file.value)`")])
            finding.checklist = disagreement.checklistItem
            return context.fail(finding, item: disagreement.checklistItem)
        }
    }
}
