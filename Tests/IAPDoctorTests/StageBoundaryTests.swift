import Foundation
import Testing
import TestSupport

/// The stages after the loaders work on facts: the engine, the rules and the reporters open no
/// file (Package.swift keeps their arrows; this keeps their hands off the disk).
@Suite("Stage boundaries")
struct StageBoundaryTests {
    /// What reading or looking at a file looks like in Swift source.
    static let fileAccess = [
        "FileSystem.", "FileManager.default.contents", "FileManager.default.fileExists", "FileManager.default.enumerator",
        "fopen(", "opendir(", "contentsOfFile", "Data(contentsOf", "String(contentsOf", "readBytes(", "lstat(", " stat(",
        "Workspace.",
    ]

    static func violations(in folder: String) -> [String] {
        let root = repositoryFile(folder)
        var found: [String] = []
        for case let file as String in FileManager.default.enumerator(atPath: root)! where file.hasSuffix(".swift") {
            for (number, line) in readText(root + "/" + file).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//") else { continue }
                if let pattern = fileAccess.first(where: { line.contains($0) }) {
                    found.append("\(folder)/\(file):\(number + 1): \(pattern)")
                }
            }
        }
        return found
    }

    @Test(arguments: ["Sources/Rules", "Sources/RuleEngine", "Sources/Reporters"])
    func opensNoFile(_ folder: String) {
        #expect(FileManager.default.fileExists(atPath: repositoryFile(folder)))
        #expect(Self.violations(in: folder) == [])
    }

    /// The check above sees a read where one is written.
    @Test func theCheckSeesARead() throws {
        let folder = "Sources/Loaders"
        #expect(Self.violations(in: folder).contains { $0.hasSuffix("FileSystem.") })
    }
}
