import Foundation
import IAPDoctor
import Testing
import TestSupport

/// The parse error `text` produces, or `nil` when it parses.
private func parseError(_ text: String) -> ASCIIPropertyList.ParseError? {
    parseError(bytes: Array(text.utf8))
}

private func parseError(bytes: [UInt8]) -> ASCIIPropertyList.ParseError? {
    do {
        _ = try ASCIIPropertyList(bytes: bytes)
        return nil
    } catch {
        return error
    }
}

private func parse(_ text: String) throws -> ASCIIPropertyList.Value {
    try ASCIIPropertyList(text: text).root
}

private func project(_ text: String, file: String = "Test.xcodeproj/project.pbxproj") throws -> XcodeProject {
    try XcodeProject.parse(text: text, file: file)
}

private let examplePath = repositoryFile("examples/runmonster-xcode/RunMonster.xcodeproj/project.pbxproj")

/// Everything about `project.pbxproj`, grouped so `--filter XcodeProjectTests` runs it all.
@Suite("project.pbxproj") struct XcodeProjectTests {}

extension XcodeProjectTests {
    @Suite("ASCII property lists: values, positions, escapes, comments")
    struct PropertyListParsing {
        @Test func dictionariesArraysAndStringsKeepOrderAndPositions() throws {
            let root = try parse("{\n\tb = 1;\n\ta = ( x, \"y z\", );\n\tc = { d = <0fbd 77AA>; };\n}\n")
            let entries = try #require(root.entries)
            #expect(entries.map(\.key.text) == ["b", "a", "c"])
            // Positions are spans: a container from its bracket to the one closing it.
            #expect(root.position == .span(1, 1, 5, 2))
            #expect(entries[1].key.position == .span(3, 2, 3, 3))
            let list = try #require(root["a"]?.array)
            #expect(list.compactMap(\.string) == ["x", "y z"])
            #expect(list[1].position == .span(3, 11, 3, 16))
            guard case .data(let hex, let position)? = root["c"]?["d"] else {
                Issue.record("expected data")
                return
            }
            #expect(hex == "0fbd77AA")
            #expect(position == .span(4, 12, 4, 23))
        }

        @Test func unquotedStringsTakeTheCharactersXcodeLeavesUnquoted() throws {
            let root = try parse("{ path = ../Foo/Bar-1.0+x:y$z_w; n = 2147483647; }")
            #expect(root["path"]?.string == "../Foo/Bar-1.0+x:y$z_w")
            #expect(root["n"]?.string == "2147483647")
        }

