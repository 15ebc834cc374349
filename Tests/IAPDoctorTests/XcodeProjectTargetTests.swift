import Foundation
import IAPDoctor
import Testing

// Targets, schemes and configurations of project.pbxproj (the parser's own tests are in
// XcodeProjectTests.swift; both are one suite, so `--filter XcodeProjectTests` runs them all).

/// Two application targets that differ only by bundle ID.
let twoAppsPBXProj = """
    // !$*UTF8*$!
    {
    \tarchiveVersion = 1;
    \tobjectVersion = 56;
    \tobjects = {
    \t\tF1 = {isa = PBXNativeTarget; buildConfigurationList = FL; name = Free; productType = "com.apple.product-type.application"; };
    \t\tFL = {isa = XCConfigurationList; buildConfigurations = (FD); defaultConfigurationName = Debug; };
    \t\tFD = {isa = XCBuildConfiguration; buildSettings = {PRODUCT_BUNDLE_IDENTIFIER = com.example.free; }; name = Debug; };
    \t\tP1 = {isa = PBXNativeTarget; buildConfigurationList = PL; name = Pro; productType = "com.apple.product-type.application"; };
    \t\tPL = {isa = XCConfigurationList; buildConfigurations = (PD); defaultConfigurationName = Debug; };
    \t\tPD = {isa = XCBuildConfiguration; buildSettings = {PRODUCT_BUNDLE_IDENTIFIER = "com.example.$(TARGET_NAME:lower)"; }; name = Debug; };
    \t\tR0 = {isa = PBXProject; buildConfigurationList = RL; targets = (F1, P1); };
    \t\tRL = {isa = XCConfigurationList; buildConfigurations = (RD); defaultConfigurationName = Debug; };
    \t\tRD = {isa = XCBuildConfiguration; buildSettings = {SDKROOT = iphoneos; }; name = Debug; };
    \t};
    \trootObject = R0;
    }
    """

