import Foundation
import Testing
import TestSupport

/// Facts the committed files decide, answered as Xcode's Archive builds them: each with its source
/// line, and a note where something local could change it.
@Suite("Facts as Archive builds them")
struct ArchiveFactsTests {
    /// Before Xcode 7 the bundle ID lived only in Info.plist, built from the product name.
    @Test func aPreXcode7InfoPlistBundleID() throws {
        let fixture = ProjectFixture(projectName: "Bird House")
        let app = ["INFOPLIST_FILE": "App/Info.plist", "PRODUCT_NAME": "$(TARGET_NAME)", "IPHONEOS_DEPLOYMENT_TARGET": "9.0", "DEVELOPMENT_TEAM": "AB12CD34EF", "SDKROOT": "iphoneos"]
        fixture.targets = [.init(name: "Bird House", settings: ["Debug": app, "Release": app])]
        fixture.writeProject()
        fixture.write("App/Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>org.birdhouse.$(PRODUCT_NAME:rfc1034identifier)</string></dict></plist>
            """)
        fixture.write("App/Store.m", "#import <StoreKit/StoreKit.h>\nvoid load(void) { [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithObject:@\"org.birdhouse.Bird-House.seeds\"]]; }\n")
        let (descriptor, check) = try ProjectShapeTests.initAndCheck(fixture)
        #expect(descriptor.contains("bundle_id: org.birdhouse.Bird-House"), "\(descriptor)")
        #expect(!check.output.contains("Which bundle ID"), "\(check.output)")
        #expect(check.output.contains("(org.birdhouse.Bird-House)"), "\(check.output)")
    }

    /// `$(SRCROOT)/App/Info.plist` names the same file however the folder is given to `init`.
    @Test func pathsUnderSRCROOTDoNotDependOnHowTheFolderIsNamed() throws {
        let fixture = ProjectShapeTests.birdhouse()
        for index in fixture.targets.indices where fixture.targets[index].name == "Birdhouse" {
            for configuration in ["Debug", "Release"] { fixture.targets[index].settings[configuration]?["INFOPLIST_FILE"] = "$(SRCROOT)/App/Info.plist" }
        }
        fixture.writeProject()
        let parent = (fixture.folder as NSString).deletingLastPathComponent
        let name = (fixture.folder as NSString).lastPathComponent
        let elsewhere = fixture.folder + "-descriptor"
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }
        for spelling in [name, "./" + name, fixture.folder] {
            let written = try runReport(["init", spelling, "-o", elsewhere + "/project.yaml", "--force"], in: parent)
            #expect(written.output.contains("Info.plist: App/Info.plist"), "\(spelling): \(written.output)")
        }
    }

    /// Xcode 16 attaches an `.xcconfig` inside a synchronized folder by the folder and a path in it.
    @Test func anXcconfigInASynchronizedFolder() throws {
        let fixture = ProjectShapeTests.birdhouse()
        fixture.synchronizedFolders = ["Config"]
        fixture.writeProject()
        let (descriptor, check) = try ProjectShapeTests.initAndCheck(fixture)
        #expect(readText(fixture.folder + "/Birdhouse.xcodeproj/project.pbxproj").contains("baseConfigurationReferenceAnchor"))
        #expect(descriptor.contains("bundle_id: com.birdhouseapps.birdhouse"), "\(descriptor)")
        #expect(descriptor.contains("team_id: AB12CD34EF"), "\(descriptor)")
        #expect(check.output.contains("(com.birdhouseapps.birdhouse)"), "\(check.output)")
    }

    /// A git-ignored developer file included with `#include?` may override the committed
    /// organization identifier on one Mac; CI and Archive on a clean checkout build the committed one.
    @Test func anOptionalDeveloperFileLeavesTheCommittedValue() throws {
        let fixture = ProjectShapeTests.birdhouse()
        fixture.write("Config/Shared.xcconfig", "ORGANIZATION_IDENTIFIER = com.birdhouseapps\n#include? \"DeveloperSettings.xcconfig\"\nBUNDLE_PREFIX = $(ORGANIZATION_IDENTIFIER)\nDEVELOPMENT_TEAM = AB12CD34EF\n")
        fixture.write("Config/DeveloperSettings.xcconfig.template", "ORGANIZATION_IDENTIFIER = com.example\nDEVELOPMENT_TEAM = YOURTEAMID\n")
        fixture.write(".gitignore", "Config/DeveloperSettings.xcconfig\n")
        let (descriptor, check) = try ProjectShapeTests.initAndCheck(fixture)
        #expect(descriptor.contains("bundle_id: com.birdhouseapps.birdhouse"), "\(descriptor)")
        #expect(descriptor.contains("team_id: AB12CD34EF"), "\(descriptor)")
        #expect(!check.output.contains("Which bundle ID"), "\(check.output)")
        #expect(check.output.contains("(com.birdhouseapps.birdhouse)"), "\(check.output)")
        #expect(descriptor.contains("bundle_id: com.birdhouseapps.birdhouse   # `PRODUCT_BUNDLE_IDENTIFIER` of Release, the build that ships; committed value: a local `Config/DeveloperSettings.xcconfig` or `Config/Local.xcconfig` (`#include?`, not in the folder) may override it on a developer's Mac"), "\(descriptor)")
        // The team is set after the developer file's include: only the later `Local.xcconfig` can change it.
        #expect(descriptor.contains("team_id: AB12CD34EF   # `DEVELOPMENT_TEAM` of Release; committed value: a local `Config/Local.xcconfig` (`#include?`"), "\(descriptor)")
    }
}
