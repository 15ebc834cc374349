import CodeScanner
import Testing

/// Each RevenueCat key or offering identifier the code names, as `file:line kind value`
/// (`?` for a value the code does not state).
func revenueCatReferences(_ files: [(file: String, text: String)], platform: String? = "ios") -> [String] {
    SourceScanner.scan(sources: files, platform: platform).revenueCat
        .map { "\($0.location.file):\($0.location.line) \($0.kind.rawValue) \($0.value ?? "?")" }
}

/// The SDK key and the offerings each RevenueCat SDK is handed, in the shapes its docs show.
@Suite("RevenueCat references")
struct RevenueCatReferenceTests {
    @Test("Swift: configure, the configuration builder, offerings by identifier")
    func swift() {
        let source = """
            import RevenueCat

            enum Keys { static let revenueCat = "appl_SYNTHETICkey000" }

            func start() {
                Purchases.configure(withAPIKey: Keys.revenueCat)
                Purchases.configure(with: Configuration.Builder(withAPIKey: "appl_SYNTHETICkey111").with(appUserID: nil).build())
            }

            func paywall() async throws {
                let offerings = try await Purchases.shared.offerings()
                let pro = offerings.all["pro"]
                let annual = offerings.offering(identifier: "annual_sale")
                _ = (pro, annual)
            }
            """
        #expect(revenueCatReferences([("App.swift", source)]) == [
            "App.swift:3 apiKey appl_SYNTHETICkey000",
            "App.swift:7 apiKey appl_SYNTHETICkey111",
            "App.swift:12 offering pro",
            "App.swift:13 offering annual_sale",
        ])
    }

    @Test("a dictionary subscript named `all` is no offering outside a RevenueCat file")
    func notRevenueCat() {
        let source = """
            let groups = ["all": ["a"]]
            let x = settings.all["pro"]
            """
        #expect(revenueCatReferences([("Other.swift", source)]).isEmpty)
    }

    @Test("a key the code reads at run time is a reference without a value")
    func runTimeKey() {
        let source = """
            import RevenueCat
            func start() {
                Purchases.configure(withAPIKey: ProcessInfo.processInfo.environment["RC_KEY"] ?? "")
            }
            """
        #expect(revenueCatReferences([("App.swift", source)]) == ["App.swift:3 apiKey ?"])
    }

    @Test("Flutter: PurchasesConfiguration per platform, offerings by identifier")
    func flutter() {
        let source = """
            import 'dart:io';
            import 'package:purchases_flutter/purchases_flutter.dart';

            const appleKey = 'appl_SYNTHETICkey222';
            const googleKey = 'goog_SYNTHETICkey333';

            Future<void> initPlatformState() async {
              PurchasesConfiguration configuration;
              if (Platform.isAndroid) {
                configuration = PurchasesConfiguration(googleKey);
              } else {
                configuration = PurchasesConfiguration(appleKey);
              }
              await Purchases.configure(configuration);
              final offerings = await Purchases.getOfferings();
              final pro = offerings.all['pro'];
              final sale = offerings.getOffering('sale');
            }
            """
        let found = revenueCatReferences([("lib/main.dart", source)])
        // The Android branch is not the iOS build's.
        #expect(found == ["lib/main.dart:4 apiKey appl_SYNTHETICkey222", "lib/main.dart:16 offering pro", "lib/main.dart:17 offering sale"])
    }

    @Test("React Native: configure with the key chosen by Platform.OS")
    func reactNative() {
        let source = """
            import Purchases from 'react-native-purchases';
            import { Platform } from 'react-native';

            export async function setup() {
              if (Platform.OS === 'ios') {
                Purchases.configure({ apiKey: 'appl_SYNTHETICkey444' });
              } else if (Platform.OS === 'android') {
                Purchases.configure({ apiKey: 'goog_SYNTHETICkey555' });
              }
              const offerings = await Purchases.getOfferings();
              return offerings.all['premium'];
            }
            """
        let found = revenueCatReferences([("src/purchases.ts", source)])
        #expect(found == ["src/purchases.ts:6 apiKey appl_SYNTHETICkey444", "src/purchases.ts:11 offering premium"])
    }

    @Test("Capacitor and Unity")
    func capacitorAndUnity() {
        let capacitor = """
            import { Purchases } from '@revenuecat/purchases-capacitor';
            await Purchases.configure({ apiKey: 'appl_SYNTHETICkey666' });
            """
        #expect(revenueCatReferences([("src/main.ts", capacitor)]) == ["src/main.ts:2 apiKey appl_SYNTHETICkey666"])
        let unity = """
            using UnityEngine;
            public class Store : MonoBehaviour {
                void Start() {
                    var configuration = PurchasesConfiguration.Builder.Init("appl_SYNTHETICkey777").Build();
                    GetComponent<Purchases>().Configure(configuration);
                }
            }
            """
        #expect(revenueCatReferences([("Assets/Store.cs", unity)]) == ["Assets/Store.cs:4 apiKey appl_SYNTHETICkey777"])
    }

    /// A function that returns early on one platform runs the rest only on the others: the
    /// Android key after `if (platform !== "android") return;` is not the iOS build's.
    @Test("an early return on a platform test ends that platform's path")
    func earlyReturn() {
        let capacitor = """
            import { Capacitor } from "@capacitor/core";
            import { Purchases } from "@revenuecat/purchases-capacitor";
            export async function androidOnly() {
              if (Capacitor.getPlatform() !== "android") return;
              await Purchases.configure({ apiKey: "goog_SYNTHETICkey001" });
            }
            export async function iosOnly() {
              if (Capacitor.getPlatform() === "android") {
                console.log("not here");
                return;
              }
              await Purchases.configure({ apiKey: "appl_SYNTHETICkey002" });
            }
            export async function afterABranchThatGoesOn() {
              if (Capacitor.getPlatform() === "ios") { console.log("ios"); }
              await Purchases.configure({ apiKey: "goog_SYNTHETICkey003" });
            }
            """
        #expect(revenueCatReferences([("src/purchases.ts", capacitor)]) == [
            "src/purchases.ts:12 apiKey appl_SYNTHETICkey002",
            "src/purchases.ts:16 apiKey goog_SYNTHETICkey003",
        ])
        let dart = """
            import 'dart:io';
            import 'package:purchases_flutter/purchases_flutter.dart';
            Future<void> configureAndroid() async {
              if (!Platform.isAndroid) return;
              await Purchases.configure(PurchasesConfiguration('goog_SYNTHETICkey004'));
            }
            Future<void> configureApple() async {
              if (Platform.isAndroid) {
                return;
              }
              await Purchases.configure(PurchasesConfiguration('appl_SYNTHETICkey005'));
            }
            """
        #expect(revenueCatReferences([("lib/purchases.dart", dart)]) == ["lib/purchases.dart:11 apiKey appl_SYNTHETICkey005"])
    }

    /// `if (c) return call(…);` makes the call when `c` holds and ends the path there; an
    /// early exit on a condition iOS cannot decide rules nothing out.
    @Test("a returned call ends the path after it")
    func returnedCall() {
        let source = """
            import Purchases from "react-native-purchases";
            import { Platform } from "react-native";
            export function start() {
              if (Platform.OS === "ios") return Purchases.configure({ apiKey: "appl_SYNTHETICkey006" });
              if (someFlag) return;
              Purchases.configure({ apiKey: "goog_SYNTHETICkey007" });
            }
            """
        #expect(revenueCatReferences([("src/start.ts", source)]) == [
            "src/start.ts:4 apiKey appl_SYNTHETICkey006",
        ])
        let unknown = source.replacingOccurrences(of: "if (Platform.OS === \"ios\") return Purchases", with: "if (user.isAdmin) return Purchases")
        #expect(revenueCatReferences([("src/start.ts", unknown)]) == [
            "src/start.ts:4 apiKey appl_SYNTHETICkey006",
            "src/start.ts:6 apiKey goog_SYNTHETICkey007",
        ])
    }

    /// Which builds compile a key: `#if DEBUG` only Debug, its `#else` and `#if !DEBUG` the others.
    @Test("keys under #if DEBUG and its #else")
    func debugOnly() {
        let source = """
            import RevenueCat
            func start() {
                #if DEBUG
                Purchases.configure(withAPIKey: "test_SYNTHETICkey010")
                #else
                Purchases.configure(withAPIKey: "appl_SYNTHETICkey011")
                #endif
                #if !DEBUG
                Purchases.configure(withAPIKey: "appl_SYNTHETICkey012")
                #endif
                Purchases.configure(withAPIKey: "appl_SYNTHETICkey013")
            }
            """
        let keys = SourceScanner.scan(sources: [("App.swift", source)], platform: "ios").revenueCat.map { "\($0.value ?? "?") \($0.debugOnly.map(String.init) ?? "every build")" }
        #expect(keys == ["test_SYNTHETICkey010 true", "appl_SYNTHETICkey011 false", "appl_SYNTHETICkey012 false", "appl_SYNTHETICkey013 every build"])
    }

    @Test("Swift's Configuration.builder and Objective-C's configure and builder")
    func builderAndObjectiveC() {
        let swift = """
            import RevenueCat
            func start() {
                Purchases.configure(with: Configuration.builder(withAPIKey: "appl_SYNTHETICkey020").with(storeKitVersion: .storeKit2).build())
                Purchases.configure(with: .init(withAPIKey: "appl_SYNTHETICkey023").with(usesStoreKit2IfAvailable: true))
            }
            """
        let objectiveC = """
            @import RevenueCat;
            static NSString *const kRevenueCatKey = @"appl_SYNTHETICkey021";
            @implementation AppDelegate
            - (BOOL)application:(UIApplication *)application didFinishLaunchingWithOptions:(NSDictionary *)options {
                [RCPurchases configureWithAPIKey:kRevenueCatKey appUserID:nil];
                RCConfigurationBuilder *builder = [[RCConfigurationBuilder alloc] initWithAPIKey:@"goog_SYNTHETICkey022"];
                [RCPurchases configureWithConfiguration:[builder build]];
                return YES;
            }
            @end
            """
        #expect(revenueCatReferences([("App.swift", swift), ("AppDelegate.m", objectiveC)]) == [
            "App.swift:3 apiKey appl_SYNTHETICkey020",
            "App.swift:4 apiKey appl_SYNTHETICkey023",
            "AppDelegate.m:2 apiKey appl_SYNTHETICkey021",
            "AppDelegate.m:6 apiKey goog_SYNTHETICkey022",
        ])
    }
}