        @Test func escapesInQuotedStrings() throws {
            let root = try parse(#"{ a = "q\"b\\s\nt\tu\U00e9\012\101\UD83D\UDE00"; b = 'single "quoted"'; c = "\351\a\v"; d = "\UD83D"; }"#)
            #expect(root["a"]?.string == "q\"b\\s\nt\tu\u{E9}\nA\u{1F600}")
            #expect(root["b"]?.string == "single \"quoted\"")
            // Octal escapes above 127 are NeXTSTEP characters, as CoreFoundation reads them.
            #expect(root["c"]?.string == "\u{D8}\u{07}\u{0B}")
            #expect(root["d"]?.string == "\u{FFFD}")
        }

        @Test func commentsInOddPlaces() throws {
            let text = """
                // !$*UTF8*$!
                /* before the root */ { /* after { */ key /* between key and = */ = /* between = and value */ value /* before ; */ ; // to the end
                \tlist = ( /* first */ one /* before , */ , // after ,
                \t\ttwo, /* after the trailing , */ ) /* before ; */ ;
                \t"quoted key" /**/=/***/"v";
                \tpath = a/b//c;
                \tempty = ();
                \tnested = {};
                } /* after the root */ // end
                """
            let root = try parse(text)
            #expect(root.position == .span(2, 23, 9, 2))
            #expect(root.entry("key")?.key.position == .span(2, 39, 2, 42))
            #expect(root["key"]?.string == "value")
            #expect(root["list"]?.array?.compactMap(\.string) == ["one", "two"])
            #expect(root["list"]?.array?.last?.position == .span(4, 3, 4, 6))
            #expect(root["quoted key"]?.string == "v")
            // `/` is an unquoted-string character, so `//` inside a word is not a comment (as in CoreFoundation).
            #expect(root["path"]?.string == "a/b//c")
            #expect(root["empty"]?.array?.isEmpty == true)
            #expect(root["nested"]?.entries?.isEmpty == true)
        }

        @Test func columnsCountCharactersNotBytes() throws {
            let root = try parse("{ \"\u{E9}t\u{E9}\" = \"\u{1F600}\"; k = v; }")
            #expect(root.entry("k")?.key.position == .span(1, 16, 1, 17))
            #expect(parseError("{ \"\u{E9}\" = \"x")?.position == .init(line: 1, column: 9))
            // Only ASCII letters may go unquoted.
            #expect(parseError("{ \u{E9} = x; }")?.message == "expected a key or `}`, found `\u{E9}` (U+00E9)")
        }

        @Test func aByteOrderMarkAndARepeatedKey() throws {
            let root = try ASCIIPropertyList(bytes: [0xEF, 0xBB, 0xBF] + Array("{ a = 1; a = 2; }".utf8)).root
            #expect(root.position == .span(1, 1, 1, 18))
            #expect(root["a"]?.string == "2")
            #expect(root.entries?.count == 2)
        }

        @Test func nestingUpToTheLimitParses() throws {
            let depth = ASCIIPropertyList.maxDepth
            let root = try parse(String(repeating: "(", count: depth) + String(repeating: ")", count: depth))
            #expect(root.array?.count == 1)
        }
    }

    @Suite("ASCII property lists: every malformed kind, positioned")
    struct PropertyListErrors {
        @Test func unterminatedString() throws {
            let error = try #require(parseError("{\n\ta = \"abc;\n}\n"))
            #expect(error.kind == .unterminatedString)
            #expect(error.position == .init(line: 2, column: 6))
            #expect(error.message.contains("expected a closing `\"`"))
        }

        @Test func unterminatedComment() throws {
            let error = try #require(parseError("{\n  a = b; /* never closed\n}\n"))
            #expect(error.kind == .unterminatedComment)
            #expect(error.position == .init(line: 2, column: 10))
            #expect(error.message.contains("expected `*/`"))
        }

        @Test func missingSemicolonPointsJustAfterTheValue() throws {
            let error = try #require(parseError("{\n  a = b\n  c = d;\n}\n"))
            #expect(error.kind == .missingSemicolon)
            #expect(error.position == .init(line: 2, column: 8))
            #expect(error.message == "expected `;` after the value of `a`, found `c`")
        }

        @Test func missingEquals() throws {
            let error = try #require(parseError("{ a b; }"))
            #expect(error.kind == .missingEquals)
            #expect(error.position == .init(line: 1, column: 4))
            #expect(error.message == "expected `=` after the key `a`, found `b`")
        }

        @Test func missingComma() throws {
            let error = try #require(parseError("( a b )"))
            #expect(error.kind == .missingComma)
            #expect(error.position == .init(line: 1, column: 4))
            #expect(error.message == "expected `,` or `)` after a list item, found `b`")
        }

        @Test func unexpectedEnd() throws {
            let inList = try #require(parseError("{\n  a = (b,\n"))
            #expect(inList.kind == .unexpectedEnd)
            #expect(inList.position == .init(line: 3, column: 1))
            #expect(inList.message == "unexpected end of file: expected a value or `)` to close the list opened at 2:7")

            let inDictionary = try #require(parseError("{ a = b;"))
            #expect(inDictionary.position == .init(line: 1, column: 9))
            #expect(inDictionary.message == "unexpected end of file: expected a key or `}` to close the dictionary opened at 1:1")

            let afterEquals = try #require(parseError("{ a = "))
            #expect(afterEquals.message == "unexpected end of file: expected a value for the key `a`")

            let empty = try #require(parseError(""))
            #expect(empty.kind == .unexpectedEnd)
            #expect(empty.position == .init(line: 1, column: 1))
            #expect(empty.message == "unexpected end of file: expected a value")

            let onlyTheHeader = try #require(parseError("// !$*UTF8*$!\n"))
            #expect(onlyTheHeader.position == .init(line: 2, column: 1))
        }

