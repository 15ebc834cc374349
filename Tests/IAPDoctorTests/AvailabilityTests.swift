import CodeScanner
import Foundation
import IAPDoctor
import Rules
import Testing
import TestSupport

/// `line api: guards` for each StoreKit 2 use of `source` (`-` when nothing guards it).
private func uses(_ source: String) -> [String] {
    SourceScanner.scan(source: source, file: "Store.swift").storeKit2Uses.map { use in
        let minimum = use.guardedMinimum.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        let unavailable = use.unavailable.sorted().map { "\($0) unavailable" }
        let guards = minimum + unavailable
        return "\(use.location.line) \(use.api): \(guards.isEmpty ? "-" : guards.joined(separator: ", "))"
    }
}

@Suite("Availability around StoreKit 2 uses")
struct AvailabilityScanTests {
    @Test func aCallOutsideAnyCheckIsUnguarded() {
        let scan = SourceScanner.scan(source: """
            import StoreKit
            func load() async throws {
                _ = try await Product.products(for: ["com.x.pro"])
            }
            """, file: "Store.swift")
        #expect(scan.storeKit2Uses.map { "\($0.location) \($0.api)" } == ["Store.swift:3:19 Product.products(for:)"])
        #expect(scan.storeKit2Uses.allSatisfy { $0.guardedMinimum.isEmpty && $0.unavailable.isEmpty })
    }

