import CodeScanner
import Testing

/// The evaluator's general rules (docs/development.md, "What the scanner evaluates"), each in
/// the languages it applies to: conditions that fold for the iOS app, calls that evaluate to
/// their callee's returns, pass-through wrappers and build-time defaults.
@Suite("Value-flow semantics")
struct SemanticsTests {
    // MARK: Conditions fold for the iOS app

    @Test func aPlatformTestHeldInANamePicksTheIOSSide() {
        let files = [("src/iap.ts", #"""
        import { Platform } from 'react-native';
        import { getProducts } from 'react-native-iap';
        const IS_IOS = Platform.OS === 'ios';
        const IS_ANDROID = Platform.OS !== "ios";
        const skus = IS_IOS ? ['com.acme.ios.coins'] : ['com.acme.android.coins'];
        const more = !IS_ANDROID ? ['com.acme.ios.gems'] : ['com.acme.android.gems'];
        export async function load() {
          await getProducts({ skus });
          await getProducts({ skus: more });
        }
        """#)]
        #expect(requestedIDs(files) == ["src/iap.ts:5 com.acme.ios.coins", "src/iap.ts:6 com.acme.ios.gems"])
    }

    @Test func aDartGetterHoldingAPlatformTestPicksTheAppleSide() {
        let files = [("lib/iap.dart", #"""
        import 'dart:io';
        import 'package:in_app_purchase/in_app_purchase.dart';
        class Iap {
          bool get _isApple => Platform.isIOS || Platform.isMacOS;
          Set<String> get _ids => _isApple ? {'apple.pro'} : {'google.pro'};
          Future<void> load() async {
            await InAppPurchase.instance.queryProductDetails(_ids);
          }
        }
        """#)]
        #expect(requestedIDs(files) == ["lib/iap.dart:5 apple.pro"])
    }

    @Test func platformOSAsAValueIsIOS() {
        let files = [
            ("src/config/iap.ts", #"""
            import { Platform } from 'react-native';
            const PREFIX = 'com.acme';
            export const IAP_SUBSCRIPTIONS = {
              monthly: { ios: `${PREFIX}.monthly`, android: 'monthly_android' },
              yearly: { ios: `${PREFIX}.yearly`, android: 'yearly_android' },
            };
            export const COINS = { ios: ['com.acme.coins'], android: ['coins_android'] };
            export function getSubscriptionSkus() {
              return Object.values(IAP_SUBSCRIPTIONS).map(p => p[Platform.OS]);
            }
            """#),
            ("src/store.ts", #"""
            import { Platform } from 'react-native';
            import { getProducts, getSubscriptions } from 'react-native-iap';
            import { getSubscriptionSkus, COINS } from './config/iap';
            export async function load() {
              await getSubscriptions({ skus: getSubscriptionSkus() });
              await getProducts({ skus: COINS[Platform.OS] });
            }
            """#),
        ]
        #expect(requestedIDs(files) == ["src/config/iap.ts:4 com.acme.monthly", "src/config/iap.ts:5 com.acme.yearly", "src/config/iap.ts:7 com.acme.coins"])
    }

    /// `&&` and `||` are three-valued: a part the files cannot tell (`__DEV__`) leaves the
    /// condition open unless the other part decides it.
    @Test func conditionsCombineThreeValued() {
        let files = [("src/iap.ts", #"""
        import { Platform } from 'react-native';
        import { getProducts } from 'react-native-iap';
        const open = Platform.OS === 'ios' && !__DEV__ ? ['ios.release'] : ['ios.debug'];
        const decided = Platform.OS === 'android' || Platform.OS === 'web' ? ['web.only'] : ['ios.store'];
        const closed = Platform.OS === 'android' && __DEV__ ? ['android.debug'] : ['ios.any'];
        export async function load() {
          await getProducts({ skus: open });
          await getProducts({ skus: decided });
          await getProducts({ skus: closed });
        }
        """#)]
        #expect(requestedIDs(files) == [
            "src/iap.ts:3 ios.release", "src/iap.ts:3 ios.debug", "src/iap.ts:4 ios.store", "src/iap.ts:5 ios.any",
        ])
    }

    /// A `true` written in the code is a flag the app may set: both sides stay possible.
    @Test func aFlagWrittenInTheCodeIsNotAKnownTruth() {
        let files = [("src/iap.ts", #"""
        import { getProducts } from 'react-native-iap';
        let useTestProducts = false;
        const skus = useTestProducts ? ['test.coins'] : ['shop.coins'];
        export async function load() { await getProducts({ skus }); }
        """#)]
        #expect(requestedIDs(files) == ["src/iap.ts:3 test.coins", "src/iap.ts:3 shop.coins"])
    }

    @Test func aRequestInABranchIOSDoesNotRunIsNotMade() {
        let files = [("src/iap.ts", #"""
        import { Platform } from 'react-native';
        import { getProducts } from 'react-native-iap';
        const isAndroid = Platform.OS === 'android';
        export async function load() {
          if (isAndroid) {
            await getProducts({ skus: ['droid.coins'] });
          } else if (Platform.OS === 'web') {
            await getProducts({ skus: ['web.coins'] });
          } else {
            await getProducts({ skus: ['ios.coins'] });
          }
          if (!isAndroid) { await getProducts({ skus: ['ios.gems'] }); }
        }
        """#), ("lib/store.dart", #"""
        import 'dart:io';
        import 'package:in_app_purchase/in_app_purchase.dart';
        Future<void> load() async {
          final android = Platform.isAndroid;
          if (android) {
            await InAppPurchase.instance.queryProductDetails({'google.tip'});
          } else {
            await InAppPurchase.instance.queryProductDetails({'apple.tip'});
          }
        }
        """#)]
        #expect(requestedIDs(files) == ["lib/store.dart:8 apple.tip", "src/iap.ts:10 ios.coins", "src/iap.ts:12 ios.gems"])
    }

    @Test func aComparisonOfKnownStringsIsATruth() {
        let files = [("src/iap.ts", #"""
        import { Platform } from 'react-native';
        import { getProducts } from 'react-native-iap';
        const platform = Platform.OS;
        const STORE = 'apple';
        const skus = platform === 'android' ? ['droid.coins'] : ['ios.coins'];
        export async function load(kind) {
          if (platform !== 'ios') {
            await getProducts({ skus: ['web.gems'] });
          }
          if (STORE == 'apple') { await getProducts({ skus: ['apple.gems'] }); }
          await getProducts({ skus });
          await getProducts({ skus: kind === 'sub' ? ['maybe.sub'] : ['maybe.coins'] });
        }
        """#), ("Sources/Store.swift", #"""
        import StoreKit
        let flavor = "lite"
        func load() async throws {
            let ids = flavor == "pro" ? ["com.acme.pro.unlock"] : ["com.acme.lite.unlock"]
            _ = try await Product.products(for: ids)
        }
        """#)]
        #expect(requestedIDs(files) == [
            "Sources/Store.swift:4 com.acme.lite.unlock", "src/iap.ts:5 ios.coins", "src/iap.ts:10 apple.gems",
            "src/iap.ts:12 maybe.sub", "src/iap.ts:12 maybe.coins",
        ])
    }

    /// An arrow given to a list method is a closure applied to each element, whatever its body:
    /// a subscript by a name, a cast to literal types, a block with `return`.
    @Test func anArrowGivenToAListMethodIsAppliedToEachElement() {
        let files = [("src/shop/catalog.ts", #"""
        import { Platform } from 'react-native';
        const PREFIX = 'com.acme.trails';
        export const PLANS = {
          HIKER: { ios: `${PREFIX}.hiker_monthly`, android: 'hiker_android', tier: 1 },
          GUIDE: { ios: `${PREFIX}.guide_monthly`, android: 'guide_android', tier: 2 },
        } as const;
        export function planSkus(): string[] {
          const os = Platform.OS;
          if (os !== 'ios' && os !== 'android') return [];
          return Object.values(PLANS).map(
            (plan) => plan[os as 'ios' | 'android'],
          );
        }
        export function guideSkus(): string[] {
          return Object.values(PLANS).map((plan: Plan) => {
            return plan.ios;
          });
        }
        """#), ("src/shop/useShop.ts", #"""
        import { fetchProducts } from 'expo-iap';
        import { planSkus, guideSkus } from './catalog';
        export function useShop() {
          const load = async () => {
            await fetchProducts({ skus: planSkus(), type: 'subs' });
            await fetchProducts({ skus: guideSkus(), type: 'subs' });
          };
        }
        """#)]
        #expect(requestedIDs(files) == ["src/shop/catalog.ts:4 com.acme.trails.hiker_monthly", "src/shop/catalog.ts:5 com.acme.trails.guide_monthly"])
        #expect(unresolvedNotes(files) == [])
    }

    /// A `return` in a branch that always runs ends the body: what follows it is not returned.
    @Test func aReturnUnderAKnownTruthEndsTheBody() {
        let files = [("lib/iap.dart", #"""
        import 'dart:io';
        import 'package:in_app_purchase/in_app_purchase.dart';
        bool get isApple => Platform.isIOS || Platform.isMacOS;
        Set<String> ids() {
          if (isApple) {
            return {'apple.x'};
          }
          return {'google.x'};
        }
        Set<String> others() {
          if (!isApple) {
            return {'google.y'};
          }
          return {'apple.y'};
        }
        Future<void> load() async {
          await InAppPurchase.instance.queryProductDetails(ids());
          await InAppPurchase.instance.queryProductDetails(others());
        }
        """#)]
        #expect(requestedIDs(files) == ["lib/iap.dart:6 apple.x", "lib/iap.dart:14 apple.y"])
    }

    // MARK: Build-time constants

    @Test func aDartEnvironmentConstantIsItsDefault() {
        let files = [("lib/iap.dart", #"""
        import 'package:in_app_purchase/in_app_purchase.dart';
        class Ids {
          static const basic = String.fromEnvironment('IAP_BASIC_ID', defaultValue: 'shop.basic');
          static const useTest = bool.fromEnvironment('USE_TEST_IDS', defaultValue: false);
          static const _test = {'android.test.purchased'};
          static Set<String> get all => useTest ? _test : {basic, 'shop.plus'};
        }
        Future<void> load() async {
          await InAppPurchase.instance.queryProductDetails(Ids.all);
        }
        """#)]
        #expect(requestedIDs(files) == ["lib/iap.dart:3 shop.basic", "lib/iap.dart:6 shop.plus"])
    }

    // MARK: Calls evaluate to their callee's returns

    @Test func scriptFunctionsReturnTheirValues() {
        let files = [
            ("src/skus.ts", #"""
            import { Platform } from 'react-native';
            export function getSkus(): string[] {
              return Platform.OS === 'ios' ? ['ios.coins'] : ['android.coins'];
            }
            export const getMore = () => ['js.more'];
            export const pick = (plan: string) => plan;
            """#),
            ("src/store.ts", #"""
            import { getProducts } from 'react-native-iap';
            import { getSkus, getMore, pick } from './skus';
            function local() { return ['js.local']; }
            const skus = getSkus();
            export async function load() {
              await getProducts({ skus });
              await getProducts({ skus: [...getMore(), ...local(), pick('js.picked')] });
            }
            """#),
            ("lib/iap.dart", #"""
            import 'package:in_app_purchase/in_app_purchase.dart';
            Set<String> ids() {
              return {'dart.top'};
            }
            class Store {
              Set<String> more() { return {'dart.method'}; }
              void log() { print('dart.not.returned'); }
              Future<void> load() async {
                await InAppPurchase.instance.queryProductDetails(ids().union(more()));
              }
            }
            """#),
        ]
        #expect(requestedIDs(files) == [
            "lib/iap.dart:3 dart.top", "lib/iap.dart:6 dart.method", "src/skus.ts:3 ios.coins", "src/skus.ts:5 js.more",
            "src/store.ts:3 js.local", "src/store.ts:7 js.picked",
        ])
    }

    @Test func reactsUseMemoPassesItsValueThrough() {
        let files = [("src/Shop.tsx", #"""
        import React, { useMemo, useEffect } from 'react';
        import { useIAP } from 'react-native-iap';
        export function Shop() {
          const { getProducts } = useIAP();
          const skus = useMemo(() => ['shop.gems', 'shop.gold'], []);
          const subs = React.useMemo(() => {
            return ['shop.monthly'];
          }, []);
          useEffect(() => { getProducts({ skus: [...skus, ...subs] }); }, [skus]);
        }
        """#)]
        #expect(requestedIDs(files) == ["src/Shop.tsx:5 shop.gems", "src/Shop.tsx:5 shop.gold", "src/Shop.tsx:7 shop.monthly"])
    }
}

extension SemanticsTests {
    /// A singleton made by a private named constructor, its method building a key into a
    /// constant map: an unknown key gives every value of the map.
    @Test func aDartSingletonsMethodOverAConstantMap() {
        let files = [
            ("lib/purchase/registry.dart", #"""
            class SubscriptionRegistry {
              SubscriptionRegistry._();
              static final SubscriptionRegistry instance = SubscriptionRegistry._();
              static const Map<String, String> _ids = {
                'pro|monthly': 'com.acme.pro.monthly',
                'pro|yearly': 'com.acme.pro.yearly',
              };
              String productIdFor(String tier, String period) {
                return _ids['$tier|$period']!;
              }
            }
            """#),
            ("lib/checkout.dart", #"""
            import 'package:in_app_purchase/in_app_purchase.dart';
            Future<void> pay(String tier, String period) async {
              final reg = SubscriptionRegistry.instance;
              final productId = reg.productIdFor(tier, period);
              await InAppPurchase.instance.queryProductDetails({productId});
            }
            """#),
        ]
        #expect(requestedIDs(files) == ["lib/purchase/registry.dart:5 com.acme.pro.monthly", "lib/purchase/registry.dart:6 com.acme.pro.yearly"])
    }
}

extension SemanticsTests {
    /// `export const constants = { productSkus }`: the shorthand property is the binding.
    @Test func aShorthandPropertyIsTheBindingOfItsName() {
        let files = [
            ("src/constants.js", #"""
            const productSkus = ['com.acme.cards.pro'];
            export const constants = { productSkus, version: 2 };
            """#),
            ("src/Shop.js", #"""
            import * as RNIap from 'react-native-iap';
            import { constants } from './constants';
            export async function load() { await RNIap.getProducts({ skus: constants.productSkus }); }
            """#),
        ]
        #expect(requestedIDs(files) == ["src/constants.js:1 com.acme.cards.pro"])
    }
}

extension SemanticsTests {
    /// A library function imported under another name is still the library's.
    @Test func aRenamedImportCallsTheLibrary() {
        let files = [("src/iap.ts", #"""
        import { getSubscriptions as iapGetSubscriptions, requestPurchase as buy } from 'react-native-iap';
        import { getSubscriptions } from './api';
        export async function load() {
          await iapGetSubscriptions({ skus: ['com.acme.flagship.monthly'] });
          await buy({ sku: 'com.acme.flagship.yearly' });
        }
        """#), ("src/other.ts", #"""
        import { getSubscriptions as fetchPlans } from './api';
        export const plans = () => fetchPlans({ skus: ['not.a.product'] });
        """#)]
        #expect(requestedIDs(files) == ["src/iap.ts:4 com.acme.flagship.monthly", "src/iap.ts:5 com.acme.flagship.yearly"])
    }
}

extension SemanticsTests {
    /// An object keyed by platform read with a name that holds `Platform.OS`: the iOS entry.
    @Test func aKeyHeldInANameReadsThatEntry() {
        let files = [("src/purchases.ts", #"""
        import { Platform } from 'react-native';
        import * as RNIap from 'react-native-iap';
        type ProductSkus = { ios: string[]; android: string[] };
        const productSkus: ProductSkus = {
          ios: ['com.acme.pills.monthly', 'com.acme.pills.lifetime'],
          android: ['monthly_subscription', 'lifetime_access'],
        };
        export async function load() {
          const platform = Platform.OS as keyof ProductSkus;
          await RNIap.getProducts({ skus: productSkus[platform] });
        }
        """#), ("src/tips.ts", #"""
        import * as RNIap from 'react-native-iap';
        const tips = { small: 'com.acme.tip.small', large: 'com.acme.tip.large' };
        export const tip = () => RNIap.requestPurchase({ sku: tips[remoteKey()] });
        """#)]
        #expect(requestedIDs(files) == [
            "src/purchases.ts:5 com.acme.pills.monthly", "src/purchases.ts:5 com.acme.pills.lifetime",
            "src/tips.ts:2 com.acme.tip.small", "src/tips.ts:2 com.acme.tip.large",
        ])
    }
}
