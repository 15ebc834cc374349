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
    }

    /// Loads `path` (as given on the command line; findings repeat it verbatim).
    public static func load(path: String) -> Result {
        // Paths the descriptor names are shown from the current folder when they are inside it.
        let base = FileSystem.displayPath(FileSystem.directoryName(of: path))
        var project = Project(descriptorFile: path, baseDirectory: base)
        let bytes: [UInt8]
        // Refused by size before reading: the cap keeps a check of the largest descriptor near
        // 450 MB (see `YAMLTreeReader.defaultNodeBudget`).
        if let size = FileSystem.fileSize(path), size > YAMLTreeReader.maxBytes {
            return Result(
                project: project,
                problems: [inputProblem(
                    "input-malformed",
                    "`\(FileSystem.shown(path))` is \(size) bytes; descriptors larger than \(YAMLTreeReader.maxBytes >> 20) MiB are refused",
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
                Finding(rule: "descriptor-invalid-value", severity: .error, checklist: nil, message: $0.message,
                        help: $0.help, location: $0.location)
            }
        } catch {
            return Result(
                project: project, problems: [inputProblem("input-malformed", error.message, help: error.help, at: error.location)],
                isUnusable: true)
        }
        guard let tree, case .mapping = tree else {
            let location = tree?.location ?? SourceLocation(file: file, line: 1, column: 1)
            let found = tree.map { $0.kindDescription } ?? "an empty document"
            return Result(
                project: project,
                problems: [
                    inputProblem(
                        "input-malformed", "the descriptor is \(found); expected a mapping that starts with `version: 1`",
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

/// Walks the descriptor tree key by key. Each accessor returns a fact or `nil`, and records a
/// problem instead of throwing, so one run reports every mistake.
struct DescriptorReader {
    let file: String
    var problems: [Finding] = []

    init(file: String) {
        self.file = file
    }

    // MARK: The schema

    // `schemas/project.schema.json` lists the same keys at each level (SchemaTests compares them):
    // a key added here needs its entry there, or the tests fail.

    static let topKeys = [
        "version", "environment", "checked_at", "app", "developer_account", "app_id", "signing",
        "app_store_connect", "subscription_groups", "products", "requests", "catalogs", "testing", "project_root",
    ]
    static let appKeys = [
        "name", "platform", "bundle_id", "deployment_target", "storekit_api", "info_plist", "xcodeproj",
        "target", "configuration", "entitlements", "scheme", "storekit_configuration", "product_id_lists", "sources",
    ]
    static let maxProducts = DescriptorLoader.maxProducts
    static let accountKeys = ["team_id", "team_type", "membership", "program_license", "agreements", "banking", "tax"]
    static let agreementKeys = ["paid_apps"]
    static let appIDKeys = ["identifier", "in_app_purchase", "in_app_purchase_enabled_at"]
    static let signingKeys = ["style", "team_id", "profile"]
    static let profileKeys = ["file", "name", "app_id", "type", "created_at", "expires_at", "installed"]
    static let ascKeys = ["app_record", "version_state", "released_at", "binary_uploaded", "snapshot"]
    static let groupKeys = ["reference_name", "localizations"]
    static let productKeys = [
        "product_id", "reference_name", "type", "status", "cleared_for_sale", "availability", "price_tier",
        "price", "created_at", "updated_at", "family_shareable", "subscription_group", "subscription_duration",
        "localizations", "review_screenshot", "review_notes", "submitted_with_app_version",
    ]
    static let localizationKeys = ["display_name", "description"]
    static let testingKeys = ["device", "os_version", "jailbroken", "app_reinstalled", "signed_out_of_store", "sandbox_account"]
    static let sandboxKeys = ["email", "storefront", "team_id"]

    mutating func read(_ root: YAMLTree, into project: inout Project) {
        let top = mapping(root, path: "", keys: Self.topKeys)
        if let versionNode = top["version"] {
            if let version = integer(versionNode, path: "version") {
                project.version = version
                if version.value != DescriptorLoader.supportedVersion {
                    problem(
                        "descriptor-invalid-value",
                        "`version` is \(version.value); this iapdoctor reads descriptor schema version \(DescriptorLoader.supportedVersion)",
                        help: "set `version: \(DescriptorLoader.supportedVersion)` and check the keys against the schema, or update iapdoctor",
                        at: version.location)
                }
            }
        } else {
            problem(
                "descriptor-missing-version", "the descriptor has no `version` key; expected `version: 1`",
                help: "add `version: 1` as the first line", at: SourceLocation(file: file, line: 1, column: 1))
        }
        project.environment = enumeration(top["environment"], path: "environment")
        project.checkedAt = timestamp(top["checked_at"], path: "checked_at")

        if let node = top["app"] {
            let app = mapping(node, path: "app", keys: Self.appKeys)
            project.app.name = string(app["name"], path: "app.name")
            project.app.platform = enumeration(app["platform"], path: "app.platform")
            project.app.bundleID = string(app["bundle_id"], path: "app.bundle_id")
            project.app.deploymentTarget = version(app["deployment_target"], path: "app.deployment_target")
            project.app.storeKitAPI = enumeration(app["storekit_api"], path: "app.storekit_api")
            project.app.infoPlist = string(app["info_plist"], path: "app.info_plist")
            project.app.xcodeproj = string(app["xcodeproj"], path: "app.xcodeproj")
            project.app.target = string(app["target"], path: "app.target")
            project.app.configuration = string(app["configuration"], path: "app.configuration")
            project.app.entitlements = string(app["entitlements"], path: "app.entitlements")
            project.app.scheme = string(app["scheme"], path: "app.scheme")
            project.app.storeKitConfiguration = string(app["storekit_configuration"], path: "app.storekit_configuration")
            project.app.productIDLists = stringList(app["product_id_lists"], path: "app.product_id_lists")?.value ?? []
            project.app.sources = stringList(app["sources"], path: "app.sources", allowSingle: true)?.value ?? []
        }

        project.projectRoot = string(top["project_root"], path: "project_root")
        if let node = top["developer_account"] {
            let account = mapping(node, path: "developer_account", keys: Self.accountKeys)
            project.account.teamID = teamID(account["team_id"], path: "developer_account.team_id")
            project.account.teamType = enumeration(account["team_type"], path: "developer_account.team_type")
            project.account.membership = enumeration(account["membership"], path: "developer_account.membership")
            project.account.programLicense = enumeration(account["program_license"], path: "developer_account.program_license")
            if let agreementsNode = account["agreements"] {
                let agreements = mapping(agreementsNode, path: "developer_account.agreements", keys: Self.agreementKeys)
                project.account.paidAppsAgreement = enumeration(
                    agreements["paid_apps"], path: "developer_account.agreements.paid_apps")
            }
            project.account.banking = enumeration(account["banking"], path: "developer_account.banking")
            project.account.tax = enumeration(account["tax"], path: "developer_account.tax")
        }

        if let node = top["app_id"] {
            let appID = mapping(node, path: "app_id", keys: Self.appIDKeys)
            project.appID.identifier = string(appID["identifier"], path: "app_id.identifier")
            project.appID.inAppPurchase = bool(appID["in_app_purchase"], path: "app_id.in_app_purchase")
            project.appID.inAppPurchaseEnabledAt = timestamp(
                appID["in_app_purchase_enabled_at"], path: "app_id.in_app_purchase_enabled_at")
        }

        if let node = top["signing"] {
            let signing = mapping(node, path: "signing", keys: Self.signingKeys)
            project.signing.style = enumeration(signing["style"], path: "signing.style")
            project.signing.teamID = teamID(signing["team_id"], path: "signing.team_id")
            if let profileNode = signing["profile"] {
                let profile = mapping(profileNode, path: "signing.profile", keys: Self.profileKeys)
                project.signing.profile.file = string(profile["file"], path: "signing.profile.file")
                project.signing.profile.name = string(profile["name"], path: "signing.profile.name")
                project.signing.profile.appID = string(profile["app_id"], path: "signing.profile.app_id")
                project.signing.profile.type = enumeration(profile["type"], path: "signing.profile.type")
                project.signing.profile.createdAt = timestamp(profile["created_at"], path: "signing.profile.created_at")
                project.signing.profile.expiresAt = timestamp(profile["expires_at"], path: "signing.profile.expires_at")
                project.signing.profile.installed = bool(profile["installed"], path: "signing.profile.installed")
            }
        }

        if let node = top["app_store_connect"] {
            let asc = mapping(node, path: "app_store_connect", keys: Self.ascKeys)
            project.appStoreConnect.appRecord = bool(asc["app_record"], path: "app_store_connect.app_record")
            project.appStoreConnect.versionState = enumeration(asc["version_state"], path: "app_store_connect.version_state")
            project.appStoreConnect.releasedAt = timestamp(asc["released_at"], path: "app_store_connect.released_at")
            project.appStoreConnect.binaryUploaded = bool(asc["binary_uploaded"], path: "app_store_connect.binary_uploaded")
            project.appStoreConnect.snapshot = string(asc["snapshot"], path: "app_store_connect.snapshot")
        }

        for (index, node) in list(top["subscription_groups"], path: "subscription_groups").enumerated() {
            let path = "subscription_groups[\(index)]"
            let group = mapping(node, path: path, keys: Self.groupKeys)
            project.subscriptionGroups.append(
                SubscriptionGroup(
                    location: node.location, referenceName: string(group["reference_name"], path: "\(path).reference_name"),
                    localizations: localizations(group["localizations"], path: "\(path).localizations")))
        }

        // App Store Connect holds at most 10,000 In-App Purchases per app; past that a descriptor is
        // no app's (and the per-product work, about 40 µs and 10 KB each, stays bounded).
        let productNodes = list(top["products"], path: "products")
        if productNodes.count > Self.maxProducts, let node = top["products"] {
            problem("input-malformed",
                    "`products` lists \(productNodes.count) In-App Purchases; App Store Connect holds at most \(Self.maxProducts) per app",
                    help: "list the products of one app; check larger catalogs as bulk XML (`catalogs`), which is streamed", at: node.location)
        } else {
            for (index, node) in productNodes.enumerated() {
                project.products.append(product(node, path: "products[\(index)]"))
            }
        }

        project.requests = stringList(top["requests"], path: "requests")?.value ?? []
        if project.requests.count > Self.maxProducts, let node = top["requests"] {
            problem("input-malformed",
                    "`requests` lists \(project.requests.count) product IDs; an app can have at most \(Self.maxProducts) In-App Purchases to request",
                    help: "list the product IDs the app requests (each once)", at: node.location)
            project.requests = []
        }
        project.catalogs = stringList(top["catalogs"], path: "catalogs", allowSingle: true)?.value ?? []

        if let node = top["testing"] {
            let testing = mapping(node, path: "testing", keys: Self.testingKeys)
            project.testing.device = enumeration(testing["device"], path: "testing.device")
            project.testing.osVersion = version(testing["os_version"], path: "testing.os_version")
            project.testing.jailbroken = bool(testing["jailbroken"], path: "testing.jailbroken")
            project.testing.appReinstalled = bool(testing["app_reinstalled"], path: "testing.app_reinstalled")
            project.testing.signedOutOfStore = bool(testing["signed_out_of_store"], path: "testing.signed_out_of_store")
            if let accountNode = testing["sandbox_account"], !accountNode.isNull {
                project.testing.sandboxAccountLocation = accountNode.location
                let account = mapping(accountNode, path: "testing.sandbox_account", keys: Self.sandboxKeys)
                project.testing.sandboxAccount.email = string(account["email"], path: "testing.sandbox_account.email")
                project.testing.sandboxAccount.storefront = storefront(account["storefront"], path: "testing.sandbox_account.storefront")
                project.testing.sandboxAccount.teamID = teamID(account["team_id"], path: "testing.sandbox_account.team_id")
            }
        }
    }

    mutating func product(_ node: YAMLTree, path: String) -> Product {
        let fields = mapping(node, path: path, keys: Self.productKeys)
        var product = Product(location: node.location)
        product.productID = string(fields["product_id"], path: "\(path).product_id", trim: false)
        product.referenceName = string(fields["reference_name"], path: "\(path).reference_name", trim: false)
        product.type = enumeration(fields["type"], path: "\(path).type")
        product.status = enumeration(fields["status"], path: "\(path).status")
        product.clearedForSale = bool(fields["cleared_for_sale"], path: "\(path).cleared_for_sale")
        if let availabilityNode = fields["availability"], !availabilityNode.isNull {
            if let list = stringList(availabilityNode, path: "\(path).availability") {
                var storefronts: [Fact<String>] = []
                for item in list.value {
                    if let code = checkStorefront(item, path: "\(path).availability") { storefronts.append(code) }
                }
                product.availability = Fact(storefronts, at: list.location)
            }
        }
        product.priceTier = integer(fields["price_tier"], path: "\(path).price_tier")
        product.price = string(fields["price"], path: "\(path).price")
        if let price = product.price, Double(price.value) == nil {
            problem(
                "descriptor-invalid-value", "`\(path).price` is `\(price.value)`; expected a number such as `0.99`",
                help: "write the customer price as a plain number (`price: \"0.99\"`), or use `price_tier`",
                at: price.location)
            product.price = nil
        }
        product.createdAt = timestamp(fields["created_at"], path: "\(path).created_at")
        product.updatedAt = timestamp(fields["updated_at"], path: "\(path).updated_at")
        product.familyShareable = bool(fields["family_shareable"], path: "\(path).family_shareable")
        product.subscriptionGroup = string(fields["subscription_group"], path: "\(path).subscription_group")
        product.subscriptionDuration = enumeration(fields["subscription_duration"], path: "\(path).subscription_duration")
        product.localizations = localizations(fields["localizations"], path: "\(path).localizations")
        if let screenshot = fields["review_screenshot"], !screenshot.isNull, let scalar = screenshot.scalar {
            if !scalar.isQuoted, let flag = Self.boolean(scalar.text) {
                product.reviewScreenshot = Fact(.present(flag), at: scalar.location)
            } else {
                product.reviewScreenshot = Fact(.file(scalar.text), at: scalar.location)
            }
        } else if let screenshot = fields["review_screenshot"], !screenshot.isNull {
            typeProblem(screenshot, path: "\(path).review_screenshot", expected: "a file path, `true` or `false`")
        }
        product.reviewNotes = string(fields["review_notes"], path: "\(path).review_notes", trim: false)
        product.submittedWithAppVersion = bool(fields["submitted_with_app_version"], path: "\(path).submitted_with_app_version")
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
                    "descriptor-invalid-value",
                    "`\(key.text)` in `\(path)` is not a locale code; expected a language code with an optional region, such as `en-US` or `de`",
                    help: "write the locale as App Store Connect does (`en-US`, `fr-FR`, `ja`, `zh-Hans`)", at: key.location)
            }
            let fields = mapping(value, path: localePath, keys: Self.localizationKeys)
            result.append(
                Localization(
                    locale: Fact(key.text, at: key.location),
                    displayName: string(fields["display_name"], path: "\(localePath).display_name", trim: false),
                    description: string(fields["description"], path: "\(localePath).description", trim: false)))
        }
        return Fact(result, at: location)
    }

    // MARK: Typed accessors

    /// The pairs of a mapping; warns about keys the schema does not have.
    mutating func mapping(_ node: YAMLTree, path: String, keys: [String]) -> [String: YAMLTree] {
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
            problem("descriptor-unknown-key", message, help: help, at: key.location)
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

    static func boolean(_ text: String) -> Bool? { parseBoolean(text) }

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
                "descriptor-invalid-value", "`\(path)` is `\(value.value)`; expected an OS version such as `15.0`",
                help: "write the version as digits separated by dots, in quotes: `\"15.0\"`", at: value.location)
            return nil
        }
        return value
    }

    mutating func timestamp(_ node: YAMLTree?, path: String) -> Fact<Timestamp>? {
        guard let value = string(node, path: path) else { return nil }
        guard let time = Timestamp(iso8601: value.value) else {
            problem(
                "descriptor-invalid-value", "`\(path)` is `\(value.value)`; expected an ISO 8601 date or date-time",
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
                "descriptor-invalid-value", "`\(path)` is `\(value.value)`, which is not one of its values",
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
                "descriptor-invalid-value",
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
                "descriptor-invalid-value",
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
            "descriptor-invalid-value", "`\(path)` is \(node.kindDescription); expected \(expected)",
            help: "change `\(path.split(separator: ".").last.map(String.init) ?? path)` to \(expected)",
            at: node.location)
    }

    mutating func problem(_ rule: String, _ message: String, help: String, at location: SourceLocation) {
        let severity: Severity = rule == "descriptor-unknown-key" ? .warning : .error
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