        @Test func unexpectedCharacter() throws {
            let error = try #require(parseError("{ a = @; }"))
            #expect(error.kind == .unexpectedCharacter)
            #expect(error.position == .init(line: 1, column: 7))
            #expect(error.message == "expected a value for the key `a`, found `@`")

            let key = try #require(parseError("{ ; }"))
            #expect(key.message == "expected a key or `}`, found `;`")
            #expect(key.position == .init(line: 1, column: 3))

            let trailing = try #require(parseError("{ } x"))
            #expect(trailing.kind == .trailingContent)
            #expect(trailing.position == .init(line: 1, column: 5))
        }

        @Test func deepNestingStopsAtTheLimitWithoutRecursing() throws {
            let lists = try #require(parseError(String(repeating: "(", count: 100_000)))
            #expect(lists.kind == .tooDeep)
            #expect(lists.position == .init(line: 1, column: ASCIIPropertyList.maxDepth + 1))

            let dictionaries = try #require(parseError(String(repeating: "{a=", count: 100_000)))
            #expect(dictionaries.kind == .tooDeep)
            #expect(dictionaries.position == .init(line: 1, column: 3 * ASCIIPropertyList.maxDepth + 1))
        }

        @Test func binaryGarbage() throws {
            let invalidUTF8 = try #require(parseError(bytes: [0x7B, 0x0A, 0x20, 0x20, 0xFF, 0xFE, 0x00, 0x01]))
            #expect(invalidUTF8.kind == .invalidUTF8)
            #expect(invalidUTF8.position == .init(line: 2, column: 3))
            #expect(invalidUTF8.message.contains("0xFF"))

            let control = try #require(parseError(bytes: [0x7B, 0x0A, 0x01, 0x02]))
            #expect(control.kind == .unexpectedCharacter)
            #expect(control.position == .init(line: 2, column: 1))
            #expect(control.message == "expected a key or `}`, found the character U+0001")

            let binaryPlist = try #require(parseError(bytes: Array("bplist00".utf8) + [0xD1, 0x01, 0x02, 0x51, 0x61]))
            #expect(binaryPlist.kind == .binaryPropertyList)
            #expect(binaryPlist.position == .init(line: 1, column: 1))

            let xmlPlist = try #require(parseError("\n<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict/></plist>\n"))
            #expect(xmlPlist.kind == .xmlPropertyList)
            #expect(xmlPlist.position == .init(line: 2, column: 1))
        }

        @Test func mergeConflictMarkers() throws {
            let atKey = try #require(parseError("{\n<<<<<<< HEAD\n\ta = b;\n=======\n\ta = c;\n>>>>>>> feature\n}\n"))
            #expect(atKey.kind == .mergeConflict)
            #expect(atKey.position == .init(line: 2, column: 1))

            let afterValue = try #require(parseError("{\n\ta = b;\n=======\n}\n"))
            #expect(afterValue.kind == .mergeConflict)
            #expect(afterValue.position == .init(line: 3, column: 1))
        }

        @Test func badEscapesAndData() throws {
            let escape = try #require(parseError(#"{ a = "\Uzz"; }"#))
            #expect(escape.kind == .invalidEscape)
            #expect(escape.position == .init(line: 1, column: 8))

            let unterminatedData = try #require(parseError("{ a = <0fbd"))
            #expect(unterminatedData.kind == .unterminatedData)
            #expect(unterminatedData.position == .init(line: 1, column: 7))

            let invalidData = try #require(parseError("{ a = <0fzz>; }"))
            #expect(invalidData.kind == .invalidData)
            #expect(invalidData.position == .init(line: 1, column: 10))
        }

