import Foundation

/// `iapdoctor init`: finds an Xcode project's files and writes a starter descriptor with what it
/// found filled in and every fact it cannot see left as a commented question.
public enum StarterDescriptor {
    public struct Found: Sendable {
        public var xcodeproj: String?
        public var infoPlist: String?
        public var entitlements: String?
        public var scheme: String?
        public var storeKit: String?
        public var profile: String?
        public var productIDLists: [String] = []
        public var sources: [String] = []
        public var bundleID: String?
        public var teamID: String?
        public var platform: Platform?
        public var deploymentTarget: String?
        public var configuration: String?
    }

    static let skippedFolders: Set<String> = [
        ".build", "build", "DerivedData", "Pods", "Carthage", "node_modules", ".git", ".swiftpm", "xcuserdata",
    ]

    /// Walks `directory` (sorted, bounded) and picks the files a descriptor can point at. Paths are
    /// relative to `directory`.
    public static func scan(directory: String) -> Found {
        var found = Found()
        var files: [String] = []
        let manager = FileManager.default
        var queue = [""]
        var visited = 0
        while !queue.isEmpty, visited < 20_000 {
            let relative = queue.removeFirst()
            let absolute = relative.isEmpty ? directory : directory + "/" + relative
            guard let entries = try? manager.contentsOfDirectory(atPath: absolute) else { continue }
            for name in entries.sorted() {
                visited += 1
                let path = relative.isEmpty ? name : relative + "/" + name
                var isDirectory: ObjCBool = false
                let full = directory + "/" + path
                guard manager.fileExists(atPath: full, isDirectory: &isDirectory) else { continue }
                // Symbolic links to folders are not followed (no loops).
                let isLink = (try? manager.destinationOfSymbolicLink(atPath: full)) != nil
                if isDirectory.boolValue {
                    if name.hasSuffix(".xcodeproj") {
                        if found.xcodeproj == nil { found.xcodeproj = path }
                        if let schemes = try? manager.contentsOfDirectory(atPath: full + "/xcshareddata/xcschemes") {
                            for scheme in schemes.sorted() where scheme.hasSuffix(".xcscheme") {
                                files.append(path + "/xcshareddata/xcschemes/" + scheme)
                            }
                        }
                        continue
                    }
                    if FileSystem.name(name, isIn: skippedFolders) || name.hasPrefix(".") || isLink || name.lowercased().hasSuffix(".xcworkspace") { continue }
                    queue.append(path)
                } else {
                    files.append(path)
                }
            }
        }
        // The project file says where the app's Info.plist and entitlements are.
        if let xcodeproj = found.xcodeproj,
            let project = try? XcodeProject.load(path: directory + "/" + xcodeproj),
            let (target, _) = project.appTarget(matchingBundleID: nil, configuration: "Release")
        {
            let release = project.buildSettings(target: target, configuration: "Release")
            let base = FileSystem.directoryName(of: xcodeproj)
            func inProject(_ value: String?) -> String? {
                guard let value, !value.contains("$") else { return nil }
                let path = base == "." ? value : base + "/" + value
                return files.contains(path) ? path : nil
            }
            found.infoPlist = inProject(release["INFOPLIST_FILE"]?.value)
            found.entitlements = inProject(release["CODE_SIGN_ENTITLEMENTS"]?.value)
            found.bundleID = project.bundleIdentifier(target: target, configuration: "Release")?.value
            found.teamID = release["DEVELOPMENT_TEAM"]?.value
            found.configuration = target.configurationNames.contains("Debug") ? "Debug" : target.configurationNames.first
            switch release["SDKROOT"]?.value {
            case "macosx": found.platform = .macos
            case "appletvos": found.platform = .tvos
            case "watchos": found.platform = .watchos
            case "xros": found.platform = .visionos
            default: found.platform = .ios
            }
        }
        let isTestPath = { (path: String) in path.range(of: "Tests", options: .caseInsensitive) != nil }
        if found.infoPlist == nil { found.infoPlist = files.first { $0.hasSuffix("Info.plist") && !isTestPath($0) } }
        if found.entitlements == nil { found.entitlements = files.first { $0.hasSuffix(".entitlements") } }
        // The shared scheme named like the project, else the first.
        let schemes = files.filter { $0.hasSuffix(".xcscheme") }
        let projectName = found.xcodeproj.map { String($0.split(separator: "/").last!.dropLast(".xcodeproj".count)) }
        found.scheme = schemes.first { $0.hasSuffix("/\(projectName ?? "").xcscheme") } ?? schemes.first
        found.storeKit = files.first { $0.hasSuffix(".storekit") && !isTestPath($0) } ?? files.first { $0.hasSuffix(".storekit") }
        found.profile = files.first { $0.hasSuffix(".mobileprovision") || $0.hasSuffix(".provisionprofile") }
        found.productIDLists = files.filter { path in
            let name = path.split(separator: "/").last.map { $0.lowercased() } ?? ""
            return (name.hasSuffix(".plist") || name.hasSuffix(".json")) && (name.contains("product_id") || name.contains("productid")
                || name.contains("product-id") || name.hasPrefix("products") && !name.hasSuffix(".storekit"))
        }
        // Sources: the top-level folders that hold Swift or Objective-C files (tests excluded).
        var sourceFolders: [String] = []
        for path in files where [".swift", ".m", ".mm"].contains(where: { path.hasSuffix($0) }) && !isTestPath(path) {
            let top = path.split(separator: "/").first.map(String.init) ?? path
            let folder = path.contains("/") ? top : path
            if !sourceFolders.contains(folder) && folder != "Package.swift" { sourceFolders.append(folder) }
        }
        found.sources = sourceFolders
        return found
    }

