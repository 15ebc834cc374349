import Formats
import Model
import Loaders
import RuleEngine

/// A value shaped like an App Store shared secret (32 hexadecimal digits) under a name that says
/// secret, in a file the project ships or commits. The finding points at the file and says on
/// which line, but has no source line to show: no part of the value is ever printed.
struct CommittedSharedSecretRule: Rule {
    let id = RuleID.committedSharedSecret.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let secrets = context.project.evidence.sources.secrets
        guard !secrets.isEmpty else { return [context.pass()] }
        return secrets.map { secret in
            context.passWithNotes([context.finding(
                "`\(secret.name)` at line \(secret.location.line), column \(secret.location.column) holds a value shaped like an App Store shared secret (32 hexadecimal digits)",
                at: SourceLocation(file: secret.location.file),
                notes: [
                    "the value is not shown; anyone who can read the repository or the app bundle can use it to validate receipts as the app",
                ])])
        }
    }
}
