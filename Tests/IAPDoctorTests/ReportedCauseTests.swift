import Foundation
import Testing
import TestSupport

/// Causes that developers reported in public threads (an issue or a post where the reporter or a
/// maintainer confirmed what fixed it), each rebuilt as a small app of our own with only that
/// fault: `check` must name the cause, at the place to change, with the fix the reporter applied.
/// The threads, for the record: react-native-iap#541, #2865, #2285 and #204; a Shine Technologies
/// post on products not cleared for sale; purchases-ios#357; purchases-capacitor#458;
/// InAppBillingPlugin#376; SwiftyStoreKit#368; cordova-plugin-purchase#181. The earlier ones are in
/// `ProjectShapeTests`, `OlderLibraryTests` and `PaymentCheckTests`.
@Suite("Reported causes", .timeLimit(.minutes(1)))
struct ReportedCauseTests {
    /// A descriptor whose every fact is healthy except the ones a report overrides.
    struct Descriptor {
        var environment = "sandbox"
        var bundleID: String
        var app = ""
        var paidApps = "active"
        var banking = "active"
        var versionState = "prepare_for_submission"
        var releasedAt = "null"
        var binaryUploaded = false
        var products: [String] = []
        var testing = """
            testing:
              device: physical
              os_version: "17.4"
            """

        /// The app is live in the App Store since `date`.
        mutating func release(on date: String) {
            versionState = "ready_for_sale"
            releasedAt = date
            binaryUploaded = true
        }

        var text: String {
            """
            version: 1
            environment: \(environment)
            checked_at: 2026-11-22T10:00:00Z
            app:
              bundle_id: \(bundleID)
            \(app.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
            developer_account:
              team_id: 7DW89RZKLY
              team_type: organization
              membership: active
              program_license: accepted
              agreements:
                paid_apps: \(paidApps)
              banking: \(banking)
              tax: active
            app_id:
              identifier: 7DW89RZKLY.\(bundleID)
              in_app_purchase: true
              in_app_purchase_enabled_at: 2026-01-01T00:00:00Z
            app_store_connect:
              app_record: true
              version_state: \(versionState)
              released_at: \(releasedAt)
              binary_uploaded: \(binaryUploaded)
            products:
            \(products.joined(separator: "\n"))
            \(testing)
            """
        }
    }

    /// A product with complete metadata in `status`.
    static func product(
        _ id: String, type: String = "non_consumable", status: String = "ready_to_submit", clearedForSale: Bool = true,
        screenshot: Bool = true, submittedWithVersion: Bool = false
    ) -> String {
        """
          - product_id: \(id)
            reference_name: Reference \(id)
            type: \(type)
            status: \(status)
            cleared_for_sale: \(clearedForSale)
            price_tier: 1
            created_at: 2026-10-01T00:00:00Z
            updated_at: 2026-10-01T00:00:00Z
            localizations:
              en-US: { display_name: Full access, description: What it unlocks }
            review_screenshot: \(screenshot)
            submitted_with_app_version: \(submittedWithVersion)
        """
    }

    struct Checked {
        var findings: [[String: Any]]
        var items: [String: String]
        var verdicts: [String: String]
        var text: String

        func fired(_ rule: String) -> [[String: Any]] { findings.filter { $0["rule"] as? String == rule } }
        /// The one finding of `rule`, with its message and help.
        func only(_ rule: String) -> (message: String, help: String, file: String?, line: Int?)? {
            let matching = fired(rule)
            guard matching.count == 1, let finding = matching.first else { return nil }
            return (finding["message"] as? String ?? "", finding["help"] as? String ?? "", finding["file"] as? String, finding["line"] as? Int)
        }
    }

