import AppStoreConnect
import ArgumentParser
import Dispatch
import Foundation
import IAPDoctor

/// `iapdoctor asc …`: the commands that talk to App Store Connect. With `revenuecat pull`, the
/// only ones that use the network.
struct ASC: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "asc",
        abstract: "Reads App Store Connect through its API (needs an App Store Connect API key).",
        subcommands: [ASCPull.self])
}

/// The API key options, shared by `asc pull` and `check --asc-pull`. Each falls back on the
/// environment variables the `asc` CLI reads (`ASC_KEY_ID`, `ASC_ISSUER_ID`,
/// `ASC_PRIVATE_KEY_PATH`, or the PEM itself in `ASC_PRIVATE_KEY`), then on fastlane's
/// (`APP_STORE_CONNECT_API_KEY_KEY_ID`, `…_ISSUER_ID`, `…_KEY_FILEPATH`, `…_KEY`), so a CI job
/// set up for either works unchanged.
struct ASCKeyOptions: ParsableArguments {
    @Option(name: .customLong("key-id"), help: "The API key's Key ID (default: $ASC_KEY_ID).")
    var keyID: String?

    @Option(name: .customLong("issuer-id"), help: "The team's Issuer ID, a UUID (default: $ASC_ISSUER_ID).")
    var issuerID: String?

    @Flag(name: .customLong("individual-key"), help: "The key is an individual key (one user's, with no Issuer ID), not a team key.")
    var individualKey = false

    @Option(name: .customLong("private-key"), help: "The key's .p8 file (default: $ASC_PRIVATE_KEY_PATH; or the PEM in $ASC_PRIVATE_KEY).")
    var privateKeyFile: String?

    /// Where requests go: App Store Connect, unless a test (or a proxy) says otherwise; only
    /// https, or http to this machine, is accepted.
    @Option(name: .customLong("asc-base-url"), help: .hidden)
    var baseURL: String?

    static let keyIDVariables = ["ASC_KEY_ID", "APP_STORE_CONNECT_API_KEY_KEY_ID"]
    static let issuerIDVariables = ["ASC_ISSUER_ID", "APP_STORE_CONNECT_API_KEY_ISSUER_ID"]
    static let keyFileVariables = ["ASC_PRIVATE_KEY_PATH", "APP_STORE_CONNECT_API_KEY_KEY_FILEPATH"]
    static let keyContentVariables = ["ASC_PRIVATE_KEY", "APP_STORE_CONNECT_API_KEY_KEY"]
    static let baseURLVariable = "IAPDOCTOR_ASC_BASE_URL"

    /// The key, read and checked; a usage error (exit 2) names what is missing or wrong.
    func apiKey(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> APIKey {
        func fromEnvironment(_ names: [String]) -> (name: String, value: String)? {
            for name in names {
                if let value = environment[name], !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return (name, value) }
            }
            return nil
        }
        guard let keyID = keyID ?? fromEnvironment(ASCKeyOptions.keyIDVariables)?.value else {
            throw ASCUsageError(message: "no App Store Connect API Key ID", help: "pass --key-id or set ASC_KEY_ID")
        }
        let issuerID: String?
        if individualKey {
            guard self.issuerID == nil else {
                throw ASCUsageError(message: "--individual-key and --issuer-id together: an individual key has no Issuer ID",
                                    help: "for an individual key leave out --issuer-id; for a team key leave out --individual-key")
            }
            issuerID = nil
        } else {
            guard let given = self.issuerID ?? fromEnvironment(ASCKeyOptions.issuerIDVariables)?.value else {
                throw ASCUsageError(message: "no App Store Connect Issuer ID",
                                    help: "pass --issuer-id or set ASC_ISSUER_ID (a team key); an individual key has none: pass --individual-key")
            }
            issuerID = given
        }
        do {
            if let path = privateKeyFile ?? fromEnvironment(ASCKeyOptions.keyFileVariables)?.value {
                return try APIKey(keyID: keyID, issuerID: issuerID, privateKeyFile: path)
            }
            if let content = fromEnvironment(ASCKeyOptions.keyContentVariables) {
                // CI secrets often hold the PEM with its line breaks written as `\n`.
                let pem = content.value.contains("\n") ? content.value : content.value.replacingOccurrences(of: "\\n", with: "\n")
                return try APIKey(keyID: keyID, issuerID: issuerID, privateKeyPEM: pem, source: "$\(content.name)")
            }
        } catch {
            throw ASCUsageError(message: error.message, help: error.help)
        }
        throw ASCUsageError(
            message: "no App Store Connect API private key",
            help: "pass --private-key AuthKey_\(keyID).p8 or set ASC_PRIVATE_KEY_PATH: " + APIKey.whereToMakeOne)
    }