        @Test func filesOver64MiBAreRefused() throws {
            let error = try #require(parseError(bytes: [UInt8](repeating: 0x20, count: ASCIIPropertyList.maxBytes + 1)))
            #expect(error.kind == .tooLarge)
        }

        @Test func damagedCopiesOfARealProjectNeverCrash() throws {
            let bytes = Array(runMonsterPBXProj.utf8)
            // Every truncation point in steps, then single-byte damage with characters that matter.
            for length in stride(from: 0, to: bytes.count, by: 37) {
                _ = parseError(bytes: Array(bytes[..<length]))
            }
            let damage: [UInt8] = [0x22, 0x7B, 0x7D, 0x28, 0x29, 0x3B, 0x3D, 0x2F, 0x2A, 0x5C, 0x3C, 0x00, 0xFF]
            for (step, offset) in stride(from: 0, to: bytes.count, by: 53).enumerated() {
                var copy = bytes
                copy[offset] = damage[step % damage.count]
                _ = parseError(bytes: copy)
            }
            #expect(parseError(bytes: bytes) == nil)
        }
    }

    @Suite("Xcode projects: the model iapdoctor needs")
    struct ProjectModel {
        @Test func theExampleOnDiskIsTheFixture() {
            #expect(readText(examplePath) == runMonsterPBXProj)
        }

        @Test func targetsConfigurationsAndSettings() throws {
            let project = try project(runMonsterPBXProj, file: "RunMonster.xcodeproj/project.pbxproj")
            #expect(project.name == "RunMonster")
            #expect(project.objectVersion?.value == "60")
            #expect(project.targets.map(\.name) == ["RunMonster", "RunMonsterTests"])
            #expect(project.configurationNames == ["Debug", "Release"])
            #expect(project.defaultConfigurationName == "Release")

            let app = try #require(project.target(named: "RunMonster"))
            #expect(app.id == "A1B2C3D4E5F6A7B8C9D0E1F2")
            #expect(app.productType?.value == "com.apple.product-type.application")
            #expect(app.isApplication)
            #expect(app.configurationNames == ["Debug", "Release"])
            let tests = try #require(project.target(named: "RunMonsterTests"))
            #expect(tests.productType?.value == "com.apple.product-type.bundle.unit-test")
            #expect(!tests.isApplication)

            let debug = project.buildSettings(target: app, configuration: "Debug")
            let file = "RunMonster.xcodeproj/project.pbxproj"
            #expect(debug["PRODUCT_BUNDLE_IDENTIFIER"] == Fact("com.runmonster.runmonsterfree.dev", at: SourceLocation(file: file, line: 313, column: 33, endLine: 313, endColumn: 66), source: .pbxproj))
            #expect(debug["DEVELOPMENT_TEAM"]?.value == "7DW89RZKLY")
            #expect(debug["DEVELOPMENT_TEAM"]?.location.line == 306)
            #expect(debug["CODE_SIGN_STYLE"]?.value == "Manual")
            // A quoted value's span includes its quotes.
            #expect(debug["PROVISIONING_PROFILE_SPECIFIER"] == Fact("RunMonster Development", at: SourceLocation(file: file, line: 315, column: 38, endLine: 315, endColumn: 62), source: .pbxproj))
            #expect(debug["CODE_SIGN_ENTITLEMENTS"]?.value == "RunMonster/RunMonster.entitlements")
            #expect(debug["INFOPLIST_FILE"]?.value == "RunMonster/Info.plist")
            // Inherited from the project level, positioned there.
            #expect(debug["IPHONEOS_DEPLOYMENT_TARGET"] == Fact("14.0", at: SourceLocation(file: file, line: 259, column: 34, endLine: 259, endColumn: 38), source: .pbxproj))
            #expect(debug["SDKROOT"]?.value == "iphoneos")
            // `$(inherited)` takes the project level's value (none here); the conditional variant applies to device builds.
            #expect(debug["LD_RUNPATH_SEARCH_PATHS"]?.value == "@executable_path/Frameworks")
            #expect(debug["SWIFT_ACTIVE_COMPILATION_CONDITIONS"]?.value == "DEBUG")
            #expect(debug["CODE_SIGN_IDENTITY"]?.value == "iPhone Developer")
            #expect(project.buildSettings(target: app, configuration: "Debug", sdk: "iphonesimulator")["CODE_SIGN_IDENTITY"] == nil)

            let release = project.buildSettings(target: app, configuration: "Release")
            #expect(release["PRODUCT_BUNDLE_IDENTIFIER"]?.value == "com.runmonster.runmonsterfree")
            #expect(release["PRODUCT_BUNDLE_IDENTIFIER"]?.location.line == 337)
            #expect(release["DEBUG_INFORMATION_FORMAT"]?.value == "dwarf-with-dsym")
            // A configuration the target lacks: the default one, as xcodebuild builds.
            #expect(project.buildSettings(target: app, configuration: "Staging")["PRODUCT_BUNDLE_IDENTIFIER"]?.value == "com.runmonster.runmonsterfree")
        }