    /// Writes `files` and the descriptor into one folder, then runs `check` as JSON and as text.
    static func check(_ descriptor: String, files: [String: String] = [:], in fixture: FixtureFolder = FixtureFolder("report")) throws -> Checked {
        for (path, text) in files { fixture.write(path, text) }
        fixture.write("project.yaml", descriptor)
        let json = try runIAPDoctor(["check", fixture.folder + "/project.yaml", "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any], "\(json.errors)")
        var items: [String: String] = [:]
        for item in report["checklist"] as? [[String: Any]] ?? [] { items[item["id"] as? String ?? ""] = item["status"] as? String }
        var verdicts: [String: String] = [:]
        for product in report["products"] as? [[String: Any]] ?? [] { verdicts[product["product_id"] as? String ?? ""] = product["verdict"] as? String }
        let text = try runIAPDoctor(["check", fixture.folder + "/project.yaml"]).output
        return Checked(findings: report["findings"] as? [[String: Any]] ?? [], items: items, verdicts: verdicts, text: text)
    }

    /// react-native-iap: `getProducts` returned `[]` while the product was Ready to Submit; the
    /// Paid Apps Agreement was still pending.
    @Test func aPendingPaidAppsAgreement() throws {
        var descriptor = Descriptor(bundleID: "com.nohaapav.shop", app: "sources: [src]")
        descriptor.paidApps = "pending"
        descriptor.products = [Self.product("my_product_id")]
        let checked = try Self.check(descriptor.text, files: ["src/Shop.js": """
            import * as RNIap from 'react-native-iap';
            const itemSkus = Platform.select({ ios: ['my_product_id'], android: ['my_product_id'] });
            export async function load() {
              await RNIap.initConnection();
              return await RNIap.getProducts(itemSkus);
            }
            """])
        let finding = try #require(checked.only("paid-apps-agreement-inactive"), "\(checked.text)")
        #expect(finding.message == "the Paid Apps Agreement is `pending`, not `active`, so StoreKit returns no paid products in the sandbox or the App Store")
        #expect(finding.help.hasPrefix("the Account Holder must finish the Paid Apps Agreement in App Store Connect → Business"))
        #expect(checked.items["bank-details"] == "fail")
        #expect(checked.verdicts["my_product_id"] == "invalid")
        // The request itself is right: only the agreement is named.
        #expect(checked.items["full-product-id"] == "pass")
        #expect(checked.findings.allSatisfy { $0["rule"] as? String == "paid-apps-agreement-inactive" || $0["severity"] as? String == "note" }, "\(checked.text)")
    }

    /// react-native-iap: "it was not the agreements, however I had to fill up more banking".
    @Test func bankingNotActiveWhileTheAgreementIs() throws {
        var descriptor = Descriptor(environment: "review", bundleID: "com.alessia.habits", app: "sources: [src]")
        descriptor.banking = "processing"
        descriptor.binaryUploaded = true
        descriptor.versionState = "waiting_for_review"
        descriptor.products = [Self.product("habits_pro_monthly", type: "consumable", status: "waiting_for_review", submittedWithVersion: true)]
        let checked = try Self.check(descriptor.text, files: ["src/iap.ts": """
            import { getProducts, initConnection } from 'react-native-iap';
            export async function load() {
              await initConnection();
              return getProducts({ skus: ['habits_pro_monthly'] });
            }
            """])
        let finding = try #require(checked.only("banking-inactive"), "\(checked.text)")
        #expect(finding.message.hasPrefix("banking is `processing`"), "\(finding.message)")
        #expect(checked.fired("paid-apps-agreement-inactive").isEmpty)
        #expect(checked.items["bank-details"] == "fail")
    }

    /// react-native-iap: the app was approved and released, the first subscription submitted with
    /// it was rejected; production says "Invalid product ID".
    @Test func aRejectedFirstPurchaseInAReleasedApp() throws {
        var descriptor = Descriptor(environment: "production", bundleID: "com.sabinayakc.meditate", app: "sources: [src]")
        descriptor.release(on: "2026-09-01T00:00:00Z")
        descriptor.products = [Self.product("meditate.premium.yearly", type: "non_renewing", status: "rejected", submittedWithVersion: true)]
        let checked = try Self.check(descriptor.text, files: ["src/subscriptions.ts": """
            import * as RNIap from 'react-native-iap';
            export const loadPlans = () => RNIap.getSubscriptions({ skus: ['meditate.premium.yearly'] });
            """])
        let finding = try #require(checked.only("status-not-served"), "\(checked.text)")
        #expect(finding.message.contains("`rejected`"), "\(finding.message)")
        #expect(checked.items["product-status"] == "fail")
        #expect(checked.verdicts["meditate.premium.yearly"] == "invalid")
    }

    /// react-native-iap: "An in-app purchase has been returned": the review screenshot was never
    /// added.
    @Test func aPurchaseReturnedForItsMissingScreenshot() throws {
        var descriptor = Descriptor(environment: "review", bundleID: "com.sanil.quiz", app: "sources: [src]")
        descriptor.binaryUploaded = true
        descriptor.versionState = "waiting_for_review"
        descriptor.products = [Self.product("quiz_unlock_all", status: "developer_action_needed", screenshot: false, submittedWithVersion: true)]
        let checked = try Self.check(descriptor.text, files: ["src/Store.js": """
            import RNIap from 'react-native-iap';
            const skus = ['quiz_unlock_all'];
            export const products = () => RNIap.getProducts(skus);
            """])
        let finding = try #require(checked.only("missing-review-screenshot"), "\(checked.text)")
        #expect(finding.message.contains("`quiz_unlock_all`"), "\(finding.message)")
        #expect(finding.help.localizedCaseInsensitiveContains("screenshot"))
        #expect(checked.items["product-metadata"] == "fail")
    }

    /// A native app live in the store showed an empty shop: the app was cleared for sale, its
    /// products were not.
    @Test func productsNotClearedForSaleInALiveApp() throws {
        var descriptor = Descriptor(environment: "production", bundleID: "com.shinetech.tours", app: "sources: [Classes]")
        descriptor.release(on: "2011-06-01T00:00:00Z")
        descriptor.products = [Self.product("com.shinetech.tours.melbourne", status: "approved", clearedForSale: false, submittedWithVersion: true)]
        let checked = try Self.check(descriptor.text, files: ["Classes/ShopController.m": """
            #import <StoreKit/StoreKit.h>
            @implementation ShopController
            - (void)loadProducts {
                NSSet *ids = [NSSet setWithObject:@"com.shinetech.tours.melbourne"];
                SKProductsRequest *request = [[SKProductsRequest alloc] initWithProductIdentifiers:ids];
                request.delegate = self;
                [request start];
            }
            @end
            """])
        let finding = try #require(checked.only("not-cleared-for-sale"), "\(checked.text)")
        #expect(finding.message.contains("`com.shinetech.tours.melbourne`"), "\(finding.message)")
        #expect(checked.items["cleared-for-sale"] == "fail")
        #expect(checked.items["full-product-id"] == "pass")
    }

    /// RevenueCat: `offerings.current` was nil on the iOS 14 Simulator only; Simulators of that
    /// version load no sandbox products without a StoreKit configuration file.
    @Test func anIOS14SimulatorWithoutAStoreKitFile() throws {
        var descriptor = Descriptor(bundleID: "com.aboedo.catfacts", app: "sources: [CatFacts]")
        descriptor.products = [Self.product("cat_facts_monthly", type: "consumable")]
        descriptor.testing = """
            testing:
              device: simulator
              os_version: "14.0"
            """
        let checked = try Self.check(descriptor.text, files: ["CatFacts/Paywall.swift": """
            import RevenueCat
            func showPaywall() {
                Purchases.shared.getOfferings { offerings, error in
                    print(offerings?.current?.availablePackages ?? [])
                }
            }
            """])
        let finding = try #require(checked.only("simulator-without-storekit-file"), "\(checked.text)")
        #expect(finding.message.contains("iOS 14.0"), "\(finding.message)")
        #expect(finding.help.contains("device") || finding.help.contains("StoreKit configuration"), "\(finding.help)")
        #expect(checked.items["test-device"] == "fail" || checked.items["test-device"] == "warn")
    }

    /// Xamarin `Plugin.InAppBilling`: every product came back in `InvalidProducts`; the app's
    /// `CFBundleIdentifier` was not the App Store Connect app's.
    @Test func aDotNetAppBuiltAsAnotherBundleID() throws {
        var descriptor = Descriptor(bundleID: "com.winnicki.budget", app: "info_plist: Budget.iOS/Info.plist\nsources: [Budget]")
        descriptor.products = [Self.product("com.winnicki.budget.premium")]
        let checked = try Self.check(descriptor.text, files: [
            "Budget.iOS/Info.plist": """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict>
                <key>CFBundleIdentifier</key>
                <string>com.winnicki.budgetapp</string>
                </dict></plist>
                """,
            "Budget/Services/Billing.cs": """
                using Plugin.InAppBilling;
                public class Billing {
                    public async Task Load() {
                        var products = await CrossInAppBilling.Current.GetProductInfoAsync(ItemType.InAppPurchase, "com.winnicki.budget.premium");
                    }
                }
                """,
        ])
        let finding = try #require(checked.only("running-bundle-id-mismatch"), "\(checked.text)")
        #expect(finding.message == "the app runs as `com.winnicki.budgetapp`, but the products belong to the App Store Connect app `com.winnicki.budget`")
        #expect(finding.help.hasPrefix("set `CFBundleIdentifier` to `com.winnicki.budget`"))
        #expect(finding.file?.hasSuffix("Budget.iOS/Info.plist") == true && finding.line == 4, "\(finding)")
        #expect(checked.items["bundle-id-matches"] == "fail")
    }

    /// SwiftyStoreKit on macOS: `retrieveProductsInfo([appBundleId + "." + purchase.rawValue])`
    /// was invalid; the product IDs are the bare `rawValue`s.
    @Test func theBundleIDPrependedInSwift() throws {
        let descriptor = Descriptor(
            bundleID: "com.fabulouspanda.notes", app: "platform: macos\nsources: [Sources]",
            products: [Self.product("pro"), Self.product("tip.small", type: "consumable")])
        let checked = try Self.check(descriptor.text, files: ["Sources/Store.swift": """
            import SwiftyStoreKit

            enum Purchase: String, CaseIterable {
                case pro
                case tipSmall = "tip.small"
            }

            final class Store {
                let appBundleId = "com.fabulouspanda.notes"

                func load(_ purchase: Purchase) {
                    SwiftyStoreKit.retrieveProductsInfo([appBundleId + "." + purchase.rawValue]) { result in
                        print(result.invalidProductIDs)
                    }
                }
            }

            func showPaywall(store: Store) {
                store.load(.pro)
            }
            """])
        let finding = try #require(checked.only("bundle-id-prefixed-product-id"), "\(checked.text)")
        #expect(finding.message == "`com.fabulouspanda.notes.pro` is the bundle ID `com.fabulouspanda.notes` and `.` before the product ID `pro`; did you mean `pro`?")
        #expect(finding.help == "request `pro`: StoreKit matches the product ID exactly and does not add or expect the bundle ID")
        #expect(checked.items["full-product-id"] == "fail")
        // Only `.pro` is passed: the other case is not a request.
        #expect(checked.fired("requested-product-missing").isEmpty)
    }

    /// cordova-plugin-purchase: "the store.register.id field must be *exactly* the same as the
    /// product id"; the app had registered `<bundle ID>.someproduct1`.
    @Test func aCordovaRegistrationWithTheBundleID() throws {
        let descriptor = Descriptor(bundleID: "org.chrisschaub.app", app: "sources: [www]", products: [Self.product("someproduct1")])
        let checked = try Self.check(descriptor.text, files: ["www/js/index.js": """
            document.addEventListener('deviceready', function () {
                store.register({
                    id: 'org.chrisschaub.app.someproduct1',
                    alias: 'some product',
                    type: store.NON_CONSUMABLE
                });
                store.refresh();
            }, false);
            """])
        let finding = try #require(checked.only("bundle-id-prefixed-product-id"), "\(checked.text)")
        #expect(finding.message.hasSuffix("did you mean `someproduct1`?"))
        #expect(finding.file?.hasSuffix("www/js/index.js") == true && finding.line == 3, "\(finding)")
        // The literal is the whole ID: `--fix` can make the edit.
        #expect(checked.text.contains("`iapdoctor check --fix` applies it"), "\(checked.text)")
    }

    /// RevenueCat Capacitor: a new offering's products were missing on iOS only; the scheme ran
    /// a local (not synced) StoreKit configuration file written before those products existed.
    @Test func aLocalStoreKitFileWithoutTheNewProducts() throws {
        let fixture = ProjectFixture()
        let settings = ["PRODUCT_BUNDLE_IDENTIFIER": "com.alextreppass.pets", "DEVELOPMENT_TEAM": "7DW89RZKLY", "IPHONEOS_DEPLOYMENT_TARGET": "15.0"]
        fixture.targets = [.init(name: "App", settings: ["Debug": settings, "Release": settings])]
        fixture.writeProject()
        fixture.writeStoreKit("App/Products.storekit", products: [], subscriptionGroup: (name: "Pets Plus", ids: ["plus_499_1m"]))
        fixture.writeScheme("App", runs: "App", storeKit: "../../App/Products.storekit")
        fixture.write("package.json", #"{ "dependencies": { "@capacitor/ios": "^6.0.0", "@revenuecat/purchases-capacitor": "^9.2.2" } }"#)
        fixture.write("src/paywall.ts", """
            import { Purchases } from '@revenuecat/purchases-capacitor';
            export async function loadPaywall() {
              const offerings = await Purchases.getOfferings();
              return offerings.current?.availablePackages ?? [];
            }
            """)
        var descriptor = Descriptor(
            environment: "xcode", bundleID: "com.alextreppass.pets",
            app: "xcodeproj: \(fixture.projectName).xcodeproj\nscheme: \(fixture.projectName).xcodeproj/xcshareddata/xcschemes/App.xcscheme\nsources: [src]")
        descriptor.products = [Self.product("plus_499_1m", type: "consumable"), Self.product("dev_699_1m", type: "consumable")]
        fixture.write("project.yaml", descriptor.text)
        let offerings = try runIAPDoctor(["check", fixture.folder + "/project.yaml"]).output
        // The offerings' IDs are RevenueCat's: the file's gap is named, and the help says how to
        // make it a check of the request.
        #expect(offerings.contains("note[storekit-descriptor-mismatch]: `dev_699_1m` is in App Store Connect (the descriptor's `products`) but not in `Products.storekit`"), "\(offerings)")
        #expect(offerings.contains("help: add it to `Products.storekit` in Xcode, or sync the file with App Store Connect"))
        #expect(offerings.contains("help: save the RevenueCat project with `iapdoctor revenuecat pull -o revenuecat-snapshot.json` and set `revenuecat.snapshot: revenuecat-snapshot.json`, so its offerings' products are checked; or list them under `requests` in the descriptor"))
        #expect(offerings.contains("Which product IDs do the app's RevenueCat offerings hold? They are what StoreKit is asked for (`iapdoctor revenuecat pull -o revenuecat-snapshot.json` reads them into a snapshot for `check --revenuecat`). Set `requests`."), "\(offerings)")
        // With the offering's IDs listed, as the help says: an error, and the product invalid.
        fixture.write("project.yaml", descriptor.text + "\nrequests: [plus_499_1m, dev_699_1m]\n")
        let listed = try Self.check(descriptor.text + "\nrequests: [plus_499_1m, dev_699_1m]\n", in: fixture.files)
        let finding = try #require(listed.only("storekit-configuration-incomplete"), "\(listed.text)")
        #expect(finding.message.hasPrefix("`dev_699_1m` is not in `Products.storekit`"), "\(finding.message)")
        #expect(listed.verdicts["dev_699_1m"] == "invalid")
        #expect(listed.verdicts["plus_499_1m"] != "invalid")
    }
}
