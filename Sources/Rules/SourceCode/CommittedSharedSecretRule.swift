import Formats
import Model
import Loaders
import RuleEngine

/// A value shaped like an App Store shared secret (32 hexadecimal digits) under a name that says
/// secret, in a file the project ships or commits. The finding points at the value; every output
/// masks it where it quotes the line, so no part of it is ever printed.
struct CommittedSharedSecretRule: Rule {
    let id = RuleID.committedSharedSecret.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let secrets = context.project.evidence.sources.secrets
        guard !secrets.isEmpty else { return [context.pass()] }
        return secrets.map { secret in
            context.passWithNotes([context.finding(
                "`\(secret.name)` holds a value shaped like an App Store shared secret (32 hexadecimal digits)",
                at: secret.location,
                notes: [
                    "the value is not shown; anyone who can read the repository or the app bundle can use it to validate receipts as the app",
                ], secret: secret.value)])
        }
    }
}
