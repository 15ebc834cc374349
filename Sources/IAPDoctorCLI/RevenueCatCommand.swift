import AppStoreConnect
import ArgumentParser
import Foundation
import IAPDoctor
import RevenueCat

/// `iapdoctor revenuecat …`: the command that reads a RevenueCat project. With `asc`, the only
/// ones that use the network.
struct RevenueCatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revenuecat",
        abstract: "Reads a RevenueCat project through its REST API v2 (needs a secret API key).",
        subcommands: [RevenueCatPullCommand.self])
}

/// `iapdoctor revenuecat pull [--project ID] [-o FILE]`.
struct RevenueCatPullCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Saves a RevenueCat project's apps, keys, products, offerings and entitlements as a snapshot.",
        discussion: """
            Reads the project's apps and their public SDK keys, its products, its offerings with \
            their packages and the packages' products, and its entitlements, with GET requests \
            only, and writes one JSON document (format iapdoctor-revenuecat-snapshot/1) that \
            `iapdoctor check --revenuecat FILE` reads offline. A list the key may not read is \
            recorded in the snapshot as unavailable, and the pull goes on.

            The key is a secret API key of API v2 in $REVENUECAT_SECRET_API_KEY (RevenueCat's \
            Project settings > API keys > + New secret API key, API version V2, read-only \
            permission for Project configuration). It is sent only to RevenueCat and never \
            printed or written anywhere; the snapshot holds only public SDK keys. The variable \
            is not REVENUECAT_API_KEY, a name app builds often read into the app.

            Exit codes: 0 the snapshot was written; 2 usage error, the key was refused, or \
            RevenueCat could not be reached.
            """)

    @Option(name: .customLong("project"), help: "The project's ID (proj…); needed only when the key sees several projects.")
    var project: String?

    @Option(name: .shortAndLong, help: "Write the snapshot to this file (atomically) instead of standard output.")
    var output: String?

    /// Where requests go: RevenueCat, unless a test (or a proxy) says otherwise; only https, or
    /// http to this machine, is accepted.
    @Option(name: .customLong("revenuecat-base-url"), help: .hidden)
    var baseURL: String?

    static let keyVariable = "REVENUECAT_SECRET_API_KEY"
    static let baseURLVariable = "IAPDOCTOR_REVENUECAT_BASE_URL"

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let workspace = Workspace()
        if let project, project.isEmpty || project.contains(where: { $0.isWhitespace || $0 == "/" || $0 == "?" || $0 == "#" }) {
            fail("`\(project)` is not a RevenueCat project ID", help: "give the ID from Project settings → General, e.g. --project proj1a2b3c4d")
        }
        if let output, let problem = ASCPull.outputProblem(output, in: workspace) {
            fail(problem, help: "give -o a file in an existing folder, e.g. -o revenuecat-snapshot.json")
        }
        guard let text = environment[RevenueCatPullCommand.keyVariable] else {
            // A name app builds read into the app (Expo's app.config, .env files): not the secret's.
            let other = environment["REVENUECAT_API_KEY"].map { _ in " ($REVENUECAT_API_KEY is not read: app builds often bundle what that name holds, and a secret key must never ship)" } ?? ""
            fail("no RevenueCat secret API key: $\(RevenueCatPullCommand.keyVariable) is not set" + other,
                 help: "set REVENUECAT_SECRET_API_KEY to a secret key; " + SecretAPIKey.whereToMakeOne)
        }
        let key: SecretAPIKey
        do {
            key = try SecretAPIKey(text, source: "$\(RevenueCatPullCommand.keyVariable)")
        } catch {
            fail(error.message, help: error.help)
        }
        var base = RevenueCatClient.productionBaseURL
        if let given = baseURL ?? environment[RevenueCatPullCommand.baseURLVariable], !given.isEmpty {
            do {
                base = try ServiceURL.validated(given, service: "RevenueCat", credential: "API key")
            } catch {
                fail(error.message, help: error.help)
            }
        }
        let showProgress = isatty(2) == 1
        let transport = PlatformHTTPTransport()
        defer { transport.close() }
        let client = RevenueCatClient(configuration: RevenueCatClient.Configuration(baseURL: base), key: key, transport: transport)
        if showProgress { writeProgress("RevenueCat: reading the project…") }
        let started = Date()
        let project = self.project
        let outcome = runBlocking { await RevenueCatPullCommand.pullResult(client: client, projectID: project) }
        if showProgress { writeProgress(nil) }
        let result: RevenueCatPullResult
        switch outcome {
        case .success(let pulled): result = pulled
        case .failure(let failure): fail(key.masked(failure.message), help: failure.help)
        }
        // The snapshot holds what the API answered, the secret key never: a server that echoed
        // it back has it masked here too.
        let snapshot = key.masked(result.text)
        if let output {
            do {
                try OutputFile.writeAtomically(to: output, in: workspace) { file in file.write(snapshot) }
            } catch {
                fail(error.message, help: error.help)
            }
        } else {
            print(snapshot, terminator: "")
        }
        writeError(key.masked(RevenueCatPullCommand.summary(result, seconds: Date().timeIntervalSince(started),
                                                            headline: output.map { "wrote \($0)" } ?? "wrote the snapshot to standard output",
                                                            file: output ?? "revenuecat-snapshot.json")))
    }

    static func pullResult(client: RevenueCatClient, projectID: String?) async -> Result<RevenueCatPullResult, PullFailure> {
        do {
            return .success(try await RevenueCatPull(client: client).run(projectID: projectID))
        } catch {
            return .failure(error)
        }
    }

    /// One error, escaped (a message may quote the server), and exit 2.
    func fail(_ message: String, help: String) -> Never {
        writeError(Escaping.lines(["error: \(message)", "help: \(help)"].map(Escaping.controlCharacters)))
        RevenueCatPullCommand.exit(withError: ExitCode(2))
    }

    static func counted(_ count: Int, _ word: String, _ plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? word : plural ?? word + "s")
    }

    /// What the pull did, for standard error (the snapshot may be on standard output).
    static func summary(_ result: RevenueCatPullResult, seconds: TimeInterval, headline: String, file: String) -> String {
        let statistics = result.statistics
        let project = result.projectName.map { "`\($0)` (\(result.projectID))" } ?? result.projectID
        var lines = [
            "\(headline): project \(project), \(counted(result.apps, "app")), \(counted(result.products, "product")), \(counted(result.offerings, "offering")), "
                + "\(counted(result.entitlements, "entitlement")) from \(counted(statistics.requests, "request")) (\(counted(statistics.pages, "page")), \(counted(statistics.retries, "retry", "retries"))) "
                + "in \(String(format: "%.1f", seconds)) s",
        ]
        for entry in result.unavailable {
            lines.append("unavailable: GET \(entry.path): \(entry.status.map { "\($0) " } ?? "")\(entry.message)")
        }
        lines.append("next: iapdoctor check project.yaml --revenuecat \(file)")
        // The server's words: escaped, so they cannot move the cursor or start a CI command line.
        return String(Escaping.lines(lines.map(Escaping.controlCharacters)).dropLast())
    }
}
