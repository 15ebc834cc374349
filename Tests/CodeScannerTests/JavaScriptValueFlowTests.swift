import Foundation
import CodeScanner
import Testing
import TestSupport

/// React Native, Expo, Capacitor and Cordova apps: the IDs their JavaScript and TypeScript hand
/// to the purchase libraries, in the shapes apps write them.
@Suite("JavaScript value flow")
struct JavaScriptValueFlowTests {
    @Test func reactNativeIAPWithConstantsInAnotherFileAndPlatformSelect() {
        let files = [
            ("src/iap/skus.ts", #"""
            import { Platform } from 'react-native';

            export const SKUS = {
              monthly: 'com.acme.app.monthly',
              yearly: `com.acme.app.yearly`,
            } as const;

            export const itemSkus: string[] = Platform.select({
              ios: ['com.acme.app.coins100', "com.acme.app.coins500"],
              android: ['coins_100', 'coins_500'],
            }) ?? [];
            """#),
            ("src/iap/store.tsx", #"""
            import { getProducts, getSubscriptions, requestPurchase, useIAP } from 'react-native-iap';
            import { SKUS, itemSkus } from './skus';

            export async function load() {
              const products = await getProducts({ skus: itemSkus });
              const subscriptions = await getSubscriptions({ skus: Object.values(SKUS) });
              await requestPurchase({ request: { ios: { sku: SKUS.monthly } } })
            }
            """#),
        ]
        #expect(requestedIDs(files) == [
            // Requested twice: by the subscriptions fetch and by the purchase.
            "src/iap/skus.ts:4 com.acme.app.monthly", "src/iap/skus.ts:4 com.acme.app.monthly", "src/iap/skus.ts:5 com.acme.app.yearly",
            "src/iap/skus.ts:9 com.acme.app.coins100", "src/iap/skus.ts:9 com.acme.app.coins500",
        ])
    }

    @Test func theOldArrayFormEnumsAndTheIOSSideOfPlatformOS() {
        let files = [("App.js", #"""
        import * as RNIap from 'react-native-iap';
        // getProducts(['commented.out'])
        const note = "getProducts(['in.a.string'])";
        const re = /getProducts\(['"]x['"]\)/g;
        enum Tier { Gold = 'com.acme.tier.gold', Silver = "com.acme.tier.silver" }
        const extra = Platform.OS === 'ios' ? 'com.acme.ios.extra' : 'android_extra'
        async function fetch() {
          const items = await RNIap.getProducts([Tier.Gold, Tier.Silver, extra]);
        }
        """#)]
        #expect(requestedIDs(files) == [
            "App.js:5 com.acme.tier.gold", "App.js:5 com.acme.tier.silver", "App.js:6 com.acme.ios.extra",
        ])
    }

    @Test func expoAndRevenueCatAndCapacitor() {
        let files = [
            ("app/purchases.js", #"""
            import * as InAppPurchases from 'expo-in-app-purchases';
            const PREFIX = 'com.acme.expo'
            export const IDS = [`${PREFIX}.pro`, PREFIX + '.coins']
            export async function load() {
              const { results } = await InAppPurchases.getProductsAsync(IDS)
            }
            """#),
            ("src/rc.ts", #"""
            import Purchases from 'react-native-purchases';
            export async function buy() {
              await Purchases.getProducts(['com.acme.rc.lifetime']);
              const offerings = await Purchases.getOfferings();
            }
            """#),
            ("web/src/billing.ts", #"""
            import { Purchases } from '@revenuecat/purchases-capacitor';
            export async function products() {
              return Purchases.getProducts({ productIdentifiers: ['com.acme.cap.pro'] });
            }
            """#),
        ]
        let scan = SourceScanner.scan(sources: files)
        #expect(scan.requests.map { "\($0.location.file):\($0.location.line) \($0.id)" } == [
            // A concatenation is where its first literal is; an interpolation where the template is.
            "app/purchases.js:2 com.acme.expo.coins", "app/purchases.js:3 com.acme.expo.pro",
            "src/rc.ts:3 com.acme.rc.lifetime", "web/src/billing.ts:3 com.acme.cap.pro",
        ])
        #expect(scan.unresolved.map(\.kind) == [.offerings])
        #expect(scan.importedLibraries == ["@revenuecat/purchases-capacitor", "expo-in-app-purchases", "react-native-purchases"])
    }

    @Test func anIDFromTheServerIsAnUnresolvedCallShownAsWritten() {
        let files = [("src/shop.tsx", #"""
        import { useIAP } from 'expo-iap';
        export function Shop({ skus }: { skus: string[] }) {
          const { fetchProducts } = useIAP();
          useEffect(() => { fetchProducts({ skus, type: 'inapp' }) }, [skus]);
          return <Text>Don't buy</Text>;
        }
        """#)]
        let scan = SourceScanner.scan(sources: files)
        #expect(scan.requests.isEmpty)
        #expect(scan.unresolved.map(\.argument) == ["skus"])
        #expect(scan.unresolved.first?.location.line == 4)
    }
}

extension JavaScriptValueFlowTests {
    @Test func spreadListsAreTheirElements() {
        let files = [
            ("src/constants.ts", #"""
            export const CONSUMABLES: string[] = ['com.acme.c1', 'com.acme.c2'];
            export const SUBSCRIPTIONS = ['com.acme.s1'];
            export const ALL = [...CONSUMABLES, ...SUBSCRIPTIONS];
            """#),
            ("src/shop.tsx", #"""
            import { useIAP } from 'react-native-iap';
            export function Shop() {
              const { fetchProducts } = useIAP();
              useEffect(() => { fetchProducts({ skus: ALL, type: 'all' }) }, []);
            }
            """#),
        ]
        #expect(requestedIDs(files) == ["src/constants.ts:1 com.acme.c1", "src/constants.ts:1 com.acme.c2", "src/constants.ts:2 com.acme.s1"])
    }
}

extension JavaScriptValueFlowTests {
    /// react-native-config's `Config.KEY`, Expo's `process.env.KEY` and react-native-dotenv's
    /// Tests inside a scanned folder are not the app's requests: `__tests__/`, `*.test.tsx`,
    /// Dart's `test/` and `*_test.dart`, Xcode's `AppTests/`; a test file named as a source is read.
    @Test func testsInAScannedFolderAreNotRequests() throws {
        let fixture = FixtureFolder("sources")
        fixture.write("src/store.ts", "import { getProducts } from 'react-native-iap';\nexport const load = () => getProducts({ skus: ['com.acme.pro'] });\n")
        fixture.write("src/__tests__/store.ts", "import { getProducts } from 'react-native-iap';\ngetProducts({ skus: ['product1'] });\n")
        fixture.write("src/store.test.tsx", "import { getProducts } from 'react-native-iap';\ngetProducts({ skus: ['product2'] });\n")
        fixture.write("src/test/store_test.dart", "import 'package:in_app_purchase/in_app_purchase.dart';\nfinal f = InAppPurchase.instance.queryProductDetails({'fake'});\n")
        fixture.write("src/AppTests/StoreTests.swift", "import StoreKit\nlet p = Product.products(for: [\"com.acme.fake\"])\n")
        fixture.write("src/Contest.swift", "import StoreKit\nlet q = Product.products(for: [\"com.acme.contest\"])\n")
        let scan = SourceScanner.scan(paths: ["src"], baseDirectory: fixture.folder, root: fixture.folder)
        #expect(scan.requests.map(\.id).sorted() == ["com.acme.contest", "com.acme.pro"])
        let named = SourceScanner.scan(paths: ["src/store.test.tsx"], baseDirectory: fixture.folder, root: fixture.folder)
        #expect(named.requests.map(\.id) == ["product2"])
    }

    /// `@env`, read from the `.env` beside the scanned `src/`; a template gives no value, but the
    /// note on a request that reads one of its keys says what it holds.
    @Test func envFilesGiveTheValuesTheCodeReads() throws {
        let fixture = FixtureFolder("sources")
        fixture.write(".env", "# store\nIAP_MONTHLY=com.acme.rn.monthly\nexport IAP_YEARLY = \"com.acme.rn.yearly\"\nEXPO_PUBLIC_COINS='com.acme.rn.coins' # comment\n")
        fixture.write(".env.example", "IAP_LIFETIME=com.acme.rn.lifetime\n")
        fixture.write("src/store.ts", #"""
        import Config from 'react-native-config';
        import { IAP_YEARLY } from '@env';
        import { getProducts } from 'react-native-iap';
        export const load = () => getProducts({ skus: [Config.IAP_MONTHLY, IAP_YEARLY, process.env.EXPO_PUBLIC_COINS, Config.IAP_LIFETIME] });
        """#)
        let scan = SourceScanner.scan(paths: ["src"], baseDirectory: fixture.folder, root: fixture.folder)
        #expect(scan.requests.map { "\(($0.location.file as NSString).lastPathComponent):\($0.location.line):\($0.location.column) \($0.id)" } == [
            ".env:2:13 com.acme.rn.monthly", ".env:3:22 com.acme.rn.yearly", ".env:4:20 com.acme.rn.coins",
        ])
        #expect(scan.unresolved.map(\.kind) == [.partial])
        #expect(scan.unresolved.first?.reason.contains(
            "`Config.IAP_LIFETIME` comes from an `.env` file that is not in the repository; the template `.env.example` (line 1) has `IAP_LIFETIME=com.acme.rn.lifetime`") == true,
            "\(scan.unresolved.first?.reason ?? "")")
    }

    /// A template named for its environment (`.env.dev.example`) is one too; a file whose name
    /// only starts like one is not.
    @Test func templatesNamedForAnEnvironmentAreRead() throws {
        let fixture = FixtureFolder("sources")
        fixture.write(".env.dev.example", "PURCHASE_SKU_IOS='com.acme.rn.year'\n")
        fixture.write(".env.examples.bak", "OTHER_SKU=com.acme.rn.other\n")
        fixture.write("src/store.ts", #"""
        import Config from 'react-native-config';
        import { getProducts } from 'react-native-iap';
        export const load = () => getProducts({ skus: [Config.PURCHASE_SKU_IOS, Config.OTHER_SKU] });
        """#)
        let scan = SourceScanner.scan(paths: ["src"], baseDirectory: fixture.folder, root: fixture.folder)
        #expect(scan.requests.isEmpty)
        let reason = scan.unresolved.first?.reason ?? ""
        #expect(reason.contains("the template `.env.dev.example` (line 1) has `PURCHASE_SKU_IOS=com.acme.rn.year`"), "\(reason)")
        #expect(!reason.contains("com.acme.rn.other"), "\(reason)")
    }
}

extension JavaScriptValueFlowTests {
    /// An app's own `getProducts` or a state store's `register` is not a purchase library's;
    /// cordova-plugin-purchase is a global, known by what the file names.
    @Test func callsOfTheSameNameInFilesWithoutTheLibraryAreNotRequests() {
        let files = [
            ("src/catalog.ts", #"""
            import { api } from './api';
            export const getProducts = (ids: string[]) => api.get('/products', { ids });
            export const load = () => getProducts(['shoe-42', 'shirt-7']);
            store.register({ id: 'cart', reducer });
            """#),
            ("www/js/shop.js", #"""
            const { store, ProductType, Platform } = CdvPurchase;
            store.register({ id: 'com.acme.cordova.pro', type: ProductType.NON_CONSUMABLE, platform: Platform.APPLE_APPSTORE });
            const MONTHLY = 'com.acme.cordova.monthly';
            store.register([
              { id: MONTHLY, type: ProductType.PAID_SUBSCRIPTION, platform: Platform.APPLE_APPSTORE },
              { id: 'monthly_android', type: ProductType.PAID_SUBSCRIPTION, platform: Platform.GOOGLE_PLAY },
              { id: 'com.acme.cordova.coins', type: ProductType.CONSUMABLE },
            ]);
            """#),
            // Before version 13 the plugin's global is `store`, its product types on it.
            ("www/js/index.js", #"""
            function onDeviceReady() {
              store.register({
                id: 'com.acme.cordova.life',
                alias: 'extra life',
                type: store.CONSUMABLE
              });
            }
            """#),
        ]
        #expect(requestedIDs(files) == [
            "www/js/index.js:3 com.acme.cordova.life",
            "www/js/shop.js:2 com.acme.cordova.pro", "www/js/shop.js:3 com.acme.cordova.monthly", "www/js/shop.js:7 com.acme.cordova.coins",
        ])
    }
}

extension JavaScriptValueFlowTests {
    /// `store.register(products)` over a constant list of the same file: each object's platform
    /// is read, as it is for a list written in the call.
    @Test func cordovaRegistersAConstantList() {
        let files = [("purchase.js", #"""
        import "cordova-plugin-purchase";
        const { store, ProductType, Platform } = CdvPurchase;
        const products = [
          { id: 'com.acme.hints', type: ProductType.CONSUMABLE, platform: Platform.APPLE_APPSTORE },
          { id: 'hints_android', type: ProductType.CONSUMABLE, platform: Platform.GOOGLE_PLAY },
        ];
        document.addEventListener('deviceready', () => {
          store.register(products);
          store.initialize([Platform.APPLE_APPSTORE]);
        });
        """#)]
        #expect(requestedIDs(files) == ["purchase.js:4 com.acme.hints"])
    }
}

extension JavaScriptValueFlowTests {
    /// A minified bundle is one long line read out of order (a declaration, then its object's
    /// members): columns stay exact, and the scan stays linear (the time limit only stops a
    /// regressed run).
    @Test(.timeLimit(.minutes(1))) func columnsOnALongMinifiedLine() {
        let declarations = (0..<20_000).map { "const O\($0)={k:'com.acme.m\($0)',n:'name'};" }.joined()
        let line = "import{getProducts}from'react-native-iap';\(declarations)getProducts({skus:[O19999.k,O0.k]});"
        let scan = SourceScanner.scan(sources: [("bundle.min.js", line)])
        let first = line.range(of: "'com.acme.m0'")!
        let last = line.range(of: "'com.acme.m19999'")!
        #expect(scan.requests.map(\.location.column) == [
            line.distance(from: line.startIndex, to: first.lowerBound) + 1, line.distance(from: line.startIndex, to: last.lowerBound) + 1,
        ])
    }
}

extension JavaScriptValueFlowTests {
    @Test func eachObjectsPropertyThroughMap() {
        let files = [("src/plans.ts", #"""
        import { fetchProducts } from 'expo-iap';
        export const PLANS = [
          { id: 'com.acme.plan.monthly', title: 'Monthly' },
          { id: 'com.acme.plan.yearly', title: 'Yearly' },
        ];
        const load = async () => {
          await fetchProducts({ skus: PLANS.map((plan) => plan.id), type: 'subs' });
          await fetchProducts({ skus: PLANS.map(({ id }) => id) });
        };
        """#)]
        // Both calls are the same entry point: each ID is reported once for it.
        #expect(requestedIDs(files) == ["src/plans.ts:3 com.acme.plan.monthly", "src/plans.ts:4 com.acme.plan.yearly"])
        #expect(SourceScanner.scan(sources: files).unresolved.isEmpty)
    }
}

extension JavaScriptValueFlowTests {
    /// A function's statements before a request run first: a local set, set again, or set in the
    /// branch of a platform test that iOS takes reaches the request; the other branch does not.
    @Test func localsSetBeforeARequestAndPlatformBranches() {
        let files = [("src/store.ts", #"""
        import { Platform } from 'react-native';
        import { getProducts, requestPurchase } from 'react-native-iap';
        export async function loadAll() {
          let skus: string[] = [];
          skus = ['com.shop.coins'];
          await getProducts({ skus });
        }
        export const loadPlatform = async () => {
          let skus = [];
          if (Platform.OS === 'ios') {
            skus = ['com.shop.pro'];
          } else {
            skus = ['android_pro'];
          }
          await getProducts({ skus: skus });
        };
        async function buy(kind: string) {
          let sku = 'com.shop.gold';
          if (Platform.OS === 'android') { sku = 'android_gold'; } else if (kind === 'big') { sku = 'com.shop.gold.big'; }
          if (Platform.OS !== 'ios') return;
          await requestPurchase({ sku });
        }
        """#)]
        #expect(requestedIDs(files) == [
            "src/store.ts:5 com.shop.coins", "src/store.ts:11 com.shop.pro",
            "src/store.ts:18 com.shop.gold", "src/store.ts:19 com.shop.gold.big",
        ])
        #expect(unresolvedNotes(files) == [])
    }

    /// `push` with one or more elements, a loop over a list with `for … of`, and a platform
    /// `if` without braces: only what iOS runs reaches the request.
    @Test func pushLoopsAndBraceLessPlatformBranches() {
        let files = [("src/store.ts", #"""
        import { Platform } from 'react-native';
        import { fetchProducts } from 'react-native-iap';
        const PLANS = [{ sku: 'com.shop.month' }, { sku: 'com.shop.year' }];
        export async function load() {
          const skus: string[] = [];
          skus.push('com.shop.a', 'com.shop.b');
          for (const plan of PLANS) skus.push(plan.sku);
          if (Platform.OS !== 'ios') skus.push('android_x');
          else skus.push('com.shop.ios');
          await fetchProducts({ skus, type: 'in-app' });
        }
        """#)]
        #expect(requestedIDs(files) == [
            "src/store.ts:3 com.shop.month", "src/store.ts:3 com.shop.year",
            "src/store.ts:6 com.shop.a", "src/store.ts:6 com.shop.b", "src/store.ts:9 com.shop.ios",
        ])
        #expect(unresolvedNotes(files) == [])
    }

    /// Functions, arrow functions and React callbacks that hand a parameter to the library are
    /// followed from their calls, methods too; a Swift function of the same name is not theirs
    /// to call, nor is a module's own unexported function; a call in a ternary is a call, not a
    /// declaration with a return type.
    @Test func aFunctionPassingItsParameterIsFollowedFromItsCalls() {
        let files = [("src/iap.ts", #"""
        import { requestPurchase } from 'react-native-iap';
        export const buy = async (sku: string): Promise<void> => {
          await requestPurchase({ sku });
        };
        const local = async (sku: string) => { await requestPurchase({ sku }); };
        export class Shop {
          async order(productId: string, quantity = 1) {
            await requestPurchase({ sku: productId });
          }
        }
        """#), ("src/screen.tsx", #"""
        import { requestPurchase } from 'react-native-iap';
        import { buy, Shop } from './iap';
        const PRO = 'com.shop.pro';
        export function Screen(shop: Shop, ready: boolean) {
          buy(PRO);
          shop.order('com.shop.coins');
          const onBuy = useCallback((itemId: string) => {
            void requestPurchase({ request: { ios: { sku: itemId } } });
          }, []);
          onBuy('com.shop.gems');
          local('com.shop.not.this.local');
          return ready ? requestPurchase({ sku: 'com.shop.ternary' }) : null;
        }
        """#), ("ios/Plugin.swift", #"""
        func buy(_ value: Int) {}
        func run() { buy(3) }
        """#)]
        #expect(requestedIDs(files) == [
            "src/screen.tsx:3 com.shop.pro", "src/screen.tsx:6 com.shop.coins", "src/screen.tsx:10 com.shop.gems", "src/screen.tsx:12 com.shop.ternary",
        ])
        // `local` is not exported: the call of another file's `local` is not a call of it.
        #expect(unresolvedNotes(files) == [
            "src/iap.ts:5 wrapperWithoutCalls: `local(sku)` hands its parameter to requestPurchase({ sku }), and no call of it with IDs iapdoctor can follow was found",
        ])
    }

    /// A clause of a `switch` with a one-statement `if` (no braces) before a request: the
    /// statements are read as blocks, never past the end of the clause.
    @Test func braceLessStatementsInASwitchBeforeARequest() {
        let files = [("src/shop.tsx", #"""
        import { getProducts, initConnection } from 'react-native-iap';
        const productSkus = ['com.shop.tip'];
        export async function run(operation: string) {
          switch (operation) {
            case 'connect':
              if (await initConnection()) setReady(true);
              return;
            case 'products':
              try {
                const products = await getProducts({ skus: productSkus });
                show(products);
              } catch (error) {
                report(error);
              }
              break;
          }
        }
        """#)]
        #expect(requestedIDs(files) == ["src/shop.tsx:2 com.shop.tip"])
    }
}

extension JavaScriptValueFlowTests {
    /// Unclosed brackets at the end of a file (the shapes the `scripts` fuzz target found):
    /// read to the end, never past it.
    @Test(arguments: [
        "import { getProducts } from 'react-native-iap';\nexport const load = () => getProducts({ skus: Object.values(",
        "import { getProducts } from 'react-native-iap';\nfunction load() {\n  if (Platform.OS === 'ios') {",
        "import { getProducts } from 'react-native-iap';\nfunction load() {\n  if (Platform.OS === 'android') { x = 1 } else if (a) {",
        "import { getProducts } from 'react-native-iap';\nfunction load() {\n  if (ready",
    ])
    func unclosedBracketsAtTheEndOfAFile(_ text: String) {
        let scan = SourceScanner.scan(sources: [("src/cut.ts", text)])
        #expect(scan.requests.isEmpty)
    }

    /// `|| ''` and `?? ''` are the "no product" default: the value before them is what is
    /// requested, and the empty string is no request.
    @Test func anEmptyDefaultIsNoRequest() {
        let files = [
            ("src/constants/iap.ts", """
            import { Platform } from 'react-native';
            export const PREMIUM = Platform.select({ ios: 'com.acme.coins.premium', android: 'coins_premium' }) || '';
            export const EXTRA = process.env.EXTRA_SKU ?? '';
            export const IDS = [PREMIUM, EXTRA];
            """),
            ("src/Upgrade.tsx", """
            import * as RNIap from 'react-native-iap';
            import { IDS } from './constants/iap';
            export const load = async () => { await RNIap.getSubscriptions({ skus: IDS }); };
            """),
        ]
        #expect(requestedIDs(files) == ["src/constants/iap.ts:2 com.acme.coins.premium"])
    }

    /// A parameter used inside a callback without parameters of its own is the function's: the
    /// callers' values are followed.
    @Test func aParameterUsedInACallback() {
        let files = [
            ("src/constants/iap.ts", "export const IDS = ['com.acme.coins.premium'];\n"),
            ("src/Upgrade.tsx", """
            import * as RNIap from 'react-native-iap';
            import { IDS } from './constants/iap';
            function later(cb: () => void) { cb(); }
            export async function load(ids: string[]) {
              later(async () => { await RNIap.getSubscriptions({ skus: ids }); });
            }
            load(IDS);
            """),
        ]
        #expect(requestedIDs(files) == ["src/constants/iap.ts:1 com.acme.coins.premium"])
    }
}

extension JavaScriptValueFlowTests {
    /// A module of the app that re-exports a purchase library is that library to its importers,
    /// by a relative path or by an alias the bundler resolves; renamed imports through it too.
    @Test func aBarrelModuleReexportsItsLibrary() {
        let files = [
            ("src/app/domain/iap/services/iapModule.tsx", #"""
            export * from 'react-native-iap';
            """#),
            // A white-label brand's copy, put in place at build time: the alias may name either.
            ("white_label/brands/acme/js/app/domain/iap/services/iapModule.tsx", #"""
            export * from 'react-native-iap'
            """#),
            ("src/app/domain/iap/services/offers.ts", #"""
            import { Platform } from 'react-native';
            import { getSubscriptions as loadSubscriptions } from '/app/domain/iap/services/iapModule';
            const IOS_OFFERS = ['com.acme.cloud.standard_monthly', 'com.acme.cloud.premium_monthly'];
            const ANDROID_OFFERS = ['standard_android'];
            export const SKUS = Platform.OS === 'ios' ? IOS_OFFERS : ANDROID_OFFERS;
            export async function offers() {
              return loadSubscriptions({ skus: SKUS });
            }
            """#),
            ("src/screens/tips.ts", #"""
            import { getProducts } from '../app/domain/iap/services/iapModule';
            export const load = () => getProducts({ skus: ['com.acme.cloud.tip'] });
            """#),
            ("src/screens/other.ts", #"""
            import { getProducts } from './localHelpers';
            export const notALibrary = () => getProducts({ skus: ['not.a.request'] });
            """#),
        ]
        #expect(requestedIDs(files) == [
            "src/app/domain/iap/services/offers.ts:3 com.acme.cloud.standard_monthly",
            "src/app/domain/iap/services/offers.ts:3 com.acme.cloud.premium_monthly",
            "src/screens/tips.ts:2 com.acme.cloud.tip",
        ])
    }
}

extension JavaScriptValueFlowTests {
    /// A package named like a purchase library that iapdoctor does not read is named, so the
    /// check does not say the app sells nothing; "subscription" alone (GraphQL) is not such a name.
    @Test func anUnknownPurchasePackageIsNamed() {
        let scan = SourceScanner.scan(sources: [
            ("src/services/upgrade.ts", #"""
            import { CapacitorInAppPurchase } from '@acme/capacitor-in-app-purchase';
            import { SubscriptionClient } from 'subscriptions-transport-ws';
            export const buy = () => CapacitorInAppPurchase.getProduct({ productId: 'com.acme.pro' });
            """#),
            ("lib/store.dart", #"""
            import 'package:acme_iap/acme_iap.dart';
            import 'package:graphql_subscriptions/client.dart';
            """#),
        ])
        #expect(scan.unreadLibraries == ["@acme/capacitor-in-app-purchase", "acme_iap"])
        #expect(scan.requests.isEmpty)
    }
}

extension JavaScriptValueFlowTests {
    /// cordova-plugin-purchase's `store.register(definitions)` over objects made from a list of
    /// IDs by `map`: the list's IDs, unless the objects are another store's.
    @Test func registeredObjectsMappedFromAListOfIDs() {
        let files = [("client/src/lib/iap.ts", #"""
        export const TIP_IDS = ['com.acme.chapel.tip_small', 'com.acme.chapel.tip_large'];
        const ANDROID_IDS = ['tip_android'];
        export function setup(store) {
          const definitions: CdvProductDefinition[] = TIP_IDS.map(id => ({
            id,
            type: CdvPurchase.ProductType.CONSUMABLE,
            platform: CdvPurchase.Platform.APPLE_APPSTORE
          }));
          store.register(definitions);
          const others = ANDROID_IDS.map((sku) => ({ id: sku, platform: CdvPurchase.Platform.GOOGLE_PLAY }));
          store.register(others);
        }
        """#)]
        #expect(requestedIDs(files) == ["client/src/lib/iap.ts:1 com.acme.chapel.tip_small", "client/src/lib/iap.ts:1 com.acme.chapel.tip_large"])
    }

    /// An early exit on a platform test: after `if (Platform.OS === 'ios') return;` the code is
    /// Android's, and its IDs are no iOS request; after `!== 'ios'` it is iOS's.
    @Test func earlyExitsOnAPlatformTest() {
        let files = [("src/shop.ts", #"""
        import { Platform } from 'react-native';
        import { getProducts } from 'react-native-iap';
        export async function loadAndroid() {
          if (Platform.OS === 'ios') return;
          await getProducts({ skus: ['android_coins'] });
        }
        export async function loadApple() {
          if (Platform.OS !== 'ios') {
            throw new Error('iOS only');
          }
          await getProducts({ skus: ['com.shop.coins'] });
        }
        """#)]
        #expect(requestedIDs(files) == ["src/shop.ts:11 com.shop.coins"])
    }
}

