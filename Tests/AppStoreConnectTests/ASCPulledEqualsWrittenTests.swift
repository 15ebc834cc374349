import AppStoreConnect
import Foundation
import IAPDoctor
import Rules
import Testing
import TestSupport

/// A pulled snapshot and the same account written by hand (every resource of the synthetic
/// world, every relationship as full linkage, in one document) check to the same diagnosis:
/// the pull loses nothing a check needs, and adds nothing.
@Suite("A pulled snapshot checks like a written one")
struct ASCPulledEqualsWrittenTests {
    static func linkage(_ key: ResourceKey) -> JSONValue {
        .object(["type": .string(key.type), "id": .string(key.id)])
    }

    /// The synthetic world as a person would write it: no paging, no `include=` limits.
    static func handWritten() -> String {
        var data: [JSONValue] = []
        for (key, node) in SyntheticASCWorld.nodes.sorted(by: { ($0.key.type, $0.key.id) < ($1.key.type, $1.key.id) }) {
            var relationships: [String: JSONValue] = [:]
            for (name, related) in node.relationships {
                switch related {
                case .one(let target), .oneUndisclosed(let target):
                    let data: JSONValue = target.map { Self.linkage($0) } ?? .null
                    relationships[name] = .object(["data": data])
                case .many(let targets):
                    let items: [JSONValue] = targets.map { Self.linkage($0) }
                    relationships[name] = .object(["data": .array(items)])
                case .notFound: continue
                }
            }
            var resource: [String: JSONValue] = [
                "type": .string(key.type), "id": .string(key.id), "attributes": .object(node.attributes),
            ]
            if !relationships.isEmpty { resource["relationships"] = .object(relationships) }
            data.append(.object(resource))
        }
        let meta: JSONValue = .object(["iapdoctor": .object([
            "format": "iapdoctor-asc-snapshot/1", "bundle_id": .string(SyntheticASCWorld.bundleID), "unavailable": .array([]),
        ])])
        return JSONValue.object(["data": .array(data), "meta": meta]).serialized(pretty: true)
    }

    static func diagnose(snapshot: String, in folder: String, name: String) throws -> Diagnosis {
        let path = folder + "/" + name
        try snapshot.write(toFile: path, atomically: true, encoding: .utf8)
        return Doctor(engine: BuiltinRules.engine()).check(Doctor.Request(
            paths: [folder + "/project.yaml"], environment: .review, profilesDirectories: [], ascSnapshot: path))
    }

    /// Checks both snapshots of the synthetic account: every product the partial one names has
    /// the full one's verdict, or is unknown.
    @discardableResult
    static func expectUnknownNeverWrong(full: String, partial: String) throws -> (full: Diagnosis, partial: Diagnosis) {
        let folder = try makeScratchFolder("asc-partial")
        defer { removeScratch(folder) }
        try writeProject(in: folder)
        let fromFull = try diagnose(snapshot: full, in: folder, name: "full.json")
        let fromPartial = try diagnose(snapshot: partial, in: folder, name: "partial.json")
        let fullVerdicts = Dictionary(uniqueKeysWithValues: fromFull.products.map { ($0.productID, $0.verdict) })
        for product in fromPartial.products {
            let verdict = try #require(fullVerdicts[product.productID], "\(product.productID)")
            #expect(product.verdict == verdict || product.verdict == .unknown, "\(product.productID)")
        }
        return (fromFull, fromPartial)
    }

    static func writeProject(in folder: String) throws {
        try """
            version: 1
            environment: review
            checked_at: 2026-11-22T10:00:00Z
            app:
              name: Synthetic Coins
              platform: ios
              bundle_id: \(SyntheticASCWorld.bundleID)
            testing:
              sandbox_account: { email: sandbox.us@example.com }
            """.write(toFile: folder + "/project.yaml", atomically: true, encoding: .utf8)
    }

    @Test func theSameAccountGivesTheSameAnswers() async throws {
        let pull = try await SyntheticPull.run(key: try TestAPIKey(), subset: try requireSubset())
        let pulled = try pull.result.text
        let folder = try makeScratchFolder("asc-same")
        defer { removeScratch(folder) }
        try Self.writeProject(in: folder)
        let fromPull = try Self.diagnose(snapshot: pulled, in: folder, name: "pulled.json")
        let fromHand = try Self.diagnose(snapshot: Self.handWritten(), in: folder, name: "written.json")

        #expect(!fromPull.products.isEmpty)
        #expect(fromPull.products.map(\.productID) == fromHand.products.map(\.productID))
        #expect(fromPull.products.map(\.verdict) == fromHand.products.map(\.verdict))
        #expect(fromPull.checklist.map(\.status) == fromHand.checklist.map(\.status))
        // Findings agree but for where they point (each file has its own lines).
        func summary(_ diagnosis: Diagnosis) -> [String] {
            diagnosis.findings.map { "\($0.severity) \($0.rule) \($0.productID ?? "-")" }.sorted()
        }
        #expect(summary(fromPull) == summary(fromHand))
        #expect(fromPull.findings.contains { $0.rule == "asc-missing-metadata" })
    }

    /// A pull that reaches the snapshot's size limit keeps what fits, records the rest as not
    /// fetched, and stays readable: what it could not keep is unknown, never a wrong answer.
    /// Cut at each twelfth of the full snapshot's size, one request at a time and three.
    @Test("a pull cut short by the size limit", arguments: Array(1...11), [1, 3])
    func aPullCutShortBySizeIsUnknownNeverWrong(_ twelfths: Int, concurrency: Int) async throws {
        let key = try TestAPIKey()
        let subset = try requireSubset()
        let full = try await SyntheticPull.run(key: key, subset: subset).result
        let limit = full.text.utf8.count * twelfths / 12
        let cut = try await SyntheticPull.run(key: key, subset: subset, concurrency: concurrency, maximumBytes: limit).result
        #expect(full.stoppedBy == nil)
        #expect(cut.stoppedBy?.code == "IAPDOCTOR.SNAPSHOT_SIZE")
        // The estimate is an upper bound: the data written stays under the limit.
        let document = try JSONValue.parse(Data(cut.text.utf8))
        let data = JSONValue.object(["data": document["data"] ?? .null]).serialized(pretty: true)
        #expect(data.utf8.count <= limit, "\(data.utf8.count) bytes of data for a limit of \(limit)")

        // A product whose record did not fit is not named at all; the others keep their verdict
        // or become unknown.
        let (fromFull, fromCut) = try Self.expectUnknownNeverWrong(full: full.text, partial: cut.text)
        // No error the full snapshot does not also give, but for the requests it names as not kept.
        func errors(_ diagnosis: Diagnosis) -> Set<String> {
            Set(diagnosis.findings.filter { $0.severity == .error && $0.rule != "asc-request-failed" }.map { "\($0.rule) \($0.productID ?? "-")" })
        }
        #expect(errors(fromCut).isSubset(of: errors(fromFull)), "\(errors(fromCut).subtracting(errors(fromFull)))")
    }
}
