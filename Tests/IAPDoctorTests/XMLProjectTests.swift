import Foundation
import IAPDoctor
import Testing
import TestSupport

/// A `project.pbxproj` written as an XML property list (some tools write it so, Xcode reads it)
/// holds the same objects as the OpenStep text: read it the same way.
@Suite("XML projects")
struct XMLProjectTests {
    static let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict>
          <key>archiveVersion</key><string>1</string>
          <key>objectVersion</key><string>46</string>
          <key>objects</key><dict>
            <key>P1</key><dict><key>isa</key><string>PBXProject</string><key>buildConfigurationList</key><string>CLP</string>
              <key>mainGroup</key><string>G1</string><key>targets</key><array><string>T1</string></array>
              <key>attributes</key><dict><key>TargetAttributes</key><dict><key>T1</key><dict><key>DevelopmentTeam</key><string>85LT9M52WY</string></dict></dict></dict></dict>
            <key>G1</key><dict><key>isa</key><string>PBXGroup</string><key>children</key><array/><key>sourceTree</key><string>&lt;group&gt;</string></dict>
            <key>CLP</key><dict><key>isa</key><string>XCConfigurationList</string><key>buildConfigurations</key><array><string>CP</string></array></dict>
            <key>CP</key><dict><key>isa</key><string>XCBuildConfiguration</string><key>name</key><string>Release</string>
              <key>buildSettings</key><dict><key>SDKROOT</key><string>iphoneos</string></dict></dict>
            <key>T1</key><dict><key>isa</key><string>PBXNativeTarget</string><key>name</key><string>Kite</string>
              <key>productType</key><string>com.apple.product-type.application</string><key>buildConfigurationList</key><string>CLT</string></dict>
            <key>CLT</key><dict><key>isa</key><string>XCConfigurationList</string><key>buildConfigurations</key><array><string>CT</string></array></dict>
            <key>CT</key><dict><key>isa</key><string>XCBuildConfiguration</string><key>name</key><string>Release</string>
              <key>buildSettings</key><dict><key>PRODUCT_BUNDLE_IDENTIFIER</key><string>it.kites.Kite</string><key>INFOPLIST_FILE</key><string>Kite/Info.plist</string></dict></dict>
          </dict>
          <key>rootObject</key><string>P1</string>
        </dict></plist>
        """

    @Test func anXMLProjectIsReadAsTheTextOne() throws {
        let project = try XcodeProject.parse(bytes: Array(Self.xml.utf8), file: "Kite.xcodeproj/project.pbxproj")
        let app = try #require(project.target(named: "Kite"))
        #expect(app.isApplication)
        #expect(project.settings(target: app, configuration: "Release").value("PRODUCT_BUNDLE_IDENTIFIER")?.value == "it.kites.Kite")
        #expect(app.developmentTeamAttribute?.value == "85LT9M52WY")
        // Positions point into the XML: the bundle ID's line.
        #expect(project.settings(target: app, configuration: "Release").value("PRODUCT_BUNDLE_IDENTIFIER")?.location.line == 18)
    }

    /// init takes the project (not a vendored sample beside it), and the team from the target's
    /// attributes, where Xcode 7 kept it.
    @Test func initReadsAnXMLProjectAndItsTeamAttribute() throws {
        let files = FixtureFolder("xml-project")
        files.write("Kite.xcodeproj/project.pbxproj", Self.xml)
        files.write("Kite/Info.plist", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>CFBundleIdentifier</key><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string></dict></plist>\n")
        files.write("Kite/Libs/Vendor.framework/Headers/Vendor.h", "// a vendored binary framework's header\n")
        let written = try runIAPDoctor(["init", files.folder, "-o", files.folder + "/iap/project.yaml"])
        #expect(written.status == 0, "\(written.output)")
        let descriptor = readText(files.folder + "/iap/project.yaml")
        #expect(descriptor.contains("bundle_id: it.kites.Kite"), "\(descriptor)")
        #expect(descriptor.contains("team_id: \"85LT9M52WY\"   # `DevelopmentTeam` of the target's attributes"), "\(descriptor)")
    }
}
