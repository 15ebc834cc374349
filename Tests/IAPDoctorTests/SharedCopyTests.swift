import Foundation
import Testing
import TestSupport

/// The repository's copies of `../shared` files (`Tests/Fixtures/shared`, README there) must not
/// drift from the originals: byte for byte, but for the API subset, which is minified and compared
/// as JSON. Without `../shared` there is nothing to compare to, which fails only where it is
/// required (`IAPDOCTOR_REQUIRE_SHARED=1`).
@Suite("Carried copies of the shared folder")
struct SharedCopyTests {
    /// The carried files' paths relative to `Tests/Fixtures/shared`, stand-ins (`*__OWN.*`) apart.
    static let copies: [String] = {
        let files = FileManager.default.enumerator(atPath: SharedFolder.carried)?.allObjects as? [String] ?? []
        return files.filter { !$0.contains("__OWN.") && !isDirectory(SharedFolder.carried + "/" + $0) }.sorted()
    }()

    static let minified = "knowledge/asc/asc-openapi-iap-subset.json"

    static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    @Test(arguments: copies)
    func theCopyEqualsTheOriginal(relative: String) throws {
        guard SharedFolder.isAvailable else {
            #expect(!SharedFolder.isRequired, "\(SharedFolder.path) is not there to compare `\(relative)` with")
            return
        }
        let copy = try Data(contentsOf: URL(fileURLWithPath: SharedFolder.carried + "/" + relative))
        let original = try Data(contentsOf: URL(fileURLWithPath: SharedFolder.path + "/" + relative))
        if relative == Self.minified {
            let (a, b) = try (JSONSerialization.jsonObject(with: copy) as? NSDictionary, JSONSerialization.jsonObject(with: original) as? NSDictionary)
            #expect(a != nil && a == b, "\(relative) differs from \(SharedFolder.path)/\(relative): minify it again")
        } else {
            #expect(copy == original, "\(relative) differs from \(SharedFolder.path)/\(relative): copy it again")
        }
    }

    @Test func theCopiesAreThoseTheRepositoryMayCarry() throws {
        #expect(Self.copies.contains(Self.minified) && Self.copies.contains("spec/checklist.md"))
        // GPL (AppleParty), or of a license not confirmed: stand-ins of our own instead.
        for name in ["AppleParty", "Volodar", "colinhumber", "minsOne"] {
            #expect(!Self.copies.contains { $0.contains(name) }, "\(name)'s sample is not to be copied")
        }
        #expect(!Self.copies.contains { $0.hasPrefix("knowledge/asc/examples/") && !$0.contains("__SYNTHETIC") },
                "only the synthetic API examples are copied; Apple's and the forum's have stand-ins")
        let subset = try Data(contentsOf: URL(fileURLWithPath: SharedFolder.carried + "/" + Self.minified))
        let header = try #require((try JSONSerialization.jsonObject(with: subset) as? [String: Any])?["info"] as? [String: Any])
        #expect((header["x-extract-of"] as? [String: Any])?["repository"] as? String == "AvdLee/appstoreconnect-swift-sdk")
    }
}
