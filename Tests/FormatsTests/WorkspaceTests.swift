import Foundation
@testable import Formats
import Testing

/// A run's inputs belong to its workspace: what one run read never protects or blocks another's
/// output, and the confinement changes within a run without leaving it.
@Suite("Workspaces keep each run's inputs apart")
struct WorkspaceTests {
    let folder: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("iapdoctor-workspace-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    private func file(_ name: String, _ text: String = "input\n") throws -> String {
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func refusal(writing path: String, in workspace: Workspace?) -> String? {
        do throws(FileSystem.Problem) {
            try OutputFile.writeAtomically("report\n", to: path, in: workspace)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func aFileReadInARunIsAnInputOfThatRunOnly() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = try file("project.yaml")
        let first = Workspace(), second = Workspace()
        _ = try first.run { () throws(FileSystem.Problem) in try FileSystem.readBytes(input, maxBytes: 1 << 20) }
        #expect(first.isInput(input))
        #expect(!second.isInput(input))
        #expect(refusal(writing: input, in: first)?.contains("one of this run's inputs") == true)
        // Another run never read it: its output may go there (and replaces it atomically).
        #expect(refusal(writing: input, in: second) == nil)
        #expect(try String(contentsOfFile: input, encoding: .utf8) == "report\n")
    }

    @Test func anInputIsRecognisedThroughALinkOrAnotherSpelling() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = try file("Info.plist")
        let hardLink = folder + "/hard.plist"
        try FileManager.default.linkItem(atPath: input, toPath: hardLink)
        let workspace = Workspace()
        _ = try workspace.run { () throws(FileSystem.Problem) in try FileSystem.readBytes(input, maxBytes: 1 << 20) }
        #expect(workspace.isInput(hardLink))
        #expect(workspace.isInput(folder + "/./sub/../Info.plist"))
        #expect(refusal(writing: hardLink, in: workspace)?.contains("one of this run's inputs") == true)
        #expect(try String(contentsOfFile: input, encoding: .utf8) == "input\n")
    }

    @Test func aPathNamedButNeverReadIsStillAnInput() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let workspace = Workspace()
        let missing = folder + "/not-yet.yaml"
        workspace.run { Workspace.noteNamed(missing) }
        #expect(workspace.isInput(missing))
        #expect(refusal(writing: missing, in: workspace) != nil)
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test func readsOutsideARunAreRecordedNowhere() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = try file("catalog.xml")
        _ = try FileSystem.readBytes(input, maxBytes: 1 << 20)
        #expect(Workspace.current == nil)
        #expect(!Workspace().isInput(input))
    }

    @Test func confiningKeepsTheRunAndEndsWithItsScope() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let outside = try file("outside.txt")
        let inner = folder + "/project"
        try FileManager.default.createDirectory(atPath: inner, withIntermediateDirectories: true)
        let workspace = Workspace()
        workspace.run {
            Workspace.withConfinement(root: inner) {
                #expect(Workspace.current === workspace)
                #expect(Workspace.confinement?.root == inner)
                #expect(!Workspace.isConfined(outside))
                #expect(throws: FileSystem.Problem.self) { try FileSystem.readBytes(outside, maxBytes: 1 << 20) }
            }
            #expect(Workspace.confinement == nil)
            #expect(Workspace.isConfined(outside))
        }
        #expect(!workspace.isInput(outside), "a refused read is not an input")
    }

    @Test func workOnAnotherThreadReadsInTheScopeItWasGiven() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = try file("screenshot.png")
        let workspace = Workspace()
        let done = DispatchSemaphore(value: 0)
        workspace.run {
            let scope = Workspace.scope
            Thread {
                Workspace.within(scope) { _ = try? FileSystem.readBytes(input, maxBytes: 1 << 20) }
                done.signal()
            }.start()
            done.wait()
        }
        #expect(workspace.isInput(input))
    }
}