    @Test func ifAvailableGuardsItsBodyOnly() {
        #expect(uses("""
            func load() async throws {
                if #available(iOS 15.0, *) {
                    _ = try await Product.products(for: ["com.x.a"])
                } else {
                    _ = try await Product.products(for: ["com.x.b"])
                }
                if #available(iOS 15, macOS 12, *), let ids = Optional(["com.x.c"]) {
                    _ = try await Product.products(for: ids)
                }
                _ = try await Product.products(for: ["com.x.d"])
            }
            """) == [
                "3 Product.products(for:): iOS 15.0",
                "5 Product.products(for:): -",
                "8 Product.products(for:): iOS 15, macOS 12",
                "10 Product.products(for:): -",
            ])
    }

    @Test func guardAvailableGuardsTheRestOfItsBlock() {
        #expect(uses("""
            func load() async throws {
                _ = try await Product.products(for: ["com.x.before"])
                guard #available(iOS 15, *) else {
                    _ = try await Product.products(for: ["com.x.else"])
                    return
                }
                for _ in 0..<2 {
                    _ = try await Product.products(for: ["com.x.loop"])
                }
                _ = try await Product.products(for: ["com.x.after"])
            }
            func other() async throws {
                _ = try await Product.products(for: ["com.x.other"])
            }
            """) == [
                "2 Product.products(for:): -",
                "4 Product.products(for:): -",
                "8 Product.products(for:): iOS 15",
                "10 Product.products(for:): iOS 15",
                "13 Product.products(for:): -",
            ])
    }

    @Test func availableOnAFunctionGuardsItsSignatureAndBody() {
        #expect(uses("""
            @available(iOS 15.0, *)
            func load() async throws {
                _ = try await Product.products(for: ["com.x.a"])
            }
            @available(iOS 15, macOS 12, *) @MainActor
            private func handle(_ result: Product.PurchaseResult) {}
            @available(iOS, introduced: 15)
            init(option: Product.PurchaseOption) {}
            func unguarded(_ result: Product.PurchaseResult) {}
            """) == [
                "3 Product.products(for:): iOS 15.0",
                "6 Product.PurchaseResult: iOS 15, macOS 12",
                "8 Product.PurchaseOption: iOS 15",
                "9 Product.PurchaseResult: -",
            ])
    }

    @Test func availableOnATypeOrExtensionGuardsItsMembers() {
        #expect(uses("""
            @available(iOS 15.0, *)
            @MainActor public final class Store: ObservableObject {
                func load() async throws {
                    _ = try await Product.products(for: ["com.x.a"])
                }
                var purchase: Product.PurchaseOption? { nil }
            }
            @available(iOS 15, *)
            extension Store {
                func more() async throws { _ = try await Product.products(for: ["com.x.b"]) }
            }
            struct Other {
                func load() async throws { _ = try await Product.products(for: ["com.x.c"]) }
            }
            """) == [
                "4 Product.products(for:): iOS 15.0",
                "6 Product.PurchaseOption: iOS 15.0",
                "10 Product.products(for:): iOS 15",
                "13 Product.products(for:): -",
            ])
    }

    @Test func availableOnPropertiesGuardsTheirBodiesOnly() {
        #expect(uses("""
            struct Shop {
                @available(iOS 15, *)
                var view: some View { StoreView(ids: ["com.x.a"]) }
                @available(iOS 15, *)
                static let ids = ["com.x.b"]
                func load() async throws { _ = try await Product.products(for: ["com.x.c"]) }
            }
            """) == [
                "3 StoreView(ids:): iOS 15",
                "6 Product.products(for:): -",
            ])
    }

    @Test func nestedChecksRequireTheHighestVersion() {
        #expect(uses("""
            @available(macOS 12, *)
            struct Store {
                func load() async throws {
                    if #available(iOS 15, *) {
                        if #available(iOS 14, *) {
                            _ = try await Product.products(for: ["com.x.a"])
                        }
                        guard #available(iOS 17, *) else { return }
                        _ = try await Product.products(for: ["com.x.b"])
                    }
                    _ = try await Product.products(for: ["com.x.c"])
                }
            }
            """) == [
                "6 Product.products(for:): iOS 15, macOS 12",
                "9 Product.products(for:): iOS 17, macOS 12",
                "11 Product.products(for:): macOS 12",
            ])
    }

    @Test func aLowerVersionIsRecordedAsWritten() {
        #expect(uses("""
            func load() async throws {
                if #available(iOS 13, *) {
                    _ = try await Product.products(for: ["com.x.a"])
                }
            }
            """) == ["3 Product.products(for:): iOS 13"])
    }

    @Test func unavailableGuardsTheOtherBranch() {
        #expect(uses("""
            func load() async throws {
                if #unavailable(iOS 15) {
                    legacyLoad()
                    _ = try await Product.products(for: ["com.x.a"])
                } else {
                    _ = try await Product.products(for: ["com.x.b"])
                }
                guard #unavailable(iOS 15) else {
                    _ = try await Product.products(for: ["com.x.c"])
                    return
                }
                _ = try await Product.products(for: ["com.x.d"])
            }
            @available(macOS, unavailable)
            func phoneOnly() async throws { _ = try await Product.products(for: ["com.x.e"]) }
            """) == [
                "4 Product.products(for:): -",
                "6 Product.products(for:): iOS 15",
                "9 Product.products(for:): iOS 15",
                "12 Product.products(for:): -",
                "15 Product.products(for:): macOS unavailable",
            ])
    }

    /// Even when the first file ends inside the guarded type.
    @Test func aCheckInOneFileDoesNotGuardAnother() {
        let scan = SourceScanner.scan(sources: [
            (file: "A.swift", text: "@available(iOS 15, *)\nstruct A {\n    func f() async throws { _ = try await Product.products(for: [\"com.x.a\"]) }\n"),
            (file: "B.swift", text: "func g() async throws { _ = try await Product.products(for: [\"com.x.b\"]) }\n"),
        ])
        #expect(scan.storeKit2Uses.map { "\($0.location.file) \($0.guardedMinimum)" } == ["A.swift [\"iOS\": \"15\"]", "B.swift [:]"])
    }
}

@Suite("deployment-target-too-low and availability checks")
struct AvailabilityRuleTests {
    /// The healthy example (StoreKit 2) with deployment target 14.0 and `files` as its sources:
    /// this rule's findings.
    static func findings(_ files: [String: String], platform: String = "ios") throws -> [Finding] {
        let folder = try makeScratchFolder("availability")
        defer { removeScratch(folder) }
        for (name, text) in files {
            try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
        }
        let diagnosis = diagnose(snippet: """
            app:
              platform: \(platform)
              deployment_target: "14.0"
              sources: ["\(folder)"]
            """)
        return diagnosis.findings.filter { $0.rule == "deployment-target-too-low" }
    }

    @Test func everyUseGuardedPasses() throws {
        let found = try Self.findings(["Store.swift": """
            import StoreKit
            @available(iOS 15, *)
            final class Store {
                func load() async throws { _ = try await Product.products(for: ["com.greenthumb.pocketgarden.seeds"]) }
            }
            func buy() async throws {
                guard #available(iOS 15.0, *) else { return }
                _ = try await Product.products(for: ["com.greenthumb.pocketgarden.seeds"]).first?.purchase()
            }
            func show() -> some View {
                if #available(iOS 17, *) { return StoreView(ids: ["com.greenthumb.pocketgarden.seeds"]) }
                return EmptyView()
            }
            """])
        #expect(found.isEmpty, "\(found.map(\.message))")
    }

    @Test func anUnguardedUseIsNamed() throws {
        let found = try Self.findings(["Store.swift": """
            import StoreKit
            func load() async throws {
                if #available(iOS 15, *) { _ = try await Product.products(for: ["com.greenthumb.pocketgarden.seeds"]) }
                _ = try await Product.products(for: ["com.greenthumb.pocketgarden.seeds"])
            }
            """])
        let finding = try #require(found.first)
        #expect(found.count == 1)
        #expect(finding.message.contains("and 1 StoreKit 2 use runs on older systems too"))
        #expect(finding.location.map { "\($0.file):\($0.line)" } == "snippet.yaml:3", "the deployment target's line")
        #expect(finding.notes.count == 1)
        #expect(finding.notes.first?.contains("`Product.products(for:)` at ") == true)
        #expect(finding.notes.first?.contains("Store.swift:4:19 runs on iOS 14.0 too: it is not inside `if #available(iOS 15.0, *)`") == true)
        #expect(finding.related.map(\.location.line) == [4])
        #expect(finding.help?.contains("`deployment_target: \"15.0\"`") == true)
        #expect(finding.help?.contains("inside `if #available(iOS 15.0, *) { … }`") == true)
    }

    @Test func aCheckBelowStoreKit2sMinimumDoesNotGuard() throws {
        let found = try Self.findings(["Store.swift": """
            func load() async throws {
                if #available(iOS 14, *) { _ = try await Product.products(for: ["com.greenthumb.pocketgarden.seeds"]) }
            }
            """])
        #expect(found.count == 1)
        #expect(found.first?.notes.first?.contains("its availability check asks only for iOS 14") == true)
    }

    @Test func onlyTheCheckOfTheAppsPlatformCounts() throws {
        let source = """
            @available(iOS 15, *)
            func load() async throws { _ = try await Product.products(for: ["com.greenthumb.pocketgarden.seeds"]) }
            """
        #expect(try Self.findings(["Store.swift": source], platform: "ipados").isEmpty)
        // An iOS check leaves tvOS 14.0 unguarded (macOS 14.0 has StoreKit 2 anyway).
        let tv = try Self.findings(["Store.swift": source], platform: "tvos")
        #expect(tv.count == 1)
        #expect(tv.first?.notes.first?.contains("not inside `if #available(tvOS 15.0, *)`") == true)
    }

    @Test func manyUnguardedUsesAreListedThenCounted() throws {
        let calls = (1...5).map { "    _ = try await Product.products(for: [\"com.greenthumb.pocketgarden.seeds\($0)\"])" }
        let found = try Self.findings(["Store.swift": "func load() async throws {\n" + calls.joined(separator: "\n") + "\n}\n"])
        let finding = try #require(found.first)
        #expect(finding.message.contains("and 5 StoreKit 2 uses run on older systems too"))
        #expect(finding.notes.count == 4, "three named, the rest counted")
        #expect(finding.notes.last == "and 2 more StoreKit 2 uses outside `if #available(iOS 15.0, *)`")
    }
}