    func validatedBaseURL(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        guard let text = baseURL ?? environment[ASCKeyOptions.baseURLVariable], !text.isEmpty else { return APIClient.productionBaseURL }
        do {
            return try APIClient.validatedBaseURL(text)
        } catch {
            throw ASCUsageError(message: error.message, help: error.help)
        }
    }

    /// Pulls the snapshot for `bundleID`, showing progress on standard error when it is a
    /// terminal. Usage and key problems, a refused key and network failures are `ASCUsageError`s.
    func pull(bundleID: String, resuming earlier: PartialSnapshot? = nil) throws -> (result: PullResult, seconds: TimeInterval) {
        let key = try apiKey()
        let baseURL = try validatedBaseURL()
        let showProgress = isatty(2) == 1
        let transport = PlatformHTTPTransport()
        defer { transport.close() }
        var progress: (@Sendable (PullStatistics) -> Void)?
        if showProgress {
            progress = { statistics in writeProgress("App Store Connect: \(statistics.requests) requests, \(statistics.pages) pages") }
        }
        let client = APIClient(configuration: APIClient.Configuration(baseURL: baseURL), transport: transport,
                               signer: TokenSigner(key: key), onProgress: progress)
        let started = Date()
        let outcome: Result<PullResult, PullFailure> = runBlocking {
            await ASCKeyOptions.pullResult(client: client, bundleID: bundleID, resuming: earlier)
        }
        if showProgress { writeProgress(nil) }
        switch outcome {
        case .success(let result): return (result, Date().timeIntervalSince(started))
        case .failure(let failure): throw ASCUsageError(message: failure.message, help: failure.help)
        }
    }
}

extension ASCKeyOptions {
    /// ``pull(bundleID:)`` for a command: a usage, key or network problem prints one error and
    /// exits 2.
    func pullOrExit(bundleID: String, resuming earlier: PartialSnapshot? = nil) throws -> (result: PullResult, seconds: TimeInterval) {
        do {
            return try pull(bundleID: bundleID, resuming: earlier)
        } catch let error as ASCUsageError {
            // A message may quote the server (a 401's detail): escaped as the summary is.
            writeError(Escaping.lines(["error: \(error.message)", "help: \(error.help)"].map(Escaping.controlCharacters)))
            throw ExitCode(2)
        }
    }

    static func pullResult(client: APIClient, bundleID: String, resuming earlier: PartialSnapshot?) async -> Result<PullResult, PullFailure> {
        do {
            return .success(try await SnapshotPull(client: client).run(bundleID: bundleID, resuming: earlier))
        } catch {
            return .failure(error)
        }
    }
}

