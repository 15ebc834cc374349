import Foundation
import Formats
import Model
/// Reads a project descriptor (schema version 1, `shared/spec/project.example.yaml`) into a
/// ``Project``. Every problem is collected before returning, as XcodeGen's validation does: unknown
/// keys are warnings (with "did you mean"), wrong types, bad enumeration values, bad dates and a
/// missing `version` are errors.
public enum DescriptorLoader {
    /// In-App Purchases one app can have in App Store Connect ("up to 10,000 in-app purchase
    /// products per app"): a descriptor may list at most that many products, or requests.
    public static let maxProducts = 10_000
    public static let supportedVersion = 1

    public struct Result: Sendable {
        public var project: Project
        /// Problems with the descriptor itself (rules `input-*` and `descriptor-*`).
        public var problems: [Finding]
        /// `true` when the descriptor could not be read or parsed at all.
        public var isUnusable: Bool
        /// `true` when any problem is an error (the check stops, exit code 2).
        public var hasErrors: Bool { isUnusable || problems.contains { $0.severity == .error } }
        /// For a descriptor that did not parse: every value its lines write, as a path could be
        /// (``mentionedValues(in:)``), so that no file it may name is written over.
        public var mentionedValues: [String] = []
    }

    /// Every scalar a descriptor's lines could write, for a text YAML refused (a duplicate key, a
    /// syntax error): more than the paths it names, never fewer. Each line gives itself, what
    /// follows `key: ` or `- `, its flow-list pieces and its words (a value after a tag or an
    /// anchor, a block scalar's line), with quotes dropped and double-quoted escapes decoded.
    public static func mentionedValues(in bytes: [UInt8]) -> [String] {
        var values: [String] = []
        var seen: Set<String> = []
        func add(_ candidate: some StringProtocol) {
            let trimmed = candidate.trimmingCharacters(in: .whitespaces)
            for value in [trimmed, trimmed.trimmingCharacters(in: CharacterSet(charactersIn: "\"'")), decodedQuoted(trimmed)]
            where !value.isEmpty && values.count < 100_000 && seen.insert(value).inserted {
                values.append(value)
            }
        }
        for line in String(decoding: bytes.prefix(YAMLTreeReader.maxBytes), as: UTF8.self).split(whereSeparator: \.isNewline).prefix(200_000) {
            var texts = [line[...]]
            if let comment = line.range(of: " #") { texts.append(line[..<comment.lowerBound]) }
            for text in texts {
                var rest = text
                if let colon = text.range(of: ": ") { rest = text[colon.upperBound...] } else if let dash = text.range(of: "- ") { rest = text[dash.upperBound...] }
                add(text)
                add(rest)
                for piece in rest.split(whereSeparator: { ",[]{}".contains($0) }) {
                    add(piece)
                    if let colon = piece.range(of: ": ") { add(piece[colon.upperBound...]) }
                }
                for word in text.split(whereSeparator: { $0 == " " || $0 == "\t" }) { add(word) }
            }
        }
        return values
    }

