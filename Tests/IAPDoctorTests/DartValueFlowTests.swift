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
        #expect(scan.unresolved.map(\.api) == ["InAppPurchase.queryProductDetails"])
        #expect(scan.importedLibraries == ["in_app_purchase"])
    }
}

extension DartValueFlowTests {
    @Test func anUnresolvedCallShowsItsArgumentAsWritten() {
        let files = [("lib/page.dart", #"""
        import 'package:in_app_purchase/in_app_purchase.dart';
        Future<void> buy(Plan plan) async {
          final productID = plan.iosID;
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
}