/// `iapdoctor asc pull --bundle-id ID [-o FILE]`.
struct ASCPull: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Saves what App Store Connect knows about an app's In-App Purchases as a snapshot.",
        discussion: """
            Reads the app record, its App ID (capabilities, profiles), its In-App Purchases and \
            subscriptions (states, localizations, availability and territories, prices, review \
            screenshots) and the sandbox testers, with GET requests only, and writes one JSON \
            document (format iapdoctor-asc-snapshot/1) that `iapdoctor check --asc FILE` reads \
            offline. A request the key's role may not make is recorded in the snapshot as \
            unavailable, and the pull goes on; a lapsed required agreement is recorded and ends \
            the pull.

            A pull the hourly request limit stops writes what it has, with the requests not \
            sent; `--resume FILE -o NEW` continues it later, or with another key, asking only \
            for what FILE does not hold, and writes the whole snapshot to NEW.

            The key is a team key from App Store Connect's Users and Access > Integrations > \
            App Store Connect API (not an In-App Purchase key). Its private key is never printed \
            or written anywhere.

            Exit codes: 0 the snapshot was written; 2 usage error, the key was refused, or App \
            Store Connect could not be reached.
            """)

    @Option(name: .customLong("bundle-id"), help: "The app's bundle ID, e.g. com.acme.coins (with --resume: the snapshot's).")
    var bundleID: String?

    @Option(name: .customLong("resume"), help: "Continue the pull that wrote this snapshot, asking only for what it does not hold.")
    var resume: String?

    @Option(name: .shortAndLong, help: "Write the snapshot to this file (atomically) instead of standard output.")
    var output: String?

    @OptionGroup var key: ASCKeyOptions

    func run() throws {
        let workspace = Workspace()
        let earlier = try workspace.run { () throws in try resume.map(ASCPull.readEarlier) }
        guard let bundleID = bundleID ?? earlier?.bundleID else {
            writeError("error: no bundle ID\nhelp: give the app's bundle ID, e.g. --bundle-id com.acme.coins")
            throw ExitCode(2)
        }
        guard !bundleID.isEmpty, !bundleID.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            writeError("error: `\(bundleID)` is not a bundle ID\nhelp: give the app's bundle ID, e.g. --bundle-id com.acme.coins")
            throw ExitCode(2)
        }
        if let output, let problem = ASCPull.outputProblem(output, in: workspace) {
            writeError("error: \(problem)\nhelp: give -o a file in an existing folder, e.g. -o asc-snapshot.json")
            throw ExitCode(2)
        }
        let pulled = try key.pullOrExit(bundleID: bundleID, resuming: earlier)
        if let output {
            do {
                try OutputFile.writeAtomically(to: output, in: workspace) { file in pulled.result.contents.write { file.write($0) } }
            } catch {
                writeError("error: \(error.message)\nhelp: \(error.help)")
                throw ExitCode(2)
            }
        } else {
            pulled.result.contents.write { print($0, terminator: "") }
        }
        writeError(ASCPull.summary(pulled.result, seconds: pulled.seconds, bundleID: bundleID,
                                   headline: output.map { "wrote \($0)" } ?? "wrote the snapshot to standard output",
                                   resumeHint: output.map { "to continue (an hour later, or with another key): iapdoctor asc pull --resume \($0) -o \(ASCPull.resumedName($0))" }))
    }

    /// The snapshot `--resume` names; a file that is not one a pull wrote is a usage error.
    static func readEarlier(_ path: String) throws -> PartialSnapshot {
        do {
            let bytes = try FileSystem.readBytes(path, maxBytes: SnapshotPull.checkedBytes)
            return try PartialSnapshot(bytes: bytes, file: path)
        } catch let problem as FileSystem.Problem {
            writeError("error: \(problem.message)\nhelp: give --resume the snapshot an earlier `iapdoctor asc pull -o FILE` wrote")
        } catch let failure as PullFailure {
            writeError(Escaping.lines(["error: \(failure.message)", "help: \(failure.help)"].map(Escaping.controlCharacters)))
        }
        throw ExitCode(2)
    }

    /// `asc-snapshot.json` → `asc-snapshot-resumed.json`.
    static func resumedName(_ path: String) -> String {
        let stem = path.hasSuffix(".json") ? String(path.dropLast(5)) : path
        return stem + "-resumed.json"
    }

    /// Checked before the pull, so a typo in `-o` does not cost the whole pull.
    static func outputProblem(_ path: String, in workspace: Workspace) -> String? {
        let folder = Paths.directoryName(of: path)
        if !FileSystem.isDirectory(folder) { return "cannot write `\(path)`: the folder `\(folder)` does not exist" }
        do throws(FileSystem.Problem) {
            _ = try OutputFile.outputKind(path, in: workspace)
        } catch {
            return error.message
        }
        return nil
    }

    /// What the pull did, for standard error (the snapshot may be on standard output).
    /// `headline`: what became of the snapshot ("wrote asc-snapshot.json").
    static func summary(_ result: PullResult, seconds: TimeInterval, bundleID: String, headline: String, resumeHint: String? = nil) -> String {
        let statistics = result.statistics
        var lines = [
            "\(headline): \(result.resourceCount) resources from \(statistics.requests) requests "
                + "(\(statistics.pages) pages, \(statistics.retries) retries) in \(String(format: "%.1f", seconds)) s",
        ]
        if let rateLimit = statistics.rateLimit {
            lines.append("rate limit: \(rateLimit.remaining) of \(rateLimit.limit) requests left this hour")
        }
        if !result.appFound, !result.unavailable.contains(where: { $0.request.hasPrefix("GET /v1/apps?") }), result.stoppedBy == nil {
            lines.append("warning: App Store Connect has no app with the bundle ID `\(bundleID)` that this key can see")
        }
        for entry in result.unavailable where entry.wasSent {
            var line = "unavailable: \(entry.request): \(entry.status.map(String.init) ?? "") \(entry.code)"
            if let role = entry.roleNeeded { line += " (needs a key with the role \(role))" }
            lines.append(line)
        }
        if let stop = result.stoppedBy {
            let notSent = result.notSentCount
            lines.append(stop.code == APIError.agreementsCode
                ? "note: App Store Connect answered that a required agreement is missing or has expired (\(stop.code)), and the pull stopped (\(notSent) requests not sent). Accept the agreement in App Store Connect's Business section; the snapshot records the answer for `iapdoctor check --asc`."
                : "note: the pull stopped early (\(stop.code)), \(notSent) requests not sent: \(stop.detail ?? stop.title)")
            if stop.code != APIError.agreementsCode, let resumeHint {
                lines.append("help: \(resumeHint)")
            }
        }
        // Codes and details are the server's words: escaped, so they cannot move the cursor, color
        // the terminal or start a CI command line.
        return String(Escaping.lines(lines.map(Escaping.controlCharacters)).dropLast())
    }
}