    /// The descriptor text: found paths filled in, everything else a commented question.
    public static func render(_ found: Found, name: String) -> String {
        func quote(_ value: String) -> String {
            value.allSatisfy({ $0.isLetter || $0.isNumber || "._-/".contains($0) }) ? value : "\"\(value.replacingOccurrences(of: "\"", with: "\\\""))\""
        }
        func line(_ key: String, _ value: String?, _ question: String, indent: String = "  ") -> String {
            if let value { return "\(indent)\(key): \(quote(value))" }
            return "\(indent)# \(key):   # \(question)"
        }
        var out = """
            # iapdoctor project descriptor (schema version 1), written by `iapdoctor init`.
            # Paths were found in the project folder; every commented key is a fact iapdoctor cannot
            # see in files. Answer it (uncomment and set the value) and the checklist item it feeds
            # stops being "unknown". Keys: see `iapdoctor explain` and the schema in the docs.

            version: 1
            environment: sandbox        # where the products came back invalid: xcode | sandbox | testflight | review | production
            # checked_at: 2026-01-01T00:00:00Z   # "now" for time-based checks (default: the current time)

            app:

            """
        var app: [String] = []
        app.append(line("name", name, "the app's name"))
        app.append(line("platform", found.platform?.rawValue, "ios | ipados | macos | tvos | visionos | watchos"))
        app.append(line("bundle_id", found.bundleID, "bundle ID of the App Store Connect app record"))
        app.append(line("info_plist", found.infoPlist, "path to the app's Info.plist"))
        app.append(line("xcodeproj", found.xcodeproj, "path to the .xcodeproj"))
        app.append(line("configuration", found.configuration, "build configuration of the failing run (Debug, Release…)"))
        app.append(line("entitlements", found.entitlements, "path to the app's .entitlements file"))
        app.append(line("scheme", found.scheme, "path to the .xcscheme you run"))
        app.append(line("storekit_configuration", found.storeKit, "path to a .storekit file, if you test with one"))
        if found.productIDLists.isEmpty {
            app.append("  # product_id_lists: []   # plist or JSON files listing the product IDs the app requests")
        } else {
            app.append("  product_id_lists:")
            app += found.productIDLists.map { "    - \(quote($0))" }
        }
        if found.sources.isEmpty {
            app.append("  # sources: []   # folders scanned for the product IDs the code requests")
        } else {
            app.append("  sources: [\(found.sources.map(quote).joined(separator: ", "))]")
        }
        out += app.joined(separator: "\n") + "\n"
        out += """

            developer_account:
            \(line("team_id", found.teamID, "10-character Team ID"))
              # team_type:          # individual | organization | enterprise | personal
              # membership:         # active | expired
              # program_license:    # accepted | pending
              # agreements:
              #   paid_apps:        # active | pending | new_version_pending | expired | missing
              # banking:            # active | processing | missing
              # tax:                # active | processing | missing

            # app_id:
            #   identifier:         # TEAMID.bundle.id as registered in Certificates, Identifiers & Profiles
            #   in_app_purchase:    # true | false
            #   in_app_purchase_enabled_at:   # when In-App Purchase was enabled on it

            signing:
            \(found.profile.map { "  profile:\n    file: \(quote($0))" } ?? "  # profile:\n  #   file:   # the .mobileprovision the failing build is signed with")

            # app_store_connect:
            #   app_record:         # true | false
            #   version_state:      # prepare_for_submission | waiting_for_review | … | ready_for_sale
            #   released_at:        # when the app was first released
            #   binary_uploaded:    # true | false

            # products:             # the In-App Purchases in App Store Connect, one entry each:
            #   - product_id:
            #     reference_name:
            #     type:             # consumable | non_consumable | auto_renewable | non_renewing
            #     status:           # ready_to_submit | approved | …
            #     cleared_for_sale: # true | false
            #     price_tier:
            #     localizations: { en-US: { display_name: …, description: … } }

            # testing:
            #   device:             # physical | simulator
            #   os_version:
            #   sandbox_account: { storefront: USA, team_id: … }

            """
        return out
    }
}