    /// A double-quoted YAML scalar's value with its escapes decoded (`\x65`, `\u00e9`, `\n`…),
    /// a single-quoted one's with `''` read as `'`; anything else as it is.
    static func decodedQuoted(_ text: String) -> String {
        if text.count >= 2, text.hasPrefix("'"), text.hasSuffix("'") {
            return String(text.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
        }
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\""), text.contains("\\") else { return text }
        let scalars = Array(text.unicodeScalars.dropFirst().dropLast())
        var out = String.UnicodeScalarView()
        var index = 0
        let simple: [Unicode.Scalar: Unicode.Scalar] = [
            "0": "\0", "a": "\u{7}", "b": "\u{8}", "t": "\t", "n": "\n", "v": "\u{B}", "f": "\u{C}", "r": "\r", "e": "\u{1B}",
            " ": " ", "\"": "\"", "/": "/", "\\": "\\", "N": "\u{85}", "_": "\u{A0}", "L": "\u{2028}", "P": "\u{2029}",
        ]
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            guard scalar == "\\", index < scalars.count else {
                out.append(scalar)
                continue
            }
            let escape = scalars[index]
            index += 1
            if let decoded = simple[escape] {
                out.append(decoded)
                continue
            }
            let width = escape == "x" ? 2 : escape == "u" ? 4 : escape == "U" ? 8 : 0
            guard width > 0, index + width <= scalars.count,
                  let value = UInt32(String(String.UnicodeScalarView(scalars[index..<index + width])), radix: 16),
                  let decoded = Unicode.Scalar(value)
            else {
                out.append(scalar)
                out.append(escape)
                continue
            }
            out.append(decoded)
            index += width
        }
        return String(out)
    }

    /// Loads `path` (as given on the command line; findings repeat it verbatim).
    public static func load(path: String) -> Result {
        // Paths the descriptor names are shown from the current folder when they are inside it.
        let base = Paths.displayPath(Paths.directoryName(of: path))
        var project = Project(descriptorFile: path, baseDirectory: base)
        let bytes: [UInt8]
        // Refused by size before reading: the cap keeps a check of the largest descriptor near
        // 450 MB (see `YAMLTreeReader.defaultNodeBudget`).
        if let size = FileSystem.fileSize(path), size > YAMLTreeReader.maxBytes {
            return Result(
                project: project,
                problems: [inputProblem(
                    RuleID.inputMalformed.rawValue,
                    "`\(Paths.shown(path))` is \(size) bytes; descriptors larger than \(YAMLTreeReader.maxBytes >> 20) MiB are refused",
                    help: "check that this is the descriptor: 10,000 products take about 6 MB; keep catalogs of more products in bulk XML (`catalogs`), which is streamed",
                    at: SourceLocation(file: path, line: 1, column: 1))],
                isUnusable: true)
        }
        do {
            bytes = try FileSystem.readBytes(path, maxBytes: YAMLTreeReader.maxBytes)
        } catch {
            return Result(
                project: project,
                problems: [InputProblem.unreadable(error, at: SourceLocation(file: path)).finding],
                isUnusable: true)
        }
        return load(bytes: bytes, file: path, into: &project)
    }

    /// Loads a descriptor from memory (tests, examples); `file` names it in findings.
    public static func load(bytes: [UInt8], file: String, baseDirectory: String = ".") -> Result {
        var project = Project(descriptorFile: file, baseDirectory: baseDirectory)
        return load(bytes: bytes, file: file, into: &project)
    }

    static func load(bytes: [UInt8], file: String, into project: inout Project) -> Result {
        let tree: YAMLTree?
        var problems: [Finding] = []
        do {
            let read = try YAMLTreeReader.read(bytes: bytes, file: file)
            tree = read.tree
            problems += read.duplicates.map {
                Finding(rule: RuleID.descriptorInvalidValue.rawValue, severity: .error, checklist: nil, message: $0.message,
                        help: $0.help, location: $0.location)
            }
        } catch {
            return Result(
                project: project, problems: [inputProblem(RuleID.inputMalformed.rawValue, error.message, help: error.help, at: error.location)],
                isUnusable: true, mentionedValues: mentionedValues(in: bytes))
        }
        guard let tree, case .mapping = tree else {
            let location = tree?.location ?? SourceLocation(file: file, line: 1, column: 1)
            let found = tree.map { $0.kindDescription } ?? "an empty document"
            return Result(
                project: project,
                problems: [
                    inputProblem(
                        RuleID.inputMalformed.rawValue, "the descriptor is \(found); expected a mapping that starts with `version: 1`",
                        help: "start from `iapdoctor init`, or copy the schema's example (`version: 1`, `environment:`, `app:`, `products:` …)",
                        at: location)
                ],
                isUnusable: true)
        }
        project.descriptor = tree
        var reader = DescriptorReader(file: file)
        reader.read(tree, into: &project)
        problems += reader.problems
        return Result(project: project, problems: problems, isUnusable: false)
    }

    /// Loads an already parsed descriptor (tests compose one from several files).
    public static func load(tree: YAMLTree, file: String, baseDirectory: String = ".") -> Result {
        var project = Project(descriptorFile: file, baseDirectory: baseDirectory)
        project.descriptor = tree
        var reader = DescriptorReader(file: file)
        reader.read(tree, into: &project)
        return Result(project: project, problems: reader.problems, isUnusable: false)
    }

    static func inputProblem(_ rule: String, _ message: String, help: String, at location: SourceLocation) -> Finding {
        Finding(rule: rule, severity: .error, checklist: nil, message: message, help: help, location: location)
    }
}