        @Test func capabilityLinkageAndSources() throws {
            let project = try project(runMonsterPBXProj)
            let app = try #require(project.target(named: "RunMonster"))
            #expect(app.hasInAppPurchaseCapability == Fact(true, at: SourceLocation(file: project.file, line: 164, column: 19, endLine: 164, endColumn: 20), source: .pbxproj))
            #expect(app.developmentTeamAttribute?.value == "7DW89RZKLY")
            #expect(app.linksStoreKit)
            #expect(app.storeKitReferenceLocation?.line == 35)
            #expect(app.sourceFiles.map(\.value) == ["RunMonster/AppDelegate.swift", "RunMonster/Store.swift"])
            #expect(app.sourceFiles.first?.location.line == 28)

            let tests = try #require(project.target(named: "RunMonsterTests"))
            #expect(tests.hasInAppPurchaseCapability == nil)
            #expect(!tests.linksStoreKit)
            #expect(tests.sourceFiles.map(\.value) == ["RunMonsterTests/StoreTests.swift"])
        }

        @Test func capabilityTurnedOffIsAFalseFact() throws {
            let text = runMonsterPBXProj.replacingOccurrences(of: "\t\t\t\t\t\t\t\tenabled = 1;", with: "\t\t\t\t\t\t\t\tenabled = 0;")
            let app = try #require(try project(text).target(named: "RunMonster"))
            #expect(app.hasInAppPurchaseCapability?.value == false)
        }

        @Test func bundleIdentifiersExpand() throws {
            let project = try project(runMonsterPBXProj)
            let tests = try #require(project.target(named: "RunMonsterTests"))
            // `com.runmonster.$(PRODUCT_NAME:rfc1034identifier)` with PRODUCT_NAME = $(TARGET_NAME).
            #expect(project.bundleIdentifier(target: tests, configuration: "Debug")?.value == "com.runmonster.RunMonsterTests")
            let app = try #require(project.target(named: "RunMonster"))
            #expect(project.expandedBuildSetting("PRODUCT_NAME", target: app, configuration: "Debug")?.value == "RunMonster")
            let settings = project.expansionSettings(target: app, configuration: "Release")
            #expect(settings["TARGET_NAME"] == "RunMonster")
            #expect(settings["CONFIGURATION"] == "Release")
        }

