import Foundation
import Testing
import TestSupport

/// The words `docs/development.md` retired stay out of what users read: the messages and helps in
/// the sources, rules.yaml, README and the docs.
@Suite("Glossary")
struct GlossaryTests {
    /// Retired phrases, with the glossary's word that replaced them.
    static let retired: [(phrase: String, instead: String)] = [
        ("Swift or Objective-C file", "source file"),
        ("rule catalog", "rule set"),
        ("catalog of rules", "rule set"),
        ("rules catalog", "rule set"),
    ]

    static func texts() throws -> [(path: String, text: String)] {
        var files = ["rules.yaml", "README.md"].map { ($0, readText(repositoryFile($0))) }
        for folder in ["Sources", "docs"] {
            let root = repositoryFile(folder)
            for case let file as String in FileManager.default.enumerator(atPath: root)!
            where (file.hasSuffix(".swift") || file.hasSuffix(".md")) && !file.contains("Generated/") {
                files.append(("\(folder)/\(file)", readText(root + "/" + file)))
            }
        }
        return files
    }

    @Test func noRetiredWordIsShown() throws {
        let texts = try Self.texts()
        #expect(texts.count > 100)
        var found: [String] = []
        for (path, text) in texts where path != "docs/development.md" {
            for (phrase, instead) in Self.retired where text.range(of: phrase, options: .caseInsensitive) != nil {
                found.append("\(path): `\(phrase)` (say \(instead))")
            }
        }
        #expect(found == [])
    }

    /// Each replacement is a row of the glossary's table.
    @Test func everyReplacementIsInTheGlossary() {
        let glossary = readText(repositoryFile("docs/development.md"))
        #expect(glossary.contains("## Words"))
        for word in Set(Self.retired.map(\.instead)) { #expect(glossary.contains("\n| \(word) |"), "\(word)") }
    }
}