/// The pairs of one descriptor mapping, looked up by the schema's keys.
struct DescriptorFields<Key: DescriptorSchemaKey> {
    var pairs: [String: YAMLTree]
    /// Where the mapping is, for item keys (`products[2]`); empty for `DescriptorKey`s.
    let prefix: String

    subscript(key: Key) -> YAMLTree? { pairs[key.name] }
    func path(_ key: Key) -> String { key.path(in: prefix) }
}

/// Walks the descriptor tree key by key. Each accessor returns a fact or `nil`, and records a
/// problem instead of throwing, so one run reports every mistake.
package struct DescriptorReader {
    let file: String
    var problems: [Finding] = []

    init(file: String) {
        self.file = file
    }

    // MARK: The schema

    // The keys come from `schemas/project.schema.json` (`Generated/DescriptorKeys.swift`): a key
    // added to the schema is read here by its case, and a misspelt one does not compile.
    static let maxProducts = DescriptorLoader.maxProducts

    mutating func read(_ root: YAMLTree, into project: inout Project) {
        let top = mapping(root, DescriptorKey?.none)
        if let versionNode = top[.version] {
            if let version = integer(versionNode, path: DescriptorKey.version.rawValue) {
                project.version = version
                if version.value != DescriptorLoader.supportedVersion {
                    problem(
                        RuleID.descriptorInvalidValue.rawValue,
                        "`version` is \(version.value); this iapdoctor reads descriptor schema version \(DescriptorLoader.supportedVersion)",
                        help: "set `version: \(DescriptorLoader.supportedVersion)` and check the keys against the schema, or update iapdoctor",
                        at: version.location)
                }
            }
        } else {
            problem(
                RuleID.descriptorMissingVersion.rawValue, "the descriptor has no `version` key; expected `version: 1`",
                help: "add `version: 1` as the first line", at: SourceLocation(file: file, line: 1, column: 1))
        }
        project.environment = enumeration(top, .environment)
        project.checkedAt = timestamp(top, .checkedAt)

        if let node = top[.app] {
            let app = mapping(node, .app)
            project.app.name = string(app, .appName)
            project.app.platform = enumeration(app, .appPlatform)
            project.app.bundleID = string(app, .appBundleID)
            project.app.deploymentTarget = version(app, .appDeploymentTarget)
            project.app.storeKitAPI = enumeration(app, .appStoreKitAPI)
            project.app.infoPlist = string(app, .appInfoPlist)
            project.app.xcodeproj = string(app, .appXcodeproj)
            project.app.target = string(app, .appTarget)
            project.app.configuration = string(app, .appConfiguration)
            project.app.entitlements = string(app, .appEntitlements)
            project.app.scheme = string(app, .appScheme)
            project.app.storeKitConfiguration = string(app, .appStoreKitConfiguration)
            project.app.build = string(app, .appBuild)
            project.app.productIDLists = stringList(app, .appProductIDLists)?.value ?? []
            project.app.sources = stringList(app, .appSources, allowSingle: true)?.value ?? []
        }

        project.projectRoot = string(top, .projectRoot)
        if let node = top[.developerAccount] {
            let account = mapping(node, .developerAccount)
            project.account.teamID = teamID(account, .developerAccountTeamID)
            project.account.teamType = enumeration(account, .developerAccountTeamType)
            project.account.membership = enumeration(account, .developerAccountMembership)
            project.account.programLicense = enumeration(account, .developerAccountProgramLicense)
            if let agreementsNode = account[.developerAccountAgreements] {
                let agreements = mapping(agreementsNode, .developerAccountAgreements)
                project.account.paidAppsAgreement = enumeration(
                    agreements, .developerAccountAgreementsPaidApps)
            }
            project.account.banking = enumeration(account, .developerAccountBanking)
            project.account.tax = enumeration(account, .developerAccountTax)
        }

        if let node = top[.appID] {
            let appID = mapping(node, .appID)
            project.appID.identifier = string(appID, .appIDIdentifier)
            project.appID.inAppPurchase = bool(appID, .appIDInAppPurchase)
            project.appID.inAppPurchaseEnabledAt = timestamp(
                appID, .appIDInAppPurchaseEnabledAt)
        }

        if let node = top[.signing] {
            let signing = mapping(node, .signing)
            project.signing.style = enumeration(signing, .signingStyle)
            project.signing.teamID = teamID(signing, .signingTeamID)
            if let profileNode = signing[.signingProfile] {
                let profile = mapping(profileNode, .signingProfile)
                project.signing.profile.file = string(profile, .signingProfileFile)
                project.signing.profile.name = string(profile, .signingProfileName)
                project.signing.profile.appID = string(profile, .signingProfileAppID)
                project.signing.profile.type = enumeration(profile, .signingProfileType)
                project.signing.profile.createdAt = timestamp(profile, .signingProfileCreatedAt)
                project.signing.profile.expiresAt = timestamp(profile, .signingProfileExpiresAt)
                project.signing.profile.installed = bool(profile, .signingProfileInstalled)
            }
        }

        if let node = top[.appStoreConnect] {
            let asc = mapping(node, .appStoreConnect)
            project.appStoreConnect.appRecord = bool(asc, .appStoreConnectAppRecord)
            project.appStoreConnect.versionState = enumeration(asc, .appStoreConnectVersionState)
            project.appStoreConnect.releasedAt = timestamp(asc, .appStoreConnectReleasedAt)
            project.appStoreConnect.binaryUploaded = bool(asc, .appStoreConnectBinaryUploaded)
            project.appStoreConnect.snapshot = string(asc, .appStoreConnectSnapshot)
        }

        if let node = top[.revenuecat] {
            let revenueCat = mapping(node, .revenuecat)
            project.revenueCat.snapshot = string(revenueCat, .revenuecatSnapshot)
            project.revenueCat.appID = string(revenueCat, .revenuecatAppID)
            project.revenueCat.publicAPIKey = string(revenueCat, .revenuecatPublicAPIKey)
        }

        for (index, node) in list(top, .subscriptionGroups).enumerated() {
            let path = "subscription_groups[\(index)]"
            let group = mapping(node, item: path, SubscriptionGroupKey.self)
            project.subscriptionGroups.append(
                SubscriptionGroup(
                    location: node.location, referenceName: string(group, .referenceName),
                    localizations: localizations(group, .localizations)))
        }

        // App Store Connect holds at most 10,000 In-App Purchases per app; past that a descriptor is
        // no app's (and the per-product work stays bounded).
        let productNodes = list(top, .products)
        if productNodes.count > Self.maxProducts, let node = top[.products] {
            problem(RuleID.inputMalformed.rawValue,
                    "`products` lists \(productNodes.count) In-App Purchases; App Store Connect holds at most \(Self.maxProducts) per app",
                    help: "list the products of one app; check larger catalogs as bulk XML (`catalogs`), which is streamed", at: node.location)
        } else {
            for (index, node) in productNodes.enumerated() {
                project.products.append(product(node, path: "products[\(index)]", baseDirectory: project.baseDirectory))
            }
        }

        project.requests = stringList(top, .requests)?.value ?? []
        if project.requests.count > Self.maxProducts, let node = top[.requests] {
            problem(RuleID.inputMalformed.rawValue,
                    "`requests` lists \(project.requests.count) product IDs; an app can have at most \(Self.maxProducts) In-App Purchases to request",
                    help: "list the product IDs the app requests (each once)", at: node.location)
            project.requests = []
        }
        project.catalogs = stringList(top, .catalogs, allowSingle: true)?.value ?? []

        if let node = top[.testing] {
            let testing = mapping(node, .testing)
            project.testing.device = enumeration(testing, .testingDevice)
            project.testing.osVersion = version(testing, .testingOSVersion)
            project.testing.jailbroken = bool(testing, .testingJailbroken)
            project.testing.inAppPurchasesAllowed = bool(testing, .testingInAppPurchasesAllowed)
            project.testing.appReinstalled = bool(testing, .testingAppReinstalled)
            project.testing.signedOutOfStore = bool(testing, .testingSignedOutOfStore)
            if let accountNode = testing[.testingSandboxAccount], !accountNode.isNull {
                project.testing.sandboxAccountLocation = accountNode.location
                let account = mapping(accountNode, .testingSandboxAccount)
                project.testing.sandboxAccount.email = string(account, .testingSandboxAccountEmail)
                project.testing.sandboxAccount.storefront = storefront(account, .testingSandboxAccountStorefront)
                project.testing.sandboxAccount.teamID = teamID(account, .testingSandboxAccountTeamID)
            }
        }
    }

    /// A product; a review screenshot named by path is looked for relative to `baseDirectory`.
    mutating func product(_ node: YAMLTree, path: String, baseDirectory: String) -> Product {
        let fields = mapping(node, item: path, ProductKey.self)
        var product = Product(location: node.location)
        product.productID = string(fields, .productID, trim: false)
        product.referenceName = string(fields, .referenceName, trim: false)
        product.type = enumeration(fields, .type)
        product.status = enumeration(fields, .status)
        product.clearedForSale = bool(fields, .clearedForSale)
        if let availabilityNode = fields[.availability], !availabilityNode.isNull {
            if let list = stringList(availabilityNode, path: ProductKey.availability.path(in: path)) {
                var storefronts: [Fact<String>] = []
                for item in list.value {
                    if let code = checkStorefront(item, path: ProductKey.availability.path(in: path)) { storefronts.append(code) }
                }
                product.availability = Fact(storefronts, at: list.location)
            }
        }
        product.priceTier = integer(fields, .priceTier)
        product.price = string(fields, .price)
        if let price = product.price, Double(price.value) == nil {
            problem(
                RuleID.descriptorInvalidValue.rawValue, "`\(ProductKey.price.path(in: path))` is `\(price.value)`; expected a number such as `0.99`",
                help: "write the customer price as a plain number (`price: \"0.99\"`), or use `price_tier`",
                at: price.location)
            product.price = nil
        }
        product.createdAt = timestamp(fields, .createdAt)
        product.updatedAt = timestamp(fields, .updatedAt)
        product.familyShareable = bool(fields, .familyShareable)
        product.subscriptionGroup = string(fields, .subscriptionGroup)
        product.subscriptionDuration = enumeration(fields, .subscriptionDuration)
        product.localizations = localizations(fields, .localizations)
        if let screenshot = fields[.reviewScreenshot], !screenshot.isNull, let scalar = screenshot.scalar {
            if !scalar.isQuoted, let flag = Self.boolean(scalar.text) {
                product.reviewScreenshot = Fact(.present(flag), at: scalar.location)
            } else {
                let exists = FileSystem.exists(Paths.resolve(scalar.text, relativeTo: baseDirectory))
                product.reviewScreenshot = Fact(.file(scalar.text, exists: exists), at: scalar.location)
            }
        } else if let screenshot = fields[.reviewScreenshot], !screenshot.isNull {
            typeProblem(screenshot, path: ProductKey.reviewScreenshot.path(in: path), expected: "a file path, `true` or `false`")
        }
        product.reviewNotes = string(fields, .reviewNotes, trim: false)
        product.submittedWithAppVersion = bool(fields, .submittedWithAppVersion)
        return product
    }

    mutating func localizations(_ node: YAMLTree?, path: String) -> Fact<[Localization]>? {
        guard let node, !node.isNull else { return nil }
        guard case .mapping(let pairs, let location) = node else {
            typeProblem(node, path: path, expected: "a mapping from locale to `{ display_name, description }`, e.g. `en-US: { display_name: Pro }`")
            return nil
        }
        var result: [Localization] = []
        for (key, value) in pairs {
            let localePath = "\(path).\(key.text)"
            if !Self.isLocaleCode(key.text) {
                problem(
                    RuleID.descriptorInvalidValue.rawValue,
                    "`\(key.text)` in `\(path)` is not a locale code; expected a language code with an optional region, such as `en-US` or `de`",
                    help: "write the locale as App Store Connect does (`en-US`, `fr-FR`, `ja`, `zh-Hans`)", at: key.location)
            }
            let fields = mapping(value, item: localePath, LocalizationKey.self)
            result.append(
                Localization(
                    locale: Fact(key.text, at: key.location),
                    displayName: string(fields, .displayName, trim: false),
                    description: string(fields, .description, trim: false)))
        }
        return Fact(result, at: location)
    }

    // MARK: Typed accessors

    /// The mapping at `key` (`nil`: the top level), read with the schema's keys for it.
    mutating func mapping(_ node: YAMLTree, _ key: DescriptorKey?) -> DescriptorFields<DescriptorKey> {
        DescriptorFields(pairs: pairs(node, path: key?.rawValue ?? "", keys: DescriptorKey.names(in: key)), prefix: "")
    }

    /// One entry of a list (or one locale's mapping) at `path`, read with its item keys.
    mutating func mapping<Key: DescriptorSchemaKey>(_ node: YAMLTree, item path: String, _: Key.Type) -> DescriptorFields<Key> {
        DescriptorFields(pairs: pairs(node, path: path, keys: Key.names), prefix: path)
    }

    // Each accessor for a key of a mapping read above: the node and the path it names in problems.
    mutating func string<K>(_ fields: DescriptorFields<K>, _ key: K, trim: Bool = true) -> Fact<String>? {
        string(fields[key], path: fields.path(key), trim: trim)
    }
    mutating func stringList<K>(_ fields: DescriptorFields<K>, _ key: K, allowSingle: Bool = false) -> Fact<[Fact<String>]>? {
        stringList(fields[key], path: fields.path(key), allowSingle: allowSingle)
    }
    mutating func list<K>(_ fields: DescriptorFields<K>, _ key: K) -> [YAMLTree] { list(fields[key], path: fields.path(key)) }
    mutating func bool<K>(_ fields: DescriptorFields<K>, _ key: K) -> Fact<Bool>? { bool(fields[key], path: fields.path(key)) }
    mutating func integer<K>(_ fields: DescriptorFields<K>, _ key: K) -> Fact<Int>? { integer(fields[key], path: fields.path(key)) }
    mutating func version<K>(_ fields: DescriptorFields<K>, _ key: K) -> Fact<String>? { version(fields[key], path: fields.path(key)) }
    mutating func timestamp<K>(_ fields: DescriptorFields<K>, _ key: K) -> Fact<Timestamp>? {
        timestamp(fields[key], path: fields.path(key))
    }
    mutating func enumeration<K, E: DescriptorEnumeration>(_ fields: DescriptorFields<K>, _ key: K) -> Fact<E>? {
        enumeration(fields[key], path: fields.path(key))
    }
    mutating func teamID<K>(_ fields: DescriptorFields<K>, _ key: K) -> Fact<String>? { teamID(fields[key], path: fields.path(key)) }
    mutating func storefront<K>(_ fields: DescriptorFields<K>, _ key: K) -> Fact<String>? {
        storefront(fields[key], path: fields.path(key))
    }
    mutating func localizations<K>(_ fields: DescriptorFields<K>, _ key: K) -> Fact<[Localization]>? {
        localizations(fields[key], path: fields.path(key))
    }

    /// The pairs of a mapping; warns about keys the schema does not have.
    mutating func pairs(_ node: YAMLTree, path: String, keys: [String]) -> [String: YAMLTree] {
        if node.isNull { return [:] }
        guard case .mapping(let pairs, _) = node else {
            typeProblem(node, path: path.isEmpty ? "the descriptor" : path, expected: "a mapping")
            return [:]
        }
        var result: [String: YAMLTree] = [:]
        for (key, value) in pairs {
            if keys.contains(key.text) {
                if !value.isNull { result[key.text] = value }
                continue
            }
            let place = path.isEmpty ? "at the top level" : "in `\(path)`"
            var help = "remove it; the keys \(place) are \(keys.map { "`\($0)`" }.joined(separator: ", "))"
            var message = "unknown key `\(key.text)` \(place)"
            // A close spelling, or a longer or shorter form of a key (`bundle_identifier` → `bundle_id`).
            if let suggestion = closestMatch(to: key.text, in: keys) ?? keys.first(where: {
                $0.count >= 4 && key.text.count >= 4 && (key.text.hasPrefix($0) || $0.hasPrefix(key.text))
            }) {
                message += "; did you mean `\(suggestion)`?"
                help = "rename `\(key.text)` to `\(suggestion)`"
            }
            problem(RuleID.descriptorUnknownKey.rawValue, message, help: help, at: key.location)
            // The one near key, not already used in this mapping: certain enough to rename.
            if let near = uniqueClosestMatch(to: key.text, in: keys), !pairs.contains(where: { $0.key.text == near }), key.location.isOneLine {
                problems[problems.count - 1].fix = Fix(location: key.location, original: key.text, replacement: near)
            }
        }
        return result
    }

    mutating func list(_ node: YAMLTree?, path: String) -> [YAMLTree] {
        guard let node, !node.isNull else { return [] }
        guard case .sequence(let items, _) = node else {
            typeProblem(node, path: path, expected: "a list (`- …` items)")
            return []
        }
        return items
    }

    mutating func string(_ node: YAMLTree?, path: String, trim: Bool = true) -> Fact<String>? {
        guard let node, !node.isNull else { return nil }
        guard let scalar = node.scalar else {
            typeProblem(node, path: path, expected: "a text value")
            return nil
        }
        return Fact(scalar.text, at: scalar.location)
    }

    mutating func stringList(_ node: YAMLTree?, path: String, allowSingle: Bool = false) -> Fact<[Fact<String>]>? {
        guard let node, !node.isNull else { return nil }
        if allowSingle, let scalar = node.scalar { return Fact([Fact(scalar.text, at: scalar.location)], at: scalar.location) }
        guard case .sequence(let items, let location) = node else {
            typeProblem(node, path: path, expected: "a list of text values")
            return nil
        }
        var result: [Fact<String>] = []
        for (index, item) in items.enumerated() {
            if let value = string(item, path: "\(path)[\(index)]", trim: false) { result.append(value) }
        }
        return Fact(result, at: location)
    }

    package static func boolean(_ text: String) -> Bool? { parseBoolean(text) }

    mutating func bool(_ node: YAMLTree?, path: String) -> Fact<Bool>? {
        guard let node, !node.isNull else { return nil }
        guard let scalar = node.scalar, !scalar.isQuoted, let value = Self.boolean(scalar.text) else {
            typeProblem(node, path: path, expected: "`true` or `false`")
            return nil
        }
        return Fact(value, at: scalar.location)
    }

    mutating func integer(_ node: YAMLTree?, path: String) -> Fact<Int>? {
        guard let node, !node.isNull else { return nil }
        guard let scalar = node.scalar, let value = Int(scalar.text) else {
            typeProblem(node, path: path, expected: "a whole number")
            return nil
        }
        return Fact(value, at: scalar.location)
    }

    /// An OS version such as `15.0` or `17.2.1` (YAML may read `15.0` as a number: the text is kept).
    mutating func version(_ node: YAMLTree?, path: String) -> Fact<String>? {
        guard let value = string(node, path: path) else { return nil }
        let parts = value.value.split(separator: ".", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else {
            problem(
                RuleID.descriptorInvalidValue.rawValue, "`\(path)` is `\(value.value)`; expected an OS version such as `15.0`",
                help: "write the version as digits separated by dots, in quotes: `\"15.0\"`", at: value.location)
            return nil
        }
        return value
    }

    mutating func timestamp(_ node: YAMLTree?, path: String) -> Fact<Timestamp>? {
        guard let value = string(node, path: path) else { return nil }
        guard let time = Timestamp(iso8601: value.value) else {
            problem(
                RuleID.descriptorInvalidValue.rawValue, "`\(path)` is `\(value.value)`; expected an ISO 8601 date or date-time",
                help: "write it as `2026-11-22` or `2026-11-22T10:00:00Z`", at: value.location)
            return nil
        }
        return Fact(time, at: value.location)
    }

    mutating func enumeration<E: DescriptorEnumeration>(_ node: YAMLTree?, path: String) -> Fact<E>? {
        guard let value = string(node, path: path) else { return nil }
        guard let parsed = E(spelling: value.value) else {
            var help = "use one of \(E.choices)"
            let suggestion = closestMatch(
                to: normalizedEnumerationSpelling(value.value), in: E.allCases.map(\.rawValue))
            if let suggestion { help = "did you mean `\(suggestion)`? The valid values are \(E.choices)" }
            problem(
                RuleID.descriptorInvalidValue.rawValue, "`\(path)` is `\(value.value)`, which is not one of its values",
                help: help, at: value.location)
            return nil
        }
        return Fact(parsed, at: value.location)
    }

    /// A 10-character Team ID.
    mutating func teamID(_ node: YAMLTree?, path: String) -> Fact<String>? {
        guard let value = string(node, path: path) else { return nil }
        if !AppID.looksLikeTeamID(value.value) {
            problem(
                RuleID.descriptorInvalidValue.rawValue,
                "`\(path)` is `\(value.value)`; a Team ID is 10 upper-case letters and digits, such as `7DW89RZKLY`",
                help: "copy the Team ID from the Membership details page of your Apple Developer account", at: value.location)
        }
        return value
    }

    mutating func storefront(_ node: YAMLTree?, path: String) -> Fact<String>? {
        guard let value = string(node, path: path) else { return nil }
        return checkStorefront(value, path: path)
    }

    /// Storefronts are ISO 3166-1 alpha-3 codes (`USA`, `GBR`), as App Store Connect lists them.
    mutating func checkStorefront(_ value: Fact<String>, path: String) -> Fact<String>? {
        let code = value.value
        guard code.count == 3, code.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("a"..."z").contains($0) })
        else {
            problem(
                RuleID.descriptorInvalidValue.rawValue,
                "`\(code)` in `\(path)` is not a storefront code; expected an ISO 3166-1 alpha-3 code such as `USA` or `GBR`",
                help: "write the storefront as its three-letter country code", at: value.location)
            return nil
        }
        return Fact(code.uppercased(), at: value.location, source: value.source)
    }

    static func isLocaleCode(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let language = parts.first, (2...3).contains(language.count),
            language.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) })
        else { return false }
        return parts.dropFirst().allSatisfy { part in
            (2...8).contains(part.count) && part.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
        }
    }

    // MARK: Problems

    mutating func typeProblem(_ node: YAMLTree, path: String, expected: String) {
        problem(
            RuleID.descriptorInvalidValue.rawValue, "`\(path)` is \(node.kindDescription); expected \(expected)",
            help: "change `\(path.split(separator: ".").last.map(String.init) ?? path)` to \(expected)",
            at: node.location)
    }

    mutating func problem(_ rule: String, _ message: String, help: String, at location: SourceLocation) {
        let severity: Severity = rule == RuleID.descriptorUnknownKey.rawValue ? .warning : .error
        problems.append(
            Finding(rule: rule, severity: severity, checklist: nil, message: message, help: help, location: location))
    }
}

/// `true`/`false` (and YAML 1.1's `yes`/`no`) in their usual capitalisations; `nil` for anything else.
public func parseBoolean(_ text: String) -> Bool? {
    switch text {
    case "true", "True", "TRUE", "yes", "Yes", "YES": return true
    case "false", "False", "FALSE", "no", "No", "NO": return false
    default: return nil
    }
}
