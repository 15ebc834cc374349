import Foundation
import IAPDoctor
import Rules
import Testing
import TestSupport

/// `SubscriptionStoreView(groupID:)` requests the group's subscriptions: which they are comes
/// from the App Store Connect snapshot (sandbox and later) or from the StoreKit file Xcode serves.
@Suite("Subscription groups the code shows")
struct ShownGroupTests {
    static let paywall = """
        import StoreKit
        import SwiftUI

        struct Paywall: View {
            var body: some View {
                SubscriptionStoreView(groupID: "20")
            }
        }
        """

    /// The healthy example's descriptor with its `requests` removed and `Paywall.swift` as the
    /// only source, checked in `environment`, with or without the complete snapshot.
    func check(environment: String, snapshot: String?, storeKit: String? = nil) throws -> Diagnosis {
        let folder = try makeScratchFolder("shown-group")
        defer { removeScratch(folder) }
        var descriptor = readText(repositoryFile("examples/healthy/project.yaml"))
        descriptor = descriptor.replacingOccurrences(of: "environment: sandbox", with: "environment: \(environment)")
        let lines = descriptor.split(separator: "\n", omittingEmptySubsequences: false)
        // Drop the `requests:` block: the code is what asks.
        var kept: [Substring] = []
        var inRequests = false
        for line in lines {
            if line.hasPrefix("requests:") { inRequests = true; continue }
            if inRequests, line.hasPrefix(" ") || line.hasPrefix("-") { continue }
            inRequests = false
            kept.append(line)
        }
        descriptor = kept.joined(separator: "\n").replacingOccurrences(of: "app:\n", with: "app:\n  sources: [Paywall.swift]\n")
        if let storeKit {
            try storeKit.write(toFile: folder + "/Plus.storekit", atomically: true, encoding: .utf8)
            descriptor = descriptor.replacingOccurrences(of: "app:\n", with: "app:\n  storekit_configuration: Plus.storekit\n")
        }
        try descriptor.write(toFile: folder + "/project.yaml", atomically: true, encoding: .utf8)
        try Self.paywall.write(toFile: folder + "/Paywall.swift", atomically: true, encoding: .utf8)
        var ascPath: String?
        if let snapshot {
            ascPath = folder + "/asc-snapshot.json"
            try snapshot.write(toFile: ascPath!, atomically: true, encoding: .utf8)
        }
        return Doctor(engine: BuiltinRules.engine()).check(Doctor.Request(
            paths: [folder + "/project.yaml"], environment: nil, profilesDirectories: [], ascSnapshot: ascPath))
    }

    /// The products the app requests (the descriptor's list has others).
    func requested(_ diagnosis: Diagnosis) -> [String] {
        diagnosis.products.filter { !$0.requestedAs.isEmpty }.map(\.productID)
    }

    @Test("the snapshot's group by its ID gives the view's requests, at the view's line")
    func snapshotExpandsGroup() throws {
        let diagnosis = try check(environment: "sandbox", snapshot: ASCSnapshotTests.completeSnapshot())
        #expect(requested(diagnosis) == [ASCSnapshotTests.monthly], "only the group's subscription is requested")
        let monthly = try #require(diagnosis.products.first { $0.productID == ASCSnapshotTests.monthly })
        #expect(monthly.verdict == .valid, "\(monthly.failing) \(monthly.unknown)")
        #expect(!diagnosis.findings.contains { $0.rule == "request-not-resolved" }, "\(diagnosis.findings.map(\.message))")
    }

    @Test("without a file that lists the group, its subscriptions are a question with the next step")
    func unlistedGroupIsAQuestion() throws {
        let diagnosis = try check(environment: "sandbox", snapshot: nil)
        #expect(requested(diagnosis).isEmpty)
        let note = try #require(diagnosis.findings.first { $0.rule == "request-not-resolved" })
        #expect(note.message == "`SubscriptionStoreView(groupID:)` shows the subscription group `20`, and iapdoctor cannot tell which subscriptions it holds")
        #expect(note.location?.line == 6)
        #expect(note.help?.contains("iapdoctor asc pull") == true)
    }

    @Test("a snapshot's group with another ID expands nothing")
    func otherGroupIDExpandsNothing() throws {
        let snapshot = ASCSnapshotTests.completeSnapshot().replacingOccurrences(of: "\"id\": \"20\"", with: "\"id\": \"30\"")
            .replacingOccurrences(of: "{ \"type\": \"subscriptionGroups\", \"id\": \"20\" }", with: "{ \"type\": \"subscriptionGroups\", \"id\": \"30\" }")
        let diagnosis = try check(environment: "sandbox", snapshot: snapshot)
        #expect(requested(diagnosis).isEmpty)
        #expect(diagnosis.findings.contains { $0.rule == "request-not-resolved" && $0.message.contains("group `20`") })
    }

    @Test("running from Xcode, the served file's group gives the requests, whatever the snapshot says")
    func servedFileExpandsGroup() throws {
        let storeKit = """
            { "products": [], "subscriptionGroups": [ { "id": "20", "name": "Plus", "localizations": [],
              "subscriptions": [ { "productID": "com.greenthumb.pocketgarden.plus.yearly", "referenceName": "Plus Yearly",
                "type": "RecurringSubscription", "subscriptionGroupID": "20", "localizations": [] } ] } ],
              "settings": {}, "version": { "major": 3, "minor": 0 } }
            """
        let diagnosis = try check(environment: "xcode", snapshot: ASCSnapshotTests.completeSnapshot(), storeKit: storeKit)
        #expect(requested(diagnosis) == ["com.greenthumb.pocketgarden.plus.yearly"])
        #expect(!diagnosis.findings.contains { $0.rule == "storekit-configuration-group-missing" || $0.rule == "storekit-configuration-incomplete" },
                "\(diagnosis.findings.map(\.message))")
    }
}