        @Test func selectingTheAppTarget() throws {
            let project = try project(runMonsterPBXProj)
            func choose(_ bundleID: String?) -> (target: XcodeProject.Target, reason: String)? {
                guard case .chosen(let target, let reason) = TargetChoice.choose(in: project, named: nil, scheme: nil, bundleID: bundleID, configuration: "Debug")
                else { return nil }
                return (target, reason)
            }
            let byDebugID = try #require(choose("com.runmonster.runmonsterfree.dev"))
            #expect(byDebugID.target.name == "RunMonster")
            #expect(byDebugID.reason.contains("Debug"))
            // The Release bundle ID while diagnosing Debug: found through the other configuration, and said so.
            let byReleaseID = try #require(choose("com.runmonster.runmonsterfree"))
            #expect(byReleaseID.target.name == "RunMonster")
            #expect(byReleaseID.reason.contains("Release"))
            #expect(byReleaseID.reason.contains("com.runmonster.runmonsterfree.dev"))
            // No bundle ID, or one no target has: the only application target (the test bundle is not one).
            #expect(choose(nil)?.target.name == "RunMonster")
            let unknown = try #require(choose("com.runmonster.RunMonsterTests"))
            #expect(unknown.target.name == "RunMonster")
            #expect(unknown.reason.contains("only application target"))
        }

        @Test func selectingAmongSeveralAppTargets() throws {
            let project = try project(twoAppsPBXProj)
            #expect(project.applicationTargets.map(\.name) == ["Free", "Pro"])
            func chosen(_ bundleID: String?) -> String? {
                guard case .chosen(let target, _) = TargetChoice.choose(in: project, named: nil, scheme: nil, bundleID: bundleID, configuration: "Debug")
                else { return nil }
                return target.name
            }
            #expect(chosen("com.example.pro") == "Pro")
            #expect(chosen("com.example.free") == "Free")
            #expect(chosen(nil) == nil)
            #expect(chosen("com.example.other") == nil)
            // Both are offered, each with its bundle ID.
            guard case .ambiguous(let candidates, _) = TargetChoice.choose(in: project, named: nil, scheme: nil, bundleID: nil, configuration: "Debug")
            else { Issue.record("two app targets are a question"); return }
            #expect(candidates.count == 2 && candidates.allSatisfy { $0.contains("bundle ID `com.example.") })
        }

        @Test func loadsTheFolderOrTheFile() throws {
            let fromFolder = try XcodeProject.load(path: repositoryFile("examples/runmonster-xcode/RunMonster.xcodeproj"))
            let fromFile = try XcodeProject.load(path: examplePath)
            #expect(fromFolder.file == examplePath)
            #expect(fromFile.file == examplePath)
            #expect(fromFolder.targets.map(\.name) == fromFile.targets.map(\.name))
            #expect(fromFolder.projectDirectory == repositoryFile("examples/runmonster-xcode"))
            let app = try #require(fromFolder.target(named: "RunMonster"))
            #expect(app.sourceFiles.map(\.value) == ["RunMonster/AppDelegate.swift", "RunMonster/Store.swift"])
        }

        @Test func unreadableAndMalformedProjectsBecomeFindings() throws {
            let folder = NSTemporaryDirectory() + "iapdoctor-pbxproj-\(UUID().uuidString)"
            let projectFolder = folder + "/Broken.xcodeproj"
            try FileManager.default.createDirectory(atPath: projectFolder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }

            func problem(_ path: String) -> Finding? {
                do {
                    _ = try XcodeProject.load(path: path)
                    return nil
                } catch {
                    return error.finding
                }
            }

            let missing = try #require(problem(folder + "/Nothing.xcodeproj"))
            #expect(missing.rule == "input-unreadable")
            #expect(missing.severity == .error)
            #expect(missing.checklist == nil)
            #expect(missing.help != nil)

            let empty = try #require(problem(projectFolder))
            #expect(empty.rule == "input-unreadable")
            #expect(empty.message.contains("has no `project.pbxproj`"))

            let workspace = try #require(problem(folder + "/App.xcworkspace"))
            #expect(workspace.rule == "input-unreadable")
            #expect(workspace.message.contains("workspace"))

            let file = projectFolder + "/project.pbxproj"
            try "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tobjects = {\n\t\tAB = {isa = PBXProject}\n\t};\n}\n".write(toFile: file, atomically: true, encoding: .utf8)
            let malformed = try #require(problem(projectFolder))
            #expect(malformed.rule == "input-malformed")
            #expect(malformed.location == SourceLocation(file: file, line: 5, column: 25))
            #expect(malformed.message.contains("expected `;` after the value of `isa`, found `}`"))
            #expect(malformed.help != nil)

            try "{ archiveVersion = 1; }".write(toFile: file, atomically: true, encoding: .utf8)
            let notAProject = try #require(problem(file))
            #expect(notAProject.rule == "input-malformed")
            #expect(notAProject.message.contains("no `objects`"))
            #expect(notAProject.location == SourceLocation(file: file, line: 1, column: 1, endLine: 1, endColumn: 24))

            try "{ objects = { P = { isa = PBXGroup; }; }; rootObject = P; }".write(toFile: file, atomically: true, encoding: .utf8)
            let wrongRoot = try #require(problem(file))
            #expect(wrongRoot.message.contains("expected a `PBXProject`"))
            #expect(wrongRoot.location == SourceLocation(file: file, line: 1, column: 56, endLine: 1, endColumn: 57))
        }

