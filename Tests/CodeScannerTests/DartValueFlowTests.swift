import CodeScanner
import Testing

/// Flutter apps: the IDs Dart code hands to the purchase plugins, in the shapes apps write them.
@Suite("Dart value flow")
struct DartValueFlowTests {
    @Test func theInAppPurchasePluginsConstantsAndToSet() {
        let files = [("lib/main.dart", #"""
        import 'package:flutter/material.dart';
        import 'package:in_app_purchase/in_app_purchase.dart';

        const bool _kAutoConsume = true;
        const String _kConsumableId = 'consumable';
        const String _kUpgradeId = "upgrade";
        const List<String> _kProductIds = <String>[
          _kConsumableId,
          _kUpgradeId,
        ];

        class _MyAppState extends State<MyApp> {
          final InAppPurchase _inAppPurchase = InAppPurchase.instance;

          Future<void> initStoreInfo() async {
            final ProductDetailsResponse productDetailResponse =
                await _inAppPurchase.queryProductDetails(_kProductIds.toSet());
          }
        }
        """#)]
        #expect(requestedIDs(files) == ["lib/main.dart:5 consumable", "lib/main.dart:6 upgrade"])
    }

    @Test func setLiteralsStaticFieldsAndOtherFiles() {
        let files = [
            ("lib/store/ids.dart", #"""
            class StoreIds {
              static const String prefix = 'com.acme.coins';
              static const monthly = '$prefix.monthly';
              static const yearly = '${prefix}.yearly';
              static const Set<String> all = {monthly, yearly, r'com.acme.coins.raw\n'};
            }
            """#),
            ("lib/store/store.dart", #"""
            import 'package:in_app_purchase/in_app_purchase.dart';
            class Store {
              Future<void> load() async {
                final response = await InAppPurchase.instance.queryProductDetails(StoreIds.all);
              }
            }
            """#),
        ]
        #expect(requestedIDs(files) == [
            "lib/store/ids.dart:3 com.acme.coins.monthly", "lib/store/ids.dart:4 com.acme.coins.yearly",
            #"lib/store/ids.dart:5 com.acme.coins.raw\n"#,
        ])
    }

    @Test func enumsWithFieldsAndTheIOSSideOfAPlatformChoice() {
        let files = [("lib/products.dart", #"""
        import 'dart:io';
        import 'package:purchases_flutter/purchases_flutter.dart';

        enum Product {
          coins('com.acme.ios.coins', androidId: 'coins_android'),
          pro('com.acme.ios.pro', androidId: 'pro_android');

          const Product(this.iosId, {required this.androidId});
          final String iosId;
          final String androidId;
        }

        Future<void> buy() async {
          final products = await Purchases.getProducts([
            Product.coins.iosId,
            Platform.isIOS ? Product.pro.iosId : Product.pro.androidId,
            Platform.isAndroid ? 'only_android' : 'com.acme.ios.gems',
          ]);
        }
        """#)]
        #expect(requestedIDs(files) == [
            "lib/products.dart:5 com.acme.ios.coins", "lib/products.dart:6 com.acme.ios.pro", "lib/products.dart:17 com.acme.ios.gems",
        ])
    }

    @Test func stringsThatAreNotCodeAndCallsOfOtherPackages() {
        let files = [("lib/a.dart", #"""
        import 'package:in_app_purchase/in_app_purchase.dart';
        // queryProductDetails({'commented.out'});
        const note = "it's queryProductDetails({'in.a.string'})";
        const multi = '''
        queryProductDetails({'in.a.multiline.string'})
        ''';
        Future<void> f(InAppPurchase iap) async {
          await iap.queryProductDetails(<String>{'com.acme.real'});
        }
        """#)]
        #expect(requestedIDs(files) == ["lib/a.dart:8 com.acme.real"])
    }

    @Test func anIDMadeAtRunTimeIsAnUnresolvedCallNotAGuess() {
        let files = [("lib/a.dart", #"""
        import 'package:in_app_purchase/in_app_purchase.dart';
        Future<void> f(List<String> fromServer) async {
          await InAppPurchase.instance.queryProductDetails(fromServer.toSet());
        }
        """#)]
        let scan = SourceScanner.scan(sources: files)
        #expect(scan.requests.isEmpty)
        // `f` hands its parameter on, as a set: a wrapper nobody calls with IDs.
        #expect(scan.unresolved.map(\.api) == ["f(fromServer) → InAppPurchase.queryProductDetails"])
        #expect(scan.unresolved.map(\.kind) == [.wrapperWithoutCalls])
        #expect(scan.importedLibraries == ["in_app_purchase"])
    }
}

extension DartValueFlowTests {
    @Test func anUnresolvedCallShowsItsArgumentAsWritten() {
        let files = [("lib/page.dart", #"""
        import 'package:in_app_purchase/in_app_purchase.dart';
        Future<void> buy() async {
          final productID = widget.plan.iosID;
          await InAppPurchase.instance.queryProductDetails({productID});
        }
        """#)]
        let scan = SourceScanner.scan(sources: files)
        #expect(scan.unresolved.map(\.argument) == ["{productID}"])
        #expect(scan.unresolved.first?.location.line == 4)
    }
}

extension DartValueFlowTests {
    @Test func eachMapsEntryThroughMap() {
        let files = [("lib/plans.dart", #"""
        import 'package:in_app_purchase/in_app_purchase.dart';
        const plans = [
          {'id': 'com.acme.plan.monthly', 'title': 'Monthly'},
          {'id': 'com.acme.plan.yearly', 'title': 'Yearly'},
        ];
        Future<void> load() async {
          await InAppPurchase.instance.queryProductDetails(plans.map((p) => p['id']!).toSet());
        }
        """#)]
        #expect(requestedIDs(files) == ["lib/plans.dart:3 com.acme.plan.monthly", "lib/plans.dart:4 com.acme.plan.yearly"])
    }
}

extension DartValueFlowTests {
    @Test func everyEnumCasesFieldOrNameThroughValues() {
        let files = [("lib/products.dart", #"""
        import 'package:in_app_purchase/in_app_purchase.dart';
        enum Product {
          coins('com.acme.e.coins'),
          pro('com.acme.e.pro');
          const Product(this.id);
          final String id;
        }
        enum Plan { com_acme_monthly, com_acme_yearly }
        Future<void> load() async {
          await InAppPurchase.instance.queryProductDetails(Product.values.map((p) => p.id).toSet());
          await InAppPurchase.instance.queryProductDetails(Plan.values.map((e) => e.name).toSet());
        }
        """#)]
        #expect(requestedIDs(files) == [
            "lib/products.dart:3 com.acme.e.coins", "lib/products.dart:4 com.acme.e.pro",
            "lib/products.dart:8 com_acme_monthly", "lib/products.dart:8 com_acme_yearly",
        ])
    }
}

extension DartValueFlowTests {
    /// Two files' `_kIds` are two constants: each call reads its own file's.
    @Test func privateNamesStayInTheirFile() {
        let files = [
            ("lib/a.dart", #"""
            import 'package:in_app_purchase/in_app_purchase.dart';
            const _kIds = {'com.acme.a'};
            Future<void> a() async { await InAppPurchase.instance.queryProductDetails(_kIds); }
            """#),
            ("lib/b.dart", #"""
            import 'package:in_app_purchase/in_app_purchase.dart';
            const _kIds = {'com.acme.b'};
            Future<void> b() async { await InAppPurchase.instance.queryProductDetails(_kIds); }
            """#),
        ]
        #expect(requestedIDs(files) == ["lib/a.dart:2 com.acme.a", "lib/b.dart:2 com.acme.b"])
    }

    /// A function's statements run before its request: typed and `late` locals, sets changed
    /// with `add`, a loop over a list, and `if (Platform.isIOS)` keeping only the side iOS runs,
    /// with or without braces; a closure's body is a function's.
    @Test func statementsBeforeARequestInAFunctionOrClosure() {
        let files = [("lib/store.dart", #"""
        import 'dart:io';
        import 'package:in_app_purchase/in_app_purchase.dart';

        const extras = ['com.acme.extra.a', 'com.acme.extra.b'];

        class Store {
          Future<void> load() async {
            Set<String> ids = {'com.acme.android.pro'};
            if (Platform.isIOS) {
              ids = {'com.acme.ios.pro'};
            }
            await InAppPurchase.instance.queryProductDetails(ids);
          }

          Future<void> branches() async {
            late final List<String> skus;
            if (Platform.isAndroid) {
              skus = ['com.acme.android.only'];
            } else {
              skus = ['com.acme.ios.only'];
            }
            await InAppPurchase.instance.queryProductDetails(skus.toSet());
          }

          Future<void> added() async {
            final ids = <String>{};
            for (final extra in extras) {
              ids.add(extra);
            }
            ids.addAll(['com.acme.lifetime']);
            if (!Platform.isIOS) ids.add('com.acme.web');
            await InAppPurchase.instance.queryProductDetails(ids);
          }

          Widget build(BuildContext context) {
            return TextButton(onPressed: () async {
              const String tip = 'com.acme.tip';
              await InAppPurchase.instance.queryProductDetails({tip});
            });
          }
        }
        """#)]
        #expect(requestedIDs(files) == [
            "lib/store.dart:4 com.acme.extra.a", "lib/store.dart:4 com.acme.extra.b",
            "lib/store.dart:10 com.acme.ios.pro", "lib/store.dart:20 com.acme.ios.only",
            "lib/store.dart:30 com.acme.lifetime", "lib/store.dart:37 com.acme.tip",
        ])
        #expect(unresolvedNotes(files) == [])
    }

    /// Lists of the app's own classes, made with named (`this.id`) or positional constructor
    /// parameters, and a property of each taken with `map((p) => p.id)`.
    @Test func classInstancesInListsAndTheirFields() {
        let files = [("lib/plans.dart", #"""
        class Plan {
          final String id;
          final String title;
          const Plan({required this.id, required this.title});
        }

        class Coin {
          final String sku;
          final int amount;
          Coin(this.sku, this.amount);
        }

        const plans = [
          Plan(id: 'com.acme.plan.month', title: 'Month'),
          Plan(id: 'com.acme.plan.year', title: 'Year'),
        ];
        final coins = <Coin>[Coin('com.acme.coins10', 10), Coin('com.acme.coins50', 50)];
        """#), ("lib/store.dart", #"""
        import 'package:in_app_purchase/in_app_purchase.dart';
        import 'plans.dart';

        Future<void> plansAndCoins() async {
          await InAppPurchase.instance.queryProductDetails(plans.map((p) => p.id).toSet());
          await InAppPurchase.instance.queryProductDetails(coins.map((coin) => coin.sku).toSet());
        }
        """#)]
        #expect(requestedIDs(files) == [
            "lib/plans.dart:14 com.acme.plan.month", "lib/plans.dart:15 com.acme.plan.year",
            "lib/plans.dart:17 com.acme.coins10", "lib/plans.dart:17 com.acme.coins50",
        ])
        #expect(unresolvedNotes(files) == [])
    }

    /// A function that hands its parameter to the plugin is followed from its calls, with
    /// positional and named arguments; a declaration is not a call of it, a `_private` one is
    /// called only in its file, and one given a fetched product asks for nothing new.
    @Test func aFunctionPassingItsParameterIsFollowedFromItsCalls() {
        let files = [("lib/store.dart", #"""
        import 'package:in_app_purchase/in_app_purchase.dart';

        class Store {
          Future<void> load(String sku, {required bool restore}) async {
            await InAppPurchase.instance.queryProductDetails({sku});
          }

          Future<void> never(Set<String> ids) async {
            await InAppPurchase.instance.queryProductDetails(ids);
          }

          Future<void> _private(String sku) async {
            await InAppPurchase.instance.queryProductDetails({sku});
          }

          // A product the plugin returned: its ID is one already fetched.
          Future<void> again(ProductDetails item) async {
            await InAppPurchase.instance.queryProductDetails({item.id});
          }

          void run() => _private('com.acme.private');
        }
        """#), ("lib/page.dart", #"""
        const kYearly = 'com.acme.yearly';
        void open(Store store) {
          store.load('com.acme.monthly', restore: false);
          store.load(kYearly, restore: true);
          _private('com.acme.other');
        }
        void _private(String name) {}
        """#)]
        #expect(requestedIDs(files) == [
            "lib/page.dart:1 com.acme.yearly", "lib/page.dart:3 com.acme.monthly", "lib/store.dart:21 com.acme.private",
        ])
        #expect(unresolvedNotes(files) == [
            "lib/store.dart:8 wrapperWithoutCalls: `never(ids)` hands its parameter to InAppPurchase.queryProductDetails, and no call of it with IDs iapdoctor can follow was found",
        ])
    }

    /// A local or field declared with its type and no `final`/`var` (`Set<String> ids = {id};`,
    /// `String? sku = '…';`) is a binding like any other.
    @Test func typedDeclarationsWithoutAWordAreBindings() {
        let files = [("lib/services/iap.dart", #"""
        import 'package:in_app_purchase/in_app_purchase.dart';
        class PurchaseUtils {
          final InAppPurchase _iap = InAppPurchase.instance;
          Future<String?> price(
              BuildContext context, String productId) async {
            try {
              Set<String> productIds = {productId};
              final response = await _iap.queryProductDetails(productIds);
              return null;
            } catch (e) {
              return null;
            }
          }
        }
        """#), ("lib/pages/pro.dart", #"""
        class _ProState extends State<ProPage> {
          final PurchaseUtils utils = PurchaseUtils();
          String productId = "com.acme.travel.premium";
          Map<String, String>? names = {'tip': 'com.acme.travel.tip'};
          String? unused = 'com.acme.not.requested';
          @override
          void initState() {
            utils.price(context, productId);
            utils.price(context, names['tip']);
            return;
          }
        }
        """#)]
        #expect(requestedIDs(files) == ["lib/pages/pro.dart:3 com.acme.travel.premium", "lib/pages/pro.dart:4 com.acme.travel.tip"])
        #expect(unresolvedNotes(files) == [])
    }

    /// A wrapper's parameter turned into a set (`ids.toSet()`) is still its IDs, followed through
    /// two wrappers to a map with number keys whose values are the IDs.
    @Test func aParameterMadeASetThroughTwoWrappers() {
        let files = [("lib/utils/coins.dart", #"""
        const Map<int, String> coinPacks = {
          200: "coins_200",
          1000: 'coins_1000',
        };
        """#), ("lib/shop/shop_cubit.dart", #"""
        import 'package:in_app_purchase/in_app_purchase.dart';
        class ShopCubit {
          final InAppPurchase store = InAppPurchase.instance;
          Future<void> start(List<String> ids) async {
            if (!await store.isAvailable()) {
              return;
            }
            _load(ids);
          }
          void _load(List<String> skus) async {
            final response = await store.queryProductDetails(skus.toSet());
          }
        }
        """#), ("lib/shop/shop_screen.dart", #"""
        void open(BuildContext context) {
          context.read<ShopCubit>().start(coinPacks.values.toList());
        }
        """#)]
        #expect(requestedIDs(files) == ["lib/utils/coins.dart:2 coins_200", "lib/utils/coins.dart:3 coins_1000"])
        #expect(unresolvedNotes(files) == [])
    }

    /// flutter_inapp_purchase 6.0 on: `fetchProducts<T>(skus:)` and the request objects' iOS
    /// product (`RequestPurchaseIosProps(sku:)`); `requestPurchase(props)` is not a request of
    /// its own, and lists are joined with spreads.
    @Test func flutterInappPurchaseRequestObjects() {
        let files = [("lib/constants.dart", #"""
        class Ids {
          static const List<String> consumables = ['com.acme.bulbs10', 'com.acme.bulbs30'];
          static const List<String> subscriptions = ['com.acme.premium'];
          static final List<String> all = [...consumables, ...?subscriptions];
        }
        """#), ("lib/shop.dart", #"""
        import 'package:flutter_inapp_purchase/flutter_inapp_purchase.dart';
        import 'constants.dart';

        class Shop {
          final _iap = FlutterInappPurchase.instance;
          Future<void> load() async {
            await _iap.fetchProducts<Product>(skus: Ids.all, type: ProductQueryType.InApp);
          }
          Future<void> buy() async {
            final props = RequestPurchaseProps.inApp((
              apple: RequestPurchaseIosProps(sku: 'com.acme.lifetime', quantity: 1),
              google: RequestPurchaseAndroidProps(skus: ['com.acme.android.lifetime']),
              useAlternativeBilling: null,
            ));
            await _iap.requestPurchase(props);
          }
        }
        """#)]
        #expect(requestedIDs(files) == [
            "lib/constants.dart:2 com.acme.bulbs10", "lib/constants.dart:2 com.acme.bulbs30", "lib/constants.dart:3 com.acme.premium",
            "lib/shop.dart:11 com.acme.lifetime",
        ])
        #expect(unresolvedNotes(files) == [])
    }

    /// An enum whose getter picks each case's iOS field (`platformProductId => … ? androidId :
    /// iosId`): the getter of every case, and of one case.
    @Test func anEnumGetterCombiningItsFields() {
        let files = [("lib/items.dart", #"""
        import 'package:flutter/foundation.dart';
        enum Donation {
          small(androidId: 'acme_android_small', iosId: 'acme_ios_small'),
          large(androidId: 'acme_android_large', iosId: 'acme_ios_large');

          const Donation({required this.androidId, required this.iosId});

          final String androidId;
          final String iosId;

          String get productId => defaultTargetPlatform == TargetPlatform.android ? androidId : this.iosId;
        }
        """#), ("lib/shop.dart", #"""
        import 'package:in_app_purchase/in_app_purchase.dart';
        import 'items.dart';
        Future<void> prices() async {
          await InAppPurchase.instance.queryProductDetails(Donation.values.map((e) => e.productId).toSet());
          await InAppPurchase.instance.queryProductDetails({Donation.large.productId});
        }
        """#)]
        #expect(requestedIDs(files) == ["lib/items.dart:3 acme_ios_small", "lib/items.dart:4 acme_ios_large"])
        #expect(unresolvedNotes(files) == [])
    }

    /// A test double declaring the plugin's method is not a call of it.
    @Test func aDeclarationOfThePluginsMethodIsNotARequest() {
        let files = [("test/widget_test.dart", #"""
        import 'package:in_app_purchase/in_app_purchase.dart';
        class FakeInAppPurchase implements InAppPurchase {
          @override
          Future<ProductDetailsResponse> queryProductDetails(Set<String> identifiers) async {
            return ProductDetailsResponse(productDetails: [], notFoundIDs: []);
          }
        }
        """#)]
        #expect(requestedIDs(files) == [])
        #expect(unresolvedNotes(files) == [])
    }

    /// An enum whose body and first case are left open at the end of the file (found by the
    /// `scripts` fuzz target): read to the end, never past it.
    @Test func anEnumLeftOpenAtTheEndOfAFile() {
        for text in ["enum U{S(", "enum U{S(a: 'x'", "enum U { a('x'), b( ; String get id => a; }"] {
            #expect(requestedIDs([("lib/open.dart", text)]) == [])
        }
    }
}
