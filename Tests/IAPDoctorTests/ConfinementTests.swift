import Foundation
import IAPDoctor
import Testing
import TestSupport

/// Paths from inputs stay inside the project, inputs are regular
/// files, `-o` never replaces what is not a regular file, every named path counts as an input,
/// `init` writes YAML that reads back, control characters are shown escaped. Every input is made
/// here, in a folder of the test's own, removed at the end. Runs go through the real binary under
/// `timeout`, so a hang (a FIFO opened for reading) fails with exit 124 instead of stalling.
@Suite("Confinement, writing and hostile names", .serialized, .timeLimit(.minutes(3)))
final class ConfinementTests {
    static let secret = "IAPDOCTOR-CONFINED-\(UUID().uuidString)"

    /// `root/project` holds the descriptor; `root/outside` holds a secret the inputs try to reach.
    let root: String
    var project: String { root + "/project" }
    var outside: String { root + "/outside" }

    init() throws {
        root = try makeScratchFolder("iapdoctor-confine")
        try FileManager.default.createDirectory(atPath: root + "/project", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/outside", withIntermediateDirectories: true)
        // A credentials file in the shape git writes: the token is on line 1.
        try "https://x-access-token:\(Self.secret)@github.com\n".write(toFile: outside + "/.git-credentials", atomically: true, encoding: .utf8)
    }

    deinit { removeScratch(root) }

    @discardableResult
    func write(_ relative: String, _ text: String) -> String {
        let path = project + "/" + relative
        try? FileManager.default.createDirectory(atPath: Paths.directoryName(of: path), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        return path
    }

    func run(_ arguments: [String]) throws -> (output: String, status: Int32, errors: String) {
        try runIAPDoctor(arguments, launcher: ["timeout", "60"])
    }

    /// Every `check` format and both report formats of `descriptor`, each with its exit code.
    func everyOutput(_ arguments: [String]) throws -> [(what: String, text: String, status: Int32, errors: String)] {
        var outputs: [(String, String, Int32, String)] = []
        for format in OutputFormat.allCases {
            let run = try run(["check"] + arguments + ["--format", format.rawValue])
            outputs.append(("check --format \(format)", run.output, run.status, run.errors))
        }
        for format in ["html", "markdown"] {
            let page = root + "/report." + format
            let run = try run(["report"] + arguments + ["--format", format, "-o", page])
            outputs.append(("report --format \(format)", readText(page) + run.output, run.status, run.errors))
            removeScratch(page)
        }
        return outputs
    }

    func expectNoSecret(_ outputs: [(what: String, text: String, status: Int32, errors: String)], status: Int32 = 2,
                        sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(outputs.count == OutputFormat.allCases.count + 2, sourceLocation: sourceLocation)
        for (what, text, code, errors) in outputs {
            // A Bool goes into the expectation, never the output: a failure must not print the secret.
            let leaked = text.contains(Self.secret) || errors.contains(Self.secret) || text.contains("x-access-token")
            #expect(!leaked, "\(what) shows the secret", sourceLocation: sourceLocation)
            // `report` says on standard error where it wrote; `check` says nothing there.
            #expect(what.hasPrefix("report") || errors.isEmpty, "\(what): \(errors)", sourceLocation: sourceLocation)
            #expect(code == status, "\(what) exited \(code)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Item 8: paths from inputs stay inside the project

    @Test func aPathOutsideTheProjectIsAFindingThatReadsNothing() throws {
        let descriptor = write("project.yaml", "version: 1\napp:\n  info_plist: ../outside/.git-credentials\n")
        let outputs = try everyOutput([descriptor])
        expectNoSecret(outputs)
        let text = try #require(outputs.first { $0.what == "check --format text" }?.text)
        #expect(text.contains("error[input-unreadable]: refusing to read `"), "\(text)")
        #expect(text.contains("outside/.git-credentials`: it is outside the project folder"), "\(text)")
        #expect(text.contains("help: move the file into the project folder, or pass `--root`"), "\(text)")
        // Absolute paths are no way around it.
        let absolute = write("absolute.yaml", "version: 1\napp:\n  info_plist: \(outside)/.git-credentials\n")
        let run = try run(["check", absolute])
        #expect(run.status == 2 && run.output.contains("it is outside the project folder") && !run.output.contains(Self.secret), "\(run.output)")
        // Every key that names a file, and the catalogs.
        let keys = ["xcodeproj", "entitlements", "scheme", "storekit_configuration"]
        let every = write("every.yaml", "version: 1\napp:\n" + keys.map { "  \($0): ../outside/.git-credentials\n" }.joined()
            + "  product_id_lists: [../outside/.git-credentials]\nsigning:\n  profile:\n    file: ../outside/.git-credentials\n"
            + "catalogs: [../outside]\n")
        let all = try self.run(["check", every])
        #expect(all.status == 2 && !all.output.contains(Self.secret), "\(all.output)")
        #expect(all.output.components(separatedBy: "it is outside the project folder").count - 1 >= 7, "\(all.output)")
    }

    @Test func aSymbolicLinkLeavingTheProjectIsRefused() throws {
        try FileManager.default.createSymbolicLink(atPath: project + "/Info.plist", withDestinationPath: "../outside/.git-credentials")
        try FileManager.default.createSymbolicLink(atPath: project + "/Config", withDestinationPath: outside)
        let descriptor = write("project.yaml", "version: 1\napp:\n  info_plist: Info.plist\n  entitlements: Config/.git-credentials\n")
        let outputs = try everyOutput([descriptor])
        expectNoSecret(outputs)
        let text = try #require(outputs.first { $0.what == "check --format text" }?.text)
        #expect(text.contains("`\(Paths.displayPath(project))/Info.plist`: it is, or is inside, a symbolic link that leads outside the project folder"), "\(text)")
        #expect(text.contains("Config/.git-credentials`: it is, or is inside, a symbolic link"), "\(text)")
    }

    /// With `--root` the file is read, but it does not parse as a property list: its finding names
    /// it and quotes none of its lines (the token is on the line the error points at).
    @Test func aFileThatDoesNotParseIsNeverQuoted() throws {
        let descriptor = write("project.yaml", "version: 1\napp:\n  info_plist: ../outside/.git-credentials\n")
        let outputs = try everyOutput([descriptor, "--root", root])
        expectNoSecret(outputs)
        let text = try #require(outputs.first { $0.what == "check --format text" }?.text)
        #expect(text.contains("error[input-malformed]"), "\(text)")
        // Inside the project too: a notes file named as the entitlements.
        try FileManager.default.copyItem(atPath: outside + "/.git-credentials", toPath: project + "/notes.txt")
        // Not a property list: a warning (`entitlements-unreadable`), and the check goes on.
        let inside = write("inside.yaml", "version: 1\napp:\n  entitlements: notes.txt\n")
        let insideOutputs = try everyOutput([inside])
        expectNoSecret(insideOutputs, status: 0)
        #expect(insideOutputs.first { $0.what == "check --format text" }?.text.contains("warning[entitlements-unreadable]") == true)
    }

    @Test func aSchemesStoreKitReferenceStaysInsideTheRoot() throws {
        let storeKit = #"{ "products": [ { "productID": "\#(Self.secret)", "type": "NonConsumable", "referenceName": "x", "displayPrice": "0.99", "familyShareable": false, "internalID": "1", "localizations": [] } ], "settings": {}, "version": { "major": 3, "minor": 0 } }"#
        #expect(FileManager.default.createFile(atPath: outside + "/Products.storekit", contents: Data(storeKit.utf8)))
        let scheme = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Scheme version="1.7">
               <LaunchAction buildConfiguration="Debug">
                  <StoreKitConfigurationFileReference identifier="../../../outside/Products.storekit"/>
               </LaunchAction>
            </Scheme>
            """
        write("App.xcodeproj/xcshareddata/xcschemes/App.xcscheme", scheme)
        let descriptor = write("project.yaml", "version: 1\nenvironment: xcode\napp:\n  scheme: App.xcodeproj/xcshareddata/xcschemes/App.xcscheme\n")
        let confined = try run(["check", descriptor, "--format", "json"])
        #expect(confined.status == 2, "\(confined.output)")
        #expect(confined.output.contains("outside/Products.storekit`: it is outside the project folder"), "\(confined.output)")
        #expect(!confined.output.contains(Self.secret))
        // With the root above both, the reference resolves (walking up from the scheme) and is read.
        let rooted = try run(["check", descriptor, "--root", root])
        #expect(rooted.status != 2, "\(rooted.output)")
        #expect(!rooted.output.contains("refusing") && !rooted.output.contains("[storekit-configuration-incomplete]"), "\(rooted.output)")
    }

    // MARK: Item 9: screenshots are regular files inside the package

    @Test func screenshotsOutsideThePackageOrNotRegularAreFindings() throws {
        let package = root + "/Catalog.itmsp"
        try FileManager.default.copyItem(atPath: repositoryFile("examples/catalog/PocketGarden.itmsp"), toPath: package)
        let metadata = package + "/metadata.xml"
        var xml = readText(metadata)
        try FileManager.default.createSymbolicLink(atPath: package + "/linked.png", withDestinationPath: outside + "/.git-credentials")
        xml = xml.replacingOccurrences(of: "<file_name>seeds.png</file_name>", with: "<file_name>../outside/.git-credentials</file_name>")
            .replacingOccurrences(of: "<file_name>greenhouse.png</file_name>", with: "<file_name>/dev/zero</file_name>")
            .replacingOccurrences(of: "<file_name>plus.png</file_name>", with: "<file_name>linked.png</file_name>")
        try xml.write(toFile: metadata, atomically: true, encoding: .utf8)
        let credentialsMD5 = MD5.hex(Array(readText(outside + "/.git-credentials").utf8))
        for format in ["text", "json"] {
            let run = try run(["check", package, "--format", format])
            #expect(run.status == 1, "\(run.output)")
            #expect(run.errors.isEmpty)
            #expect(!run.output.contains(credentialsMD5), "the MD5 of a file outside the package is shown")
            #expect(!run.output.contains("but the file has"), "the size of a file outside the package is shown")
            for name in ["../outside/.git-credentials", "/dev/zero", "linked.png"] {
                #expect(run.output.contains("review screenshot `\(name)`"), "\(name): \(run.output)")
            }
        }
        let text = try run(["check", package]).output
        #expect(text.contains("it is outside the package folder"), "\(text)")
        #expect(text.contains("/dev/zero` of") && text.contains("it is a character device, not a regular file") || text.contains("it is outside the package folder"))
        #expect(text.contains("a symbolic link that leads outside the package folder"), "\(text)")
    }

    // MARK: Item 10: the sources walk stays inside the project

    @Test func theSourcesWalkDoesNotFollowLinksOutOfTheProject() throws {
        try "let id = \"com.outside.\(Self.secret)\"\nfunc f() async throws { _ = try await Product.products(for: [id]) }\n"
            .write(toFile: outside + "/Other.swift", atomically: true, encoding: .utf8)
        write("App/Store.swift", "import StoreKit\nlet ids = [\"com.example.pro\"]\nfunc load() async throws { _ = try await Product.products(for: ids) }\n")
        try FileManager.default.createSymbolicLink(atPath: project + "/App/everything", withDestinationPath: "/")
        try FileManager.default.createSymbolicLink(atPath: project + "/App/other", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: project + "/App/Other.swift", withDestinationPath: outside + "/Other.swift")
        let descriptor = write("project.yaml", "version: 1\napp:\n  sources: [App]\n")
        let run = try run(["check", descriptor, "--format", "json"])
        #expect(run.status != 2, "\(run.output)")
        #expect(!run.output.contains(Self.secret))
        #expect(run.output.contains("com.example.pro"))
        for link in ["everything", "other", "Other.swift"] {
            #expect(run.output.contains("App/\(link)`: a symbolic link that leads outside the project folder"), "\(link): \(run.output)")
        }
        // `sources: [..]` itself is outside.
        let wide = write("wide.yaml", "version: 1\napp:\n  sources: [../outside]\n")
        let refused = try self.run(["check", wide])
        #expect(refused.status == 2 && refused.output.contains("it is outside the project folder") && !refused.output.contains(Self.secret), "\(refused.output)")
    }

    // MARK: Items 11 and 12: writing the output

    @Test func aSymbolicLinkTargetIsRefusedAndKept() throws {
        let victim = root + "/victim.txt"
        try "precious\n".write(toFile: victim, atomically: true, encoding: .utf8)
        let link = root + "/report.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        let run = try run(["check", repositoryFile("examples/healthy/project.yaml"), "--format", "json", "-o", link])
        #expect(run.status == 2)
        #expect(run.errors.contains("refusing to write to `\(link)`: it is a symbolic link"), "\(run.errors)")
        #expect(readText(victim) == "precious\n")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == victim)
    }

    /// A descriptor YAML refuses (a duplicate key) still names its files: `-o` onto one of them is
    /// refused, though the run stopped before reading the descriptor's keys.
    @Test func aDescriptorThatDoesNotParseStillNamesItsInputs() throws {
        let plist = write("project/App/Info.plist", "<plist><dict/></plist>\n")
        let descriptor = write("project/dup.yaml", "version: 1\napp:\n  info_plist: App/Info.plist   # the app's\napp:\n  sources: [App]\n")
        let run = try run(["check", descriptor, "-o", plist])
        #expect(run.status == 2)
        #expect(run.errors.contains("it is one of this run's inputs"), "\(run.errors)")
        #expect(readText(plist) == "<plist><dict/></plist>\n")
        let mentioned = Set(DescriptorLoader.mentionedValues(in: Array("a: [b, 'c d']\n- e # f\ng: {h: i}\n".utf8)))
        #expect(mentioned.isSuperset(of: ["b", "c d", "e", "i"]))
    }

    /// The second value of a duplicate key, written as YAML may write it (on the next line, as a
    /// block scalar, after a tag, with escapes), is named too.
    @Test(arguments: ["\n    Other.plist", " >-\n    Other.plist", " !!str Other.plist", " \"Oth\\x65r.plist\"", " 'Other.plist'  # x", " &a Other.plist"])
    func aDuplicateKeysOtherValueIsAnInput(_ written: String) throws {
        let plist = write("project/Other.plist", "<plist><dict/></plist>\n")
        let descriptor = write("project/dup.yaml", "version: 1\napp:\n  info_plist: Info.plist\n  info_plist:\(written)\n")
        let run = try run(["check", descriptor, "-o", plist])
        #expect(run.status == 2)
        #expect(run.errors.contains("it is one of this run's inputs"), "\(run.errors)")
        #expect(readText(plist) == "<plist><dict/></plist>\n")
    }

    /// `--asc DIR` names a folder of the user's choice; a link in it that leads out is not followed
    /// (nothing of the file it leads to is shown), as in a folder the descriptor names.
    @Test func anASCFolderOnTheCommandLineKeepsItsFilesInside() throws {
        let folder = root + "/snapshot"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/apps.json", withDestinationPath: outside + "/.git-credentials")
        let run = try run(["check", repositoryFile("examples/healthy/project.yaml"), "--asc", folder])
        #expect(run.status == 2)
        #expect(run.output.contains("refusing to read `\(folder)/apps.json`"), "\(run.output)")
        #expect(!run.output.contains(Self.secret))
    }

    @Test func aFIFOIsWrittenNotReplaced() throws {
        let fifo = root + "/report.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        // The reader opens the FIFO (waiting for the writer) and reads to the end.
        let received = LockedText()
        let reader = Thread {
            if let handle = FileHandle(forReadingAtPath: fifo) {
                received.set(String(decoding: handle.readDataToEndOfFile(), as: UTF8.self))
            }
        }
        reader.start()
        let run = try run(["check", repositoryFile("examples/healthy/project.yaml"), "--format", "json", "-o", fifo])
        #expect(run.status == 0, "\(run.errors)")
        for _ in 0..<600 where received.get() == nil { usleep(50_000) }
        #expect(received.get()?.contains("\"schema\"") == true || received.get()?.hasPrefix("{") == true)
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO was replaced")
        // `/dev/stdout` is written to the open standard output.
        let stdout = try self.run(["check", repositoryFile("examples/healthy/project.yaml"), "--format", "json", "-o", "/dev/stdout"])
        #expect(stdout.status == 0 && stdout.output.hasPrefix("{"), "\(stdout.errors)")
    }

    /// `asc pull -o` onto a symbolic link is refused before the pull, not after it.
    @Test func aPullsOutputLinkIsRefusedBeforeThePull() throws {
        let victim = root + "/victim.json"
        try "precious\n".write(toFile: victim, atomically: true, encoding: .utf8)
        let link = root + "/snapshot.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        // No key is given: the output is refused first, so no key or network is needed.
        let run = try run(["asc", "pull", "--bundle-id", "com.acme.coins", "-o", link])
        #expect(run.status == 2)
        #expect(run.errors.contains("refusing to write to `\(link)`: it is a symbolic link"), "\(run.errors)")
        #expect(readText(victim) == "precious\n")
    }

    /// A FIFO nobody reads: an error after a short wait for a reader, never a hang.
    @Test func aFIFOWithoutAReaderIsAnError() throws {
        let fifo = root + "/unread.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let run = try run(["check", repositoryFile("examples/healthy/project.yaml"), "--format", "json", "-o", fifo])
        #expect(run.status == 2)
        #expect(run.errors.contains("cannot write `\(fifo)`: it is a FIFO that no process is reading"), "\(run.errors)")
    }

    @Test func aRegularFileIsReplacedAtomicallyLeavingNoTemporaryFile() throws {
        let folder = root + "/out"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let target = folder + "/report.json"
        try "old\n".write(toFile: target, atomically: true, encoding: .utf8)
        chmod(target, 0o640)
        let run = try run(["check", repositoryFile("examples/healthy/project.yaml"), "--format", "json", "-o", target])
        #expect(run.status == 0, "\(run.errors)")
        #expect(readText(target).hasPrefix("{"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["report.json"])
        var info = stat()
        #expect(stat(target, &info) == 0 && info.st_mode & 0o777 == 0o640, "the file's mode was not kept")
    }

    /// The temporary file is created exclusively under a random name: a link planted at the name
    /// the old code used (`.NAME.PID.tmp`) is neither followed nor used.
    @Test func aPlantedTemporaryLinkIsNotFollowed() throws {
        let victim = root + "/victim.txt"
        try "precious\n".write(toFile: victim, atomically: true, encoding: .utf8)
        let target = root + "/report.txt"
        let planted = root + "/.report.txt.\(ProcessInfo.processInfo.processIdentifier).tmp"
        try FileManager.default.createSymbolicLink(atPath: planted, withDestinationPath: victim)
        try OutputFile.writeAtomically("report\n", to: target, in: nil)
        #expect(readText(victim) == "precious\n")
        #expect(readText(target) == "report\n")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: planted)) == victim)
        let names = try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.hasSuffix(".tmp") }
        #expect(names == [(planted as NSString).lastPathComponent])
    }

    // MARK: Item 13: every named path is an input

    @Test func aPathTheDescriptorNamesIsNeverOverwrittenEvenWhenItHasAnError() throws {
        let plist = write("Info.plist", "<plist version=\"1.0\"><dict/></plist>\n")
        // `environment: nowhere` is an error: the run stops before any file is read.
        let descriptor = write("project.yaml", "version: 1\nenvironment: nowhere\napp:\n  info_plist: Info.plist\n  entitlements: App.entitlements\n")
        for target in [plist, project + "/App.entitlements", project + "/./Info.plist"] {
            let run = try run(["check", descriptor, "--format", "json", "-o", target])
            #expect(run.status == 2)
            #expect(run.errors.contains("it is one of this run's inputs, and iapdoctor never writes to its inputs"), "\(target): \(run.errors)")
        }
        #expect(readText(plist) == "<plist version=\"1.0\"><dict/></plist>\n")
        #expect(!FileSystem.exists(project + "/App.entitlements"))
        // A command-line input that does not exist is one too.
        let missing = try run(["check", descriptor, project + "/Missing.xml", "-o", project + "/Missing.xml"])
        #expect(missing.status == 2 && missing.errors.contains("never writes to its inputs"), "\(missing.errors)")
    }

    // MARK: Item 14: init writes YAML that reads back

    static let hostileNames = [
        #"My\"#, #"a"b"#, "key: value", "x # y", "- dash", "?q", "*star", "&anchor", "!tag", "%pct", "@at", "`tick", "|bar", ">gt",
        "new\nline: injected", "tab\there", "true", "null", "123", "~", "[flow]", "{map}", "a,b", "'single'", " lead", "trail ",
        "esc\u{1B}[31m", "nul-free\u{7}bell", "Café ☕", "..dots",
    ]

    @Test func aScalarForEveryHostileNameReadsBackExactly() {
        for name in Self.hostileNames {
            let yaml = "version: 1\napp:\n  name: \(StarterDescriptor.yamlScalar(name))\n  info_plist: \(StarterDescriptor.yamlScalar(name))\n"
            let loaded = DescriptorLoader.load(bytes: Array(yaml.utf8), file: "t.yaml")
            #expect(!loaded.hasErrors, "\(name.debugDescription): \(loaded.problems.map(\.message))")
            #expect(loaded.project.app.name?.value == name, "\(name.debugDescription) read back as \(loaded.project.app.name?.value.debugDescription ?? "nil")")
            #expect(loaded.project.app.infoPlist?.value == name)
        }
    }

    @Test func initOutputForHostileFileNamesParsesToThosePaths() throws {
        let folder = root + "/survey"
        let sources = "Src \"x\": #1\n- injected: true \\"
        let storeKit = "-?*&! \"q\" \\ #.storekit"
        try FileManager.default.createDirectory(atPath: folder + "/" + sources, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: folder + "/" + sources + "/Store.swift", contents: Data("import StoreKit\n".utf8)))
        #expect(FileManager.default.createFile(atPath: folder + "/" + storeKit, contents: Data(#"{ "products": [], "settings": {}, "version": { "major": 3, "minor": 0 } }"#.utf8)))
        let run = try run(["init", folder])
        #expect(run.status == 0, "\(run.errors)")
        let loaded = DescriptorLoader.load(path: folder + "/project.yaml")
        #expect(!loaded.hasErrors, "\(loaded.problems.map(\.message))\n\(readText(folder + "/project.yaml"))")
        #expect(loaded.project.app.sources.map(\.value) == [sources])
        #expect(loaded.project.app.storeKitConfiguration?.value == storeKit)
        #expect(loaded.project.descriptor.map { _ in true } == true)
        let text = readText(folder + "/project.yaml")
        #expect(!text.contains("\n- injected"), "the newline in a folder name started a new line")
    }

    // MARK: Item 15: control characters are shown escaped

    @Test func controlCharactersFromInputsAreEscapedInEveryTextFormat() throws {
        // OSC 52 (clipboard write) ended by BEL, a C1 CSI, DEL, and a BEL in a product ID.
        let descriptor = write("project.yaml", """
            version: 1
            app:
              name: "Evil\\e]52;c;SGVsbG8=\\a\\x9B2J\\x7F"
              bundle_id: com.example.app
            products:
              - product_id: "com.example.\\e]0;title\\a"
                type: consumable
                reference_name: "Ref\\e[2J"
            """)
        let outputs = try everyOutput([descriptor])
        var escapedSomewhere = 0
        for (what, text, _, errors) in outputs where what != "check --format json" && what != "check --format sarif" {
            let raw = (text + errors).unicodeScalars.contains { [0x1B, 0x07, 0x9B, 0x7F].contains($0.value) }
            #expect(!raw, "\(what) prints a raw control character")
            if text.contains(#"\u{1B}"#) { escapedSomewhere += 1 } else { Issue.record("\(what) does not show ESC escaped:\n\(text)") }
        }
        #expect(escapedSomewhere == outputs.count - 2, "every text format shows ESC as \\u{1B}")
        // Colour codes are still real ESC sequences; the input's are not.
        let colored = try run(["check", descriptor, "--color", "always"])
        #expect(colored.output.contains("\u{1B}[1m") && !colored.output.contains("\u{1B}]52") && colored.output.contains(#"\u{1B}]52"#))
    }

    @Test func aNULInAPathIsAFindingNeverPassedOn() throws {
        write("Info.plist", "<plist version=\"1.0\"><dict/></plist>\n")
        let descriptor = write("project.yaml", "version: 1\napp:\n  info_plist: \"Info.plist\\0.secret\"\n")
        let run = try run(["check", descriptor])
        #expect(run.status == 2)
        #expect(run.output.contains("the path contains a NUL character"), "\(run.output)")
        #expect(!run.output.unicodeScalars.contains("\0"))
        #expect(run.errors.isEmpty)
    }

    // MARK: Item 16: inputs must be regular files

    @Test func aFIFOOrDeviceNamedAsAnInputNeverHangs() throws {
        #expect(mkfifo(project + "/Info.plist", 0o600) == 0)
        #expect(mkfifo(project + "/Products.storekit", 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: project + "/ids.plist", withDestinationPath: "/dev/stdin")
        try FileManager.default.createDirectory(atPath: project + "/App", withIntermediateDirectories: true)
        #expect(mkfifo(project + "/App/Store.swift", 0o600) == 0)
        let descriptor = write("project.yaml", """
            version: 1
            app:
              info_plist: Info.plist
              storekit_configuration: Products.storekit
              product_id_lists: [ids.plist]
              sources: [App]
            """)
        let run = try run(["check", descriptor])
        #expect(run.status == 2, "exit \(run.status): \(run.output)")
        #expect(run.output.contains("Info.plist`: it is a named pipe (FIFO), not a regular file"), "\(run.output)")
        #expect(run.output.contains("Products.storekit`: it is a named pipe (FIFO), not a regular file"), "\(run.output)")
        #expect(run.output.contains("ids.plist`: it is a character device, not a regular file")
            || run.output.contains("ids.plist`: it is a named pipe (FIFO), not a regular file"), "\(run.output)")
        // A catalog given on the command line, and a FIFO as its metadata.xml.
        let package = root + "/Fifo.itmsp"
        try FileManager.default.createDirectory(atPath: package, withIntermediateDirectories: true)
        #expect(mkfifo(package + "/metadata.xml", 0o600) == 0)
        let catalog = try self.run(["check", package])
        #expect(catalog.status == 2 && catalog.output.contains("not a regular file"), "exit \(catalog.status): \(catalog.output)")
    }

    // MARK: Item 18: skipped sources are findings naming the path

    @Test func missingOversizedAndUnreadableSourcesAreFindings() throws {
        write("App/Store.swift", "import StoreKit\n")
        #expect(FileManager.default.createFile(atPath: project + "/App/Huge.swift", contents: Data(repeating: 0x20, count: (4 << 20) + 1)))
        #expect(mkfifo(project + "/App/Pipe.swift", 0o600) == 0)
        let descriptor = write("project.yaml", "version: 1\napp:\n  sources: [App, Missing]\n")
        let run = try run(["check", descriptor])
        #expect(run.status == 2)
        #expect(run.output.contains("error[input-unreadable]: cannot read `Missing`: no such file or folder"), "\(run.output)")
        let present = write("present.yaml", "version: 1\napp:\n  sources: [App]\n")
        let scan = try self.run(["check", present])
        #expect(scan.status != 2, "\(scan.output)")
        #expect(scan.output.contains("App/Huge.swift`: larger than 4 MiB"), "\(scan.output)")
        #expect(scan.output.contains("App/Pipe.swift`: not a regular file"), "\(scan.output)")
    }
}

/// Text handed from the FIFO's reader thread to the test.
final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var text: String?
    func set(_ value: String) { lock.lock(); text = value; lock.unlock() }
    func get() -> String? { lock.lock(); defer { lock.unlock() }; return text }
}