        @Test func aLargeProjectParses() throws {
            // ~2 MB in Xcode's layout: 5,000 source files in one target.
            var text = "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tobjectVersion = 56;\n\tobjects = {\n"
            func id(_ number: Int, _ kind: Int) -> String {
                let digits = String(number, radix: 16, uppercase: true)
                return String(kind) + String(repeating: "0", count: 23 - digits.count) + digits
            }
            let count = 5_000
            for n in 0..<count {
                text += "\t\t\(id(n, 1)) /* File\(n).swift in Sources */ = {isa = PBXBuildFile; fileRef = \(id(n, 2)) /* File\(n).swift */; };\n"
                text += "\t\t\(id(n, 2)) /* File\(n).swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = File\(n).swift; sourceTree = \"<group>\"; };\n"
            }
            let files = (0..<count).map { "\t\t\t\t\(id($0, 2)) /* File\($0).swift */,\n" }.joined()
            let buildFiles = (0..<count).map { "\t\t\t\t\(id($0, 1)) /* File\($0).swift in Sources */,\n" }.joined()
            text += """
                \t\t\(id(0, 3)) = {isa = PBXGroup; children = (\n\(files)\t\t\t); path = App; sourceTree = "<group>"; };
                \t\t\(id(0, 4)) = {isa = PBXGroup; children = (\(id(0, 3))); sourceTree = "<group>"; };
                \t\t\(id(0, 5)) = {isa = PBXSourcesBuildPhase; files = (\n\(buildFiles)\t\t\t); };
                \t\t\(id(0, 6)) = {isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application"; buildPhases = (\(id(0, 5))); buildConfigurationList = \(id(0, 7)); };
                \t\t\(id(0, 7)) = {isa = XCConfigurationList; buildConfigurations = (\(id(0, 8))); defaultConfigurationName = Debug; };
                \t\t\(id(0, 8)) = {isa = XCBuildConfiguration; buildSettings = {PRODUCT_BUNDLE_IDENTIFIER = com.example.app; }; name = Debug; };
                \t\t\(id(0, 9)) = {isa = PBXProject; buildConfigurationList = \(id(0, 7)); mainGroup = \(id(0, 4)); targets = (\(id(0, 6))); };
                \t};
                \trootObject = \(id(0, 9));
                }

                """
            #expect(text.utf8.count > 1_500_000)
            let project = try project(text)
            let app = try #require(project.targets.first)
            #expect(app.sourceFiles.count == count)
            #expect(app.sourceFiles.last?.value == "App/File\(count - 1).swift")
            guard case .chosen(let chosen, _) = TargetChoice.choose(in: project, named: nil, scheme: nil, bundleID: "com.example.app", configuration: "Debug")
            else { Issue.record("the only app target is chosen"); return }
            #expect(chosen.name == "App")
        }
    }

