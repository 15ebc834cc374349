// libFuzzer target `pbxproj`: the ASCII property list parser and the Xcode project model on top of
// it, including build-setting resolution and `$(VAR)` expansion. Build and run with scripts/fuzz.sh.
import IAPDoctor

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let project: XcodeProject
    do {
        project = try XcodeProject.parse(bytes: bytes, file: "fuzz.pbxproj")
    } catch {
        precondition(error.finding.location?.file == "fuzz.pbxproj", "error not positioned in the file: \(error.finding.message)")
        return 0
    }
    // Bound the model walk so one input cannot multiply into minutes (targets × configurations).
    for target in project.targets.prefix(16) {
        for name in (target.configurationNames + ["Debug", "Release"]).prefix(8) {
            _ = project.buildSettings(target: target, configuration: name)
            _ = project.buildSettings(target: target, configuration: name, sdk: "iphoneos")
            let settings = project.expansionSettings(target: target, configuration: name)
            _ = project.bundleIdentifier(target: target, configuration: name)
            _ = project.expandedBuildSetting(XcodeProject.SettingKey.developmentTeam, target: target, configuration: name)
            for value in settings.values.prefix(32) { _ = XcodeProject.expandVariables(value, with: settings) }
        }
    }
    _ = TargetChoice.choose(in: project, named: nil, scheme: nil, bundleID: "com.example.app", configuration: "Release")
    _ = TargetChoice.choose(in: project, named: nil, scheme: nil, bundleID: nil, configuration: "Debug")
    return 0
}

