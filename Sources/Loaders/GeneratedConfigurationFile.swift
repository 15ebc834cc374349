import Formats
import Model

/// Build configuration files that a tool writes on the developer's machine and repositories do not
/// commit: CocoaPods' `Pods/Target Support Files/…/*.xcconfig`, Flutter's `Generated.xcconfig`.
/// Each defines a known set of settings (search paths, linker flags, the tool's own variables) and
/// never the app's identity (bundle ID, team, signing, platform), so its absence leaves only those
/// settings unknown.
public struct GeneratedConfigurationFile: Sendable, Equatable {
    /// The tool that writes the file ("CocoaPods").
    public var tool: String
    /// What writes it ("`pod install`").
    public var command: String
    /// Prefixes of the tool's own variables (`PODS_`).
    var prefixes: [String]
    /// The Xcode settings the tool writes besides its own variables.
    var settings: Set<String>

    /// Whether the file may assign `name`.
    public func mayDefine(_ name: String) -> Bool {
        settings.contains(name) || prefixes.contains { name.hasPrefix($0) }
    }

    /// The generated file `path` is, by its location and name; `nil` for any other file.
    public static func recognize(_ path: String) -> GeneratedConfigurationFile? {
        guard path.hasSuffix(".xcconfig") else { return nil }
        let parts = path.split(separator: "/")
        let name = parts.last.map(String.init) ?? path
        if parts.contains("Target Support Files"), parts.contains("Pods") || name.hasPrefix("Pods-") {
            return cocoaPods
        }
        let folder = parts.dropLast().last
        if name == "Generated.xcconfig", folder == "Flutter" { return flutter }
        if name == "Flutter-Generated.xcconfig", folder == "ephemeral" { return flutter }
        return nil
    }

    /// An aggregate target's file (`Pods-App.release.xcconfig`): search paths and flags for the
    /// pods, `PODS_*` variables, and what podspecs add through `user_target_xcconfig`, which is
    /// compiler and linker settings.
    static let cocoaPods = GeneratedConfigurationFile(
        tool: "CocoaPods", command: "`pod install`", prefixes: ["PODS_", "COCOAPODS"],
        settings: [
            "ALWAYS_EMBED_SWIFT_STANDARD_LIBRARIES", "APPLICATION_EXTENSION_API_ONLY", "CLANG_CXX_LANGUAGE_STANDARD", "CLANG_CXX_LIBRARY",
            "CLANG_ENABLE_MODULES", "CLANG_MODULES_AUTOLINK", "CONFIGURATION_BUILD_DIR", "DEFINES_MODULE", "ENABLE_BITCODE",
            "EXCLUDED_ARCHS", "FRAMEWORK_SEARCH_PATHS", "GCC_PREPROCESSOR_DEFINITIONS", "HEADER_SEARCH_PATHS",
            "LD_RUNPATH_SEARCH_PATHS", "LIBRARY_SEARCH_PATHS", "OTHER_CFLAGS", "OTHER_CPLUSPLUSFLAGS", "OTHER_LDFLAGS",
            "OTHER_MODULE_VERIFIER_FLAGS", "OTHER_SWIFT_FLAGS", "SKIP_INSTALL", "SWIFT_ACTIVE_COMPILATION_CONDITIONS",
            "SWIFT_INCLUDE_PATHS", "SWIFT_VERSION", "USE_HEADERMAP", "USE_RECURSIVE_SCRIPT_INPUTS_IN_SCRIPT_PHASES",
            "USER_HEADER_SEARCH_PATHS", "VALID_ARCHS", "WARNING_CFLAGS",
        ])

    /// `flutter pub get` / `flutter build` write the SDK's location, the build name and number,
    /// and the Dart build options.
    static let flutter = GeneratedConfigurationFile(
        tool: "Flutter", command: "`flutter pub get` (or any `flutter build ios`)", prefixes: ["FLUTTER_", "DART_"],
        settings: [
            "CODE_SIZE_DIRECTORY", "COCOAPODS_PARALLEL_CODE_SIGN", "EXCLUDED_ARCHS", "PACKAGE_CONFIG", "SPLIT_DEBUG_INFO", "SYMROOT",
            "TRACK_WIDGET_CREATION", "TREE_SHAKE_ICONS", "OTHER_LDFLAGS", "FRAMEWORK_SEARCH_PATHS",
        ])
}

/// Settings Xcode gives a value that no project file assigns (the build's paths, platform and
/// architecture, the tools' versions) and the environment variables a build sees. iapdoctor does
/// not model their values: a reference to one stays unknown, where a reference to a setting nothing
/// defines expands to nothing, as in Xcode.
enum XcodeProvidedSettings {
    static let names: Set<String> = [
        "ACTION", "ARCHS", "ARCHS_STANDARD", "BUILD_DIR", "BUILD_ROOT", "BUILT_PRODUCTS_DIR", "CONFIGURATION_BUILD_DIR",
        "CONFIGURATION_TEMP_DIR", "CONTENTS_FOLDER_PATH", "CORRESPONDING_DEVICE_PLATFORM_NAME", "CORRESPONDING_SIMULATOR_PLATFORM_NAME",
        "CURRENT_ARCH", "CURRENT_VARIANT", "DERIVED_FILE_DIR", "DERIVED_FILES_DIR", "DEVELOPER_DIR", "DEVELOPER_FRAMEWORKS_DIR",
        "DT_TOOLCHAIN_DIR", "DWARF_DSYM_FILE_NAME", "EFFECTIVE_PLATFORM_NAME", "EXECUTABLE_FOLDER_PATH", "EXECUTABLE_PATH",
        "FULL_PRODUCT_NAME", "HOME", "INFOPLIST_PATH", "LOCAL_LIBRARY_DIR", "LOGNAME", "MAC_OS_X_PRODUCT_BUILD_VERSION",
        "MAC_OS_X_VERSION_ACTUAL", "MAC_OS_X_VERSION_MAJOR", "NATIVE_ARCH", "NATIVE_ARCH_ACTUAL", "OBJROOT", "PATH",
        "PLATFORM_DEVELOPER_BIN_DIR", "PLATFORM_DIR", "PLATFORM_DISPLAY_NAME", "PLATFORM_FAMILY_NAME", "PLATFORM_NAME",
        "PLATFORM_PREFERRED_ARCH", "PRODUCT_BUNDLE_PACKAGE_TYPE", "PRODUCT_TYPE", "PROJECT_FILE_PATH",
        "PROJECT_TEMP_DIR", "SDK_DIR", "SDK_NAME", "SDK_VERSION", "SDK_VERSION_MAJOR", "SHELL", "SYMROOT", "TARGET_BUILD_DIR",
        "TARGET_TEMP_DIR", "TEMP_DIR", "TMPDIR", "UID", "USER", "WRAPPER_EXTENSION", "WRAPPER_NAME", "WRAPPER_SUFFIX",
        "XCODE_PRODUCT_BUILD_VERSION", "XCODE_VERSION_ACTUAL", "XCODE_VERSION_MAJOR", "XCODE_VERSION_MINOR",
    ]
}