    @Suite("Build setting expansion")
    struct BuildSettingExpansion {
        let settings = [
            "TARGET_NAME": "Run Monster_Free!",
            "PRODUCT_NAME": "$(TARGET_NAME)",
            "ORG": "com.runmonster",
            "SUFFIX": ".dev",
            "KIND_pro": "premium",
            "KIND": "pro",
            "LOOP": "$(LOOP)x",
            "DOUBLE0": "$(DOUBLE1)$(DOUBLE1)",
        ]

        func expand(_ text: String, _ extra: [String: String] = [:]) -> String {
            XcodeProject.expandVariables(text, with: settings.merging(extra) { $1 })
        }

        @Test func referenceSpellings() {
            #expect(expand("$(ORG).app$(SUFFIX)") == "com.runmonster.app.dev")
            #expect(expand("${ORG}.app${SUFFIX}") == "com.runmonster.app.dev")
            #expect(expand("$ORG.app") == "com.runmonster.app")
            #expect(expand("$(PRODUCT_NAME)") == "Run Monster_Free!")
            #expect(expand("$(KIND_$(KIND))") == "premium")
        }

        @Test func modifiers() {
            #expect(expand("$(ORG).$(PRODUCT_NAME:rfc1034identifier)") == "com.runmonster.Run-Monster-Free-")
            #expect(expand("$(PRODUCT_NAME:lower)") == "run monster_free!")
            #expect(expand("$(PRODUCT_NAME:upper)") == "RUN MONSTER_FREE!")
            #expect(expand("$(NAME:identifier)", ["NAME": "9 lives-app"]) == "_9_lives_app")
            #expect(expand("$(NAME:c99extidentifier)", ["NAME": "My App"]) == "My_App")
            #expect(expand("$(PRODUCT_NAME:lower:rfc1034identifier)") == "run-monster-free-")
            #expect(expand("$(PATH:file) $(PATH:base)", ["PATH": "RunMonster/Info.plist"]) == "Info.plist Info")
            #expect(expand("$(MISSING:default=fallback)") == "fallback")
            // Non-ASCII values are mapped per character (ASCII ones per byte, the fast path).
            #expect(expand("$(NAME:rfc1034identifier)", ["NAME": "Café App"]) == "Caf--App")
            #expect(expand("$(NAME:rfc1034identifier)", ["NAME": "Cafe\u{301} App"]) == "Caf--App")
            #expect(expand("$(NAME:identifier)", ["NAME": "Ünïcode\r\nname"]) == "_n_code_name")
        }

        @Test func unknownReferencesStayAsWritten() {
            #expect(expand("$(MISSING).$(ORG)") == "$(MISSING).com.runmonster")
            #expect(expand("${MISSING:rfc1034identifier}") == "${MISSING:rfc1034identifier}")
            #expect(expand("price: $5 and $") == "price: $5 and $")
            #expect(expand("$(ORG") == "$(ORG")
        }

        @Test func selfReferenceAndBlowUpAreBounded() {
            #expect(expand("$(LOOP)").hasSuffix("x"))
            var chain: [String: String] = [:]
            for level in 0..<40 { chain["DOUBLE\(level)"] = "$(DOUBLE\(level + 1))$(DOUBLE\(level + 1))" }
            chain["DOUBLE40"] = String(repeating: "x", count: 1000)
            let result = XcodeProject.expandVariables("$(DOUBLE0)", with: chain)
            #expect(result.utf8.count < 256 << 10)
        }

        @Test func theProjectsResolverExpandsTheSameWay() throws {
            let project = try XcodeProject.parse(text: runMonsterPBXProj, file: "project.pbxproj")
            let app = try #require(project.target(named: "RunMonster"))
            let settings = project.settings(target: app, configuration: "Debug")
            #expect(settings.expand("$(PRODUCT_NAME:rfc1034identifier).$(CONFIGURATION:lower)") == "RunMonster.debug")
            #expect(XcodeProject.expandVariables("$(ORG)", with: ["ORG": "com.runmonster"]) == "com.runmonster")
        }
    }
}