/// Xcode 15's `project.pbxproj` for RunMonster, also saved as
/// examples/runmonster-xcode/RunMonster.xcodeproj/project.pbxproj.
let runMonsterPBXProj = """
// !$*UTF8*$!
{
	archiveVersion = 1;
	classes = {
	};
	objectVersion = 60;
	objects = {

/* Begin PBXBuildFile section */
		8A3C1F302B1E4A6000D4E5F1 /* AppDelegate.swift in Sources */ = {isa = PBXBuildFile; fileRef = 8A3C1F2F2B1E4A6000D4E5F1 /* AppDelegate.swift */; };
		8A3C1F322B1E4A6000D4E5F1 /* Store.swift in Sources */ = {isa = PBXBuildFile; fileRef = 8A3C1F312B1E4A6000D4E5F1 /* Store.swift */; };
		8A3C1F472B1E4A6100D4E5F1 /* StoreTests.swift in Sources */ = {isa = PBXBuildFile; fileRef = 8A3C1F462B1E4A6100D4E5F1 /* StoreTests.swift */; };
		8A3C1F622B1E4B0000D4E5F1 /* StoreKit.framework in Frameworks */ = {isa = PBXBuildFile; fileRef = 8A3C1F612B1E4B0000D4E5F1 /* StoreKit.framework */; };
/* End PBXBuildFile section */

/* Begin PBXContainerItemProxy section */
		8A3C1F482B1E4A6100D4E5F1 /* PBXContainerItemProxy */ = {
			isa = PBXContainerItemProxy;
			containerPortal = 8A3C1F242B1E4A6000D4E5F1 /* Project object */;
			proxyType = 1;
			remoteGlobalIDString = A1B2C3D4E5F6A7B8C9D0E1F2;
			remoteInfo = RunMonster;
		};
/* End PBXContainerItemProxy section */

/* Begin PBXFileReference section */
		8A3C1F2C2B1E4A6000D4E5F1 /* RunMonster.app */ = {isa = PBXFileReference; explicitFileType = wrapper.application; includeInIndex = 0; path = RunMonster.app; sourceTree = BUILT_PRODUCTS_DIR; };
		8A3C1F2F2B1E4A6000D4E5F1 /* AppDelegate.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = AppDelegate.swift; sourceTree = "<group>"; };
		8A3C1F312B1E4A6000D4E5F1 /* Store.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Store.swift; sourceTree = "<group>"; };
		8A3C1F3A2B1E4A6100D4E5F1 /* Info.plist */ = {isa = PBXFileReference; lastKnownFileType = text.plist.xml; path = Info.plist; sourceTree = "<group>"; };
		8A3C1F3B2B1E4A6100D4E5F1 /* RunMonster.entitlements */ = {isa = PBXFileReference; lastKnownFileType = text.plist.entitlements; path = RunMonster.entitlements; sourceTree = "<group>"; };
		8A3C1F3C2B1E4A6100D4E5F1 /* Products.storekit */ = {isa = PBXFileReference; lastKnownFileType = text; path = Products.storekit; sourceTree = "<group>"; };
		8A3C1F432B1E4A6100D4E5F1 /* RunMonsterTests.xctest */ = {isa = PBXFileReference; explicitFileType = wrapper.cfbundle; includeInIndex = 0; path = RunMonsterTests.xctest; sourceTree = BUILT_PRODUCTS_DIR; };
		8A3C1F462B1E4A6100D4E5F1 /* StoreTests.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = StoreTests.swift; sourceTree = "<group>"; };
		8A3C1F612B1E4B0000D4E5F1 /* StoreKit.framework */ = {isa = PBXFileReference; lastKnownFileType = wrapper.framework; name = StoreKit.framework; path = System/Library/Frameworks/StoreKit.framework; sourceTree = SDKROOT; };
/* End PBXFileReference section */

/* Begin PBXFrameworksBuildPhase section */
		8A3C1F292B1E4A6000D4E5F1 /* Frameworks */ = {
			isa = PBXFrameworksBuildPhase;
			buildActionMask = 2147483647;
			files = (
				8A3C1F622B1E4B0000D4E5F1 /* StoreKit.framework in Frameworks */,
			);
			runOnlyForDeploymentPostprocessing = 0;
		};
		8A3C1F402B1E4A6100D4E5F1 /* Frameworks */ = {
			isa = PBXFrameworksBuildPhase;
			buildActionMask = 2147483647;
			files = (
			);
			runOnlyForDeploymentPostprocessing = 0;
		};
/* End PBXFrameworksBuildPhase section */

/* Begin PBXGroup section */
		8A3C1F232B1E4A6000D4E5F1 = {
			isa = PBXGroup;
			children = (
				8A3C1F2E2B1E4A6000D4E5F1 /* RunMonster */,
				8A3C1F452B1E4A6100D4E5F1 /* RunMonsterTests */,
				8A3C1F602B1E4B0000D4E5F1 /* Frameworks */,
				8A3C1F2D2B1E4A6000D4E5F1 /* Products */,
			);
			sourceTree = "<group>";
		};
		8A3C1F2D2B1E4A6000D4E5F1 /* Products */ = {
			isa = PBXGroup;
			children = (
				8A3C1F2C2B1E4A6000D4E5F1 /* RunMonster.app */,
				8A3C1F432B1E4A6100D4E5F1 /* RunMonsterTests.xctest */,
			);
			name = Products;
			sourceTree = "<group>";
		};
		8A3C1F2E2B1E4A6000D4E5F1 /* RunMonster */ = {
			isa = PBXGroup;
			children = (
				8A3C1F3B2B1E4A6100D4E5F1 /* RunMonster.entitlements */,
				8A3C1F2F2B1E4A6000D4E5F1 /* AppDelegate.swift */,
				8A3C1F312B1E4A6000D4E5F1 /* Store.swift */,
				8A3C1F3C2B1E4A6100D4E5F1 /* Products.storekit */,
				8A3C1F3A2B1E4A6100D4E5F1 /* Info.plist */,
			);
			path = RunMonster;
			sourceTree = "<group>";
		};
		8A3C1F452B1E4A6100D4E5F1 /* RunMonsterTests */ = {
			isa = PBXGroup;
			children = (
				8A3C1F462B1E4A6100D4E5F1 /* StoreTests.swift */,
			);
			path = RunMonsterTests;
			sourceTree = "<group>";
		};
		8A3C1F602B1E4B0000D4E5F1 /* Frameworks */ = {
			isa = PBXGroup;
			children = (
				8A3C1F612B1E4B0000D4E5F1 /* StoreKit.framework */,
			);
			name = Frameworks;
			sourceTree = "<group>";
		};
/* End PBXGroup section */

/* Begin PBXNativeTarget section */
		8A3C1F422B1E4A6100D4E5F1 /* RunMonsterTests */ = {
			isa = PBXNativeTarget;
			buildConfigurationList = 8A3C1F4A2B1E4A6100D4E5F1 /* Build configuration list for PBXNativeTarget "RunMonsterTests" */;
			buildPhases = (
				8A3C1F3F2B1E4A6100D4E5F1 /* Sources */,
				8A3C1F402B1E4A6100D4E5F1 /* Frameworks */,
				8A3C1F412B1E4A6100D4E5F1 /* Resources */,
			);
			buildRules = (
			);
			dependencies = (
				8A3C1F492B1E4A6100D4E5F1 /* PBXTargetDependency */,
			);
			name = RunMonsterTests;
			productName = RunMonsterTests;
			productReference = 8A3C1F432B1E4A6100D4E5F1 /* RunMonsterTests.xctest */;
			productType = "com.apple.product-type.bundle.unit-test";
		};
		A1B2C3D4E5F6A7B8C9D0E1F2 /* RunMonster */ = {
			isa = PBXNativeTarget;
			buildConfigurationList = 8A3C1F362B1E4A6000D4E5F1 /* Build configuration list for PBXNativeTarget "RunMonster" */;
			buildPhases = (
				8A3C1F282B1E4A6000D4E5F1 /* Sources */,
				8A3C1F292B1E4A6000D4E5F1 /* Frameworks */,
				8A3C1F2A2B1E4A6000D4E5F1 /* Resources */,
			);
			buildRules = (
			);
			dependencies = (
			);
			name = RunMonster;
			productName = RunMonster;
			productReference = 8A3C1F2C2B1E4A6000D4E5F1 /* RunMonster.app */;
			productType = "com.apple.product-type.application";
		};
/* End PBXNativeTarget section */

/* Begin PBXProject section */
		8A3C1F242B1E4A6000D4E5F1 /* Project object */ = {
			isa = PBXProject;
			attributes = {
				BuildIndependentTargetsInParallel = 1;
				LastSwiftUpdateCheck = 1530;
				LastUpgradeCheck = 1530;
				ORGANIZATIONNAME = "RunMonster Games";
				TargetAttributes = {
					8A3C1F422B1E4A6100D4E5F1 = {
						CreatedOnToolsVersion = 12.0;
						TestTargetID = A1B2C3D4E5F6A7B8C9D0E1F2;
					};
					A1B2C3D4E5F6A7B8C9D0E1F2 = {
						CreatedOnToolsVersion = 12.0;
						DevelopmentTeam = 7DW89RZKLY;
						LastSwiftMigration = 1530;
						ProvisioningStyle = Manual;
						SystemCapabilities = {
							com.apple.InAppPurchase = {
								enabled = 1;
							};
						};
					};
				};
			};
			buildConfigurationList = 8A3C1F272B1E4A6000D4E5F1 /* Build configuration list for PBXProject "RunMonster" */;
			compatibilityVersion = "Xcode 14.0";
			developmentRegion = en;
			hasScannedForEncodings = 0;
			knownRegions = (
				en,
				Base,
			);
			mainGroup = 8A3C1F232B1E4A6000D4E5F1;
			productRefGroup = 8A3C1F2D2B1E4A6000D4E5F1 /* Products */;
			projectDirPath = "";
			projectRoot = "";
			targets = (
				A1B2C3D4E5F6A7B8C9D0E1F2 /* RunMonster */,
				8A3C1F422B1E4A6100D4E5F1 /* RunMonsterTests */,
			);
		};
/* End PBXProject section */

/* Begin PBXResourcesBuildPhase section */
		8A3C1F2A2B1E4A6000D4E5F1 /* Resources */ = {
			isa = PBXResourcesBuildPhase;
			buildActionMask = 2147483647;
			files = (
			);
			runOnlyForDeploymentPostprocessing = 0;
		};
		8A3C1F412B1E4A6100D4E5F1 /* Resources */ = {
			isa = PBXResourcesBuildPhase;
			buildActionMask = 2147483647;
			files = (
			);
			runOnlyForDeploymentPostprocessing = 0;
		};
/* End PBXResourcesBuildPhase section */

/* Begin PBXSourcesBuildPhase section */
		8A3C1F282B1E4A6000D4E5F1 /* Sources */ = {
			isa = PBXSourcesBuildPhase;
			buildActionMask = 2147483647;
			files = (
				8A3C1F302B1E4A6000D4E5F1 /* AppDelegate.swift in Sources */,
				8A3C1F322B1E4A6000D4E5F1 /* Store.swift in Sources */,
			);
			runOnlyForDeploymentPostprocessing = 0;
		};
		8A3C1F3F2B1E4A6100D4E5F1 /* Sources */ = {
			isa = PBXSourcesBuildPhase;
			buildActionMask = 2147483647;
			files = (
				8A3C1F472B1E4A6100D4E5F1 /* StoreTests.swift in Sources */,
			);
			runOnlyForDeploymentPostprocessing = 0;
		};
/* End PBXSourcesBuildPhase section */

/* Begin PBXTargetDependency section */
		8A3C1F492B1E4A6100D4E5F1 /* PBXTargetDependency */ = {
			isa = PBXTargetDependency;
			target = A1B2C3D4E5F6A7B8C9D0E1F2 /* RunMonster */;
			targetProxy = 8A3C1F482B1E4A6100D4E5F1 /* PBXContainerItemProxy */;
		};
/* End PBXTargetDependency section */

/* Begin XCBuildConfiguration section */
		8A3C1F342B1E4A6000D4E5F1 /* Debug */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				ALWAYS_SEARCH_USER_PATHS = NO;
				ASSETCATALOG_COMPILER_GENERATE_SWIFT_ASSET_SYMBOL_EXTENSIONS = YES;
				CLANG_ANALYZER_NONNULL = YES;
				CLANG_CXX_LANGUAGE_STANDARD = "gnu++20";
				CLANG_ENABLE_MODULES = YES;
				CLANG_ENABLE_OBJC_ARC = YES;
				CLANG_WARN_DOCUMENTATION_COMMENTS = YES;
				CLANG_WARN_UNGUARDED_AVAILABILITY = YES_AGGRESSIVE;
				"CODE_SIGN_IDENTITY[sdk=iphoneos*]" = "iPhone Developer";
				COPY_PHASE_STRIP = NO;
				DEBUG_INFORMATION_FORMAT = dwarf;
				ENABLE_STRICT_OBJC_MSGSEND = YES;
				ENABLE_TESTABILITY = YES;
				ENABLE_USER_SCRIPT_SANDBOXING = YES;
				GCC_C_LANGUAGE_STANDARD = gnu17;
				GCC_DYNAMIC_NO_PIC = NO;
				GCC_OPTIMIZATION_LEVEL = 0;
				GCC_PREPROCESSOR_DEFINITIONS = (
					"DEBUG=1",
					"$(inherited)",
				);
				IPHONEOS_DEPLOYMENT_TARGET = 14.0;
				LOCALIZATION_PREFERS_STRING_CATALOGS = YES;
				MTL_ENABLE_DEBUG_INFO = INCLUDE_SOURCE;
				MTL_FAST_MATH = YES;
				ONLY_ACTIVE_ARCH = YES;
				SDKROOT = iphoneos;
				SWIFT_ACTIVE_COMPILATION_CONDITIONS = "DEBUG $(inherited)";
				SWIFT_OPTIMIZATION_LEVEL = "-Onone";
			};
			name = Debug;
		};
		8A3C1F352B1E4A6000D4E5F1 /* Release */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				ALWAYS_SEARCH_USER_PATHS = NO;
				ASSETCATALOG_COMPILER_GENERATE_SWIFT_ASSET_SYMBOL_EXTENSIONS = YES;
				CLANG_ANALYZER_NONNULL = YES;
				CLANG_CXX_LANGUAGE_STANDARD = "gnu++20";
				CLANG_ENABLE_MODULES = YES;
				CLANG_ENABLE_OBJC_ARC = YES;
				CLANG_WARN_DOCUMENTATION_COMMENTS = YES;
				CLANG_WARN_UNGUARDED_AVAILABILITY = YES_AGGRESSIVE;
				"CODE_SIGN_IDENTITY[sdk=iphoneos*]" = "iPhone Developer";
				COPY_PHASE_STRIP = NO;
				DEBUG_INFORMATION_FORMAT = "dwarf-with-dsym";
				ENABLE_NS_ASSERTIONS = NO;
				ENABLE_STRICT_OBJC_MSGSEND = YES;
				ENABLE_USER_SCRIPT_SANDBOXING = YES;
				GCC_C_LANGUAGE_STANDARD = gnu17;
				IPHONEOS_DEPLOYMENT_TARGET = 14.0;
				LOCALIZATION_PREFERS_STRING_CATALOGS = YES;
				MTL_ENABLE_DEBUG_INFO = NO;
				MTL_FAST_MATH = YES;
				SDKROOT = iphoneos;
				SWIFT_COMPILATION_MODE = wholemodule;
				VALIDATE_PRODUCT = YES;
			};
			name = Release;
		};
		8A3C1F372B1E4A6000D4E5F1 /* Debug */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon;
				ASSETCATALOG_COMPILER_GLOBAL_ACCENT_COLOR_NAME = AccentColor;
				CODE_SIGN_ENTITLEMENTS = RunMonster/RunMonster.entitlements;
				CODE_SIGN_STYLE = Manual;
				CURRENT_PROJECT_VERSION = 41;
				DEVELOPMENT_TEAM = 7DW89RZKLY;
				INFOPLIST_FILE = RunMonster/Info.plist;
				LD_RUNPATH_SEARCH_PATHS = (
					"$(inherited)",
					"@executable_path/Frameworks",
				);
				MARKETING_VERSION = 2.3;
				PRODUCT_BUNDLE_IDENTIFIER = com.runmonster.runmonsterfree.dev;
				PRODUCT_NAME = "$(TARGET_NAME)";
				PROVISIONING_PROFILE_SPECIFIER = "RunMonster Development";
				SWIFT_EMIT_LOC_STRINGS = YES;
				SWIFT_VERSION = 5.0;
				TARGETED_DEVICE_FAMILY = "1,2";
			};
			name = Debug;
		};
		8A3C1F382B1E4A6000D4E5F1 /* Release */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon;
				ASSETCATALOG_COMPILER_GLOBAL_ACCENT_COLOR_NAME = AccentColor;
				CODE_SIGN_ENTITLEMENTS = RunMonster/RunMonster.entitlements;
				CODE_SIGN_STYLE = Manual;
				CURRENT_PROJECT_VERSION = 41;
				DEVELOPMENT_TEAM = 7DW89RZKLY;
				INFOPLIST_FILE = RunMonster/Info.plist;
				LD_RUNPATH_SEARCH_PATHS = (
					"$(inherited)",
					"@executable_path/Frameworks",
				);
				MARKETING_VERSION = 2.3;
				PRODUCT_BUNDLE_IDENTIFIER = com.runmonster.runmonsterfree;
				PRODUCT_NAME = "$(TARGET_NAME)";
				PROVISIONING_PROFILE_SPECIFIER = "RunMonster Development";
				SWIFT_EMIT_LOC_STRINGS = YES;
				SWIFT_VERSION = 5.0;
				TARGETED_DEVICE_FAMILY = "1,2";
			};
			name = Release;
		};
		8A3C1F4B2B1E4A6100D4E5F1 /* Debug */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				BUNDLE_LOADER = "$(TEST_HOST)";
				CODE_SIGN_STYLE = Automatic;
				CURRENT_PROJECT_VERSION = 41;
				DEVELOPMENT_TEAM = 7DW89RZKLY;
				GENERATE_INFOPLIST_FILE = YES;
				MARKETING_VERSION = 2.3;
				PRODUCT_BUNDLE_IDENTIFIER = "com.runmonster.$(PRODUCT_NAME:rfc1034identifier)";
				PRODUCT_NAME = "$(TARGET_NAME)";
				SWIFT_EMIT_LOC_STRINGS = NO;
				SWIFT_VERSION = 5.0;
				TARGETED_DEVICE_FAMILY = "1,2";
				TEST_HOST = "$(BUILT_PRODUCTS_DIR)/RunMonster.app/$(BUNDLE_EXECUTABLE_FOLDER_PATH)/RunMonster";
			};
			name = Debug;
		};
		8A3C1F4C2B1E4A6100D4E5F1 /* Release */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				BUNDLE_LOADER = "$(TEST_HOST)";
				CODE_SIGN_STYLE = Automatic;
				CURRENT_PROJECT_VERSION = 41;
				DEVELOPMENT_TEAM = 7DW89RZKLY;
				GENERATE_INFOPLIST_FILE = YES;
				MARKETING_VERSION = 2.3;
				PRODUCT_BUNDLE_IDENTIFIER = "com.runmonster.$(PRODUCT_NAME:rfc1034identifier)";
				PRODUCT_NAME = "$(TARGET_NAME)";
				SWIFT_EMIT_LOC_STRINGS = NO;
				SWIFT_VERSION = 5.0;
				TARGETED_DEVICE_FAMILY = "1,2";
				TEST_HOST = "$(BUILT_PRODUCTS_DIR)/RunMonster.app/$(BUNDLE_EXECUTABLE_FOLDER_PATH)/RunMonster";
			};
			name = Release;
		};
/* End XCBuildConfiguration section */

/* Begin XCConfigurationList section */
		8A3C1F272B1E4A6000D4E5F1 /* Build configuration list for PBXProject "RunMonster" */ = {
			isa = XCConfigurationList;
			buildConfigurations = (
				8A3C1F342B1E4A6000D4E5F1 /* Debug */,
				8A3C1F352B1E4A6000D4E5F1 /* Release */,
			);
			defaultConfigurationIsVisible = 0;
			defaultConfigurationName = Release;
		};
		8A3C1F362B1E4A6000D4E5F1 /* Build configuration list for PBXNativeTarget "RunMonster" */ = {
			isa = XCConfigurationList;
			buildConfigurations = (
				8A3C1F372B1E4A6000D4E5F1 /* Debug */,
				8A3C1F382B1E4A6000D4E5F1 /* Release */,
			);
			defaultConfigurationIsVisible = 0;
			defaultConfigurationName = Release;
		};
		8A3C1F4A2B1E4A6100D4E5F1 /* Build configuration list for PBXNativeTarget "RunMonsterTests" */ = {
			isa = XCConfigurationList;
			buildConfigurations = (
				8A3C1F4B2B1E4A6100D4E5F1 /* Debug */,
				8A3C1F4C2B1E4A6100D4E5F1 /* Release */,
			);
			defaultConfigurationIsVisible = 0;
			defaultConfigurationName = Release;
		};
/* End XCConfigurationList section */
	};
	rootObject = 8A3C1F242B1E4A6000D4E5F1 /* Project object */;
}

"""
