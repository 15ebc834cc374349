import CodeScanner
import Testing

/// Purchase libraries from before StoreKit 2 that apps still ship: each request's IDs are read,
/// so the one wrong literal behind a report is visible.
@Suite("Older purchase libraries")
struct OlderLibraryTests {
    @Test func reactNativeInAppUtilsThroughNativeModules() {
        let files = [("src/Store.js", #"""
        import { NativeModules } from 'react-native';
        const { InAppUtils } = NativeModules;
        const products = ['com.abc.xyz.coins.200', 'com.abc.xyz.coins.500'];
        export function load() {
          InAppUtils.loadProducts(products, (error, loaded) => console.log(loaded));
        }
        export function buy() {
          InAppUtils.purchaseProduct('com.abc.xyz.conis.200', (error, response) => {});
        }
        """#)]
        #expect(requestedIDs(files) == ["src/Store.js:3 com.abc.xyz.coins.200", "src/Store.js:3 com.abc.xyz.coins.500", "src/Store.js:8 com.abc.xyz.conis.200"])
        #expect(SourceScanner.scan(sources: files).importedLibraries == ["react-native-in-app-utils"])
    }

    @Test func cordovaInAppPurchaseGlobalAndIonicNative() {
        let files = [
            ("www/js/store.js", #"""
            document.addEventListener('deviceready', function () {
              inAppPurchase.getProducts(['com.yourapp.prod1', 'com.yourapp.prod2']).then(function (products) {});
              inAppPurchase.buy('com.yourapp.prod1');
            });
            """#),
            ("src/app/shop.page.ts", #"""
            import { InAppPurchase } from '@awesome-cordova-plugins/in-app-purchase/ngx';
            export class ShopPage {
              constructor(private iap: InAppPurchase) {}
              load() { return this.iap.getProducts(['com.yourapp.gems']); }
            }
            """#),
        ]
        #expect(requestedIDs(files) == [
            "src/app/shop.page.ts:4 com.yourapp.gems",
            "www/js/store.js:2 com.yourapp.prod1", "www/js/store.js:2 com.yourapp.prod2", "www/js/store.js:3 com.yourapp.prod1",
        ])
        #expect(SourceScanner.scan(sources: files).importedLibraries == ["@awesome-cordova-plugins/in-app-purchase", "cordova-plugin-inapppurchase"])
    }

    /// A `buy` on anything else in a file without the plugin is not a purchase.
    @Test func aCartsBuyIsNoRequest() {
        #expect(requestedIDs([("src/cart.js", "export function checkout(cart) { return cart.buy('basket-1'); }\n")]).isEmpty)
    }

    @Test func soomlaMarketItems() {
        let files = [("Assets/Scripts/StoreAssets.cs", #"""
        using Soomla.Store;
        public class StoreAssets : IStoreAssets {
            public const string NO_ADS_PRODUCT_ID = "com.mygame.noads";
            public static VirtualGood NO_ADS = new LifetimeVG("No Ads", "", "no_ads",
                new PurchaseWithMarket(NO_ADS_PRODUCT_ID, 0.99));
            public static VirtualCurrencyPack COINS = new VirtualCurrencyPack("100 coins", "", "coins_100", 100, "currency_coin",
                new PurchaseWithMarket(new MarketItem("com.mygame.coins100", 1.99)));
        }
        """#)]
        #expect(requestedIDs(files) == ["Assets/Scripts/StoreAssets.cs:3 com.mygame.noads", "Assets/Scripts/StoreAssets.cs:7 com.mygame.coins100"])
    }
}

/// A module named like a purchase library that the scanner does not read is said, not taken
/// for an app that sells nothing.
@Suite("Unread purchase libraries")
struct UnreadLibraryTests {
    @Test func modulesNamedLikePurchaseLibraries() {
        let scan = SourceScanner.scan(sources: [
            ("App/Settings.swift", "import SwiftUI\nimport InAppPurchaseLibrary\nimport Foundation\nfunc load() async { _ = await InAppPurchaseManager.shared.getProducts(for: ids) }\n"),
            ("App/Paywall.swift", "import PaywallKit\nimport Charts\n"),
            ("App/Other.swift", "import RevenueCat\n"),
        ])
        #expect(scan.unreadLibraries == ["InAppPurchaseLibrary", "PaywallKit"])
        #expect(scan.importedLibraries == ["RevenueCat"])
    }
}

@Suite("JavaScript shapes from untuned apps")
struct UntunedJavaScriptTests {
    /// JavaScript turns a number into its digits in a sum with a string.
    @Test func aNumberIntoAStringSum() {
        let files = [("src/Shop.js", #"""
        import { NativeModules } from 'react-native';
        const { InAppUtils } = NativeModules;
        export default class Shop {
          pay = (credit) => {
            const products = ['com.acme.shop.' + credit];
            InAppUtils.loadProducts(products, () => {});
          }
          buy100() { this.pay('100') }
          buy250() { this.pay(250) }
        }
        """#)]
        #expect(requestedIDs(files) == ["src/Shop.js:5 com.acme.shop.100", "src/Shop.js:5 com.acme.shop.250"])
    }

    /// Capacitor's RevenueCat plugin buying a product written out by its ID.
    @Test func revenueCatCapacitorPurchaseOfAWrittenProduct() {
        let files = [("src/iap.js", #"""
        import { Purchases } from '@revenuecat/purchases-capacitor';
        export async function buyPack() {
          await Purchases.purchaseStoreProduct({ product: { productIdentifier: 'com.acme.app.pack10' } });
        }
        """#)]
        #expect(requestedIDs(files) == ["src/iap.js:3 com.acme.app.pack10"])
    }
}