/// `check --asc-pull`: the snapshot pulled into a private temporary folder for one check, and
/// removed after it.
struct PulledSnapshot {
    let path: String
    let folder: String

    func remove() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Pulls for `bundleID`, else the descriptor's `app.bundle_id`; prints the pull's summary on
    /// standard error. Usage, key and network problems print one error and exit 2.
    static func pull(paths: [String], bundleID: String?, key: ASCKeyOptions) throws -> PulledSnapshot {
        guard let bundleID = bundleID ?? PulledSnapshot.descriptorBundleID(paths) else {
            writeError("error: --asc-pull needs the app's bundle ID\nhelp: give --bundle-id, or set `app.bundle_id` in the descriptor")
            throw ExitCode(2)
        }
        let pulled = try key.pullOrExit(bundleID: bundleID)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iapdoctor-asc-pull-\(UUID().uuidString.prefix(8))").path
        let path = folder + "/asc-snapshot.json"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            // A new private folder: no input of any run is in it.
            try OutputFile.writeAtomically(to: path, in: nil) { file in pulled.result.contents.write { file.write($0) } }
        } catch let problem as FileSystem.Problem {
            writeError("error: \(problem.message)\nhelp: \(problem.help)")
            throw ExitCode(2)
        } catch {
            writeError("error: cannot create a temporary folder for the App Store Connect snapshot (\(folder))\nhelp: check that the temporary folder ($TMPDIR) is writable")
            throw ExitCode(2)
        }
        writeError(ASCPull.summary(pulled.result, seconds: pulled.seconds, bundleID: bundleID, headline: "pulled App Store Connect for \(bundleID)")
            + "\nnote: the check reads the snapshot from a temporary file, removed afterwards; to keep it, run `iapdoctor asc pull -o asc-snapshot.json` and `iapdoctor check --asc asc-snapshot.json`")
        return PulledSnapshot(path: path, folder: folder)
    }

    /// `app.bundle_id` of the first descriptor among the paths, when it is a plain bundle ID.
    static func descriptorBundleID(_ paths: [String]) -> String? {
        guard let descriptor = paths.first(where: { Doctor.kind(of: $0) == .descriptor }),
              let bundleID = DescriptorLoader.load(path: descriptor).project.app.bundleID?.value,
              !bundleID.isEmpty, !bundleID.contains("$"), !bundleID.contains(where: \.isWhitespace) else { return nil }
        return bundleID
    }
}

struct ASCUsageError: Error {
    let message: String
    let help: String
}

/// One progress line on standard error, rewritten in place; nil clears it.
func writeProgress(_ text: String?) {
    FileHandle.standardError.write(Data(("\r\u{1B}[K" + (text ?? "")).utf8))
}

/// Runs async work from a synchronous command (the root command's `main` is synchronous) and
/// waits for it on this thread, which is not one of the concurrency pool's.
func runBlocking<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
    let box = BlockingResult<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        box.value = await work()
        done.signal()
    }
    done.wait()
    return box.value!
}

/// Written once by the task, read once after the semaphore says it was written.
private final class BlockingResult<T>: @unchecked Sendable {
    var value: T?
}
