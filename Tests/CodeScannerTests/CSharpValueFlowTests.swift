import CodeScanner
import Testing

/// .NET MAUI, Xamarin and Unity apps: the IDs their C# hands to the purchase libraries.
@Suite("C# value flow")
struct CSharpValueFlowTests {
    @Test func pluginInAppBillingWithConstantsAndSeveralArguments() {
        let files = [
            ("Shared/ProductIds.cs", #"""
            namespace Coins.Shared
            {
                public static class ProductIds
                {
                    public const string Prefix = "com.acme.coins";
                    public const string Gold = Prefix + ".gold";
                    public static string Silver => $"{Prefix}.silver";
                    public static readonly string[] Subscriptions = { "com.acme.coins.monthly", @"com.acme.coins.yearly" };
                    // public const string Old = "com.acme.coins.old";
                }
            }
            """#),
            ("Services/Billing.cs", #"""
            using Plugin.InAppBilling;
            namespace Coins.Services;
            public class Billing
            {
                public async Task Load()
                {
                    var billing = CrossInAppBilling.Current;
                    var items = await billing.GetProductInfoAsync(ItemType.InAppPurchase, ProductIds.Gold, ProductIds.Silver);
                    var subs = await billing.GetProductInfoAsync(ItemType.Subscription, ProductIds.Subscriptions);
                    var note = "GetProductInfoAsync(ItemType.InAppPurchase, \"in.a.string\")";
                }
            }
            """#),
        ]
        #expect(requestedIDs(files) == [
            "Shared/ProductIds.cs:5 com.acme.coins.gold", "Shared/ProductIds.cs:7 com.acme.coins.silver",
            "Shared/ProductIds.cs:8 com.acme.coins.monthly", "Shared/ProductIds.cs:8 com.acme.coins.yearly",
        ])
    }

    /// An app's own method named like the plugin's (`PurchaseAsync(string productId)`) is a
    /// declaration, not a request; the plugin call inside it, given a constant, is.
    @Test func aMethodNamedLikeThePluginsIsNoCall() {
        let files = [
            ("Services/Store.cs", #"""
            using Plugin.InAppBilling;
            public interface IStore { Task<bool> PurchaseAsync(string productId); }
            public class Store : IStore
            {
                public async Task<bool> PurchaseAsync(string productId)
                {
                    var purchase = await CrossInAppBilling.Current.PurchaseAsync(productId, ItemType.InAppPurchase);
                    return purchase != null;
                }
                public Task<bool> BuyGold() => PurchaseAsync("com.acme.coins.gold");
            }
            """#),
        ]
        let scan = SourceScanner.scan(sources: files.map { (file: $0.0, text: $0.1) })
        #expect(!scan.unresolved.contains { $0.location.line == 2 || $0.location.line == 5 }, "\(scan.unresolved.map { "\($0.location): \($0.api) \($0.argument)" })")
        #expect(requestedIDs(files) == ["Services/Store.cs:10 com.acme.coins.gold"])
    }

    @Test func unityAddProductWithTheAppStoresOwnID() {
        let files = [("Assets/Scripts/Store.cs", #"""
        using UnityEngine;
        using UnityEngine.Purchasing;
        public class Store : MonoBehaviour, IStoreListener
        {
            private const string Coins = "com.acme.game.coins";
            void Start()
            {
                var builder = ConfigurationBuilder.Instance(StandardPurchasingModule.Instance());
                builder.AddProduct(Coins, ProductType.Consumable);
                builder.AddProduct("gems", ProductType.Consumable, new IDs
                {
                    { "com.acme.game.gems.ios", AppleAppStore.Name },
                    { "gems_android", GooglePlay.Name },
                });
                var premium = Application.platform == RuntimePlatform.IPhonePlayer ? "com.acme.game.premium" : "premium_android";
                builder.AddProduct(premium, ProductType.NonConsumable);
                // The Mac build's own ID is not the iOS build's: the product's ID is asked.
                builder.AddProduct("com.acme.game.sword", ProductType.NonConsumable, new IDs
                {
                    { "com.acme.game.sword.mac", MacAppStore.Name },
                });
            }
        }
        """#)]
        #expect(requestedIDs(files) == [
            "Assets/Scripts/Store.cs:5 com.acme.game.coins", "Assets/Scripts/Store.cs:12 com.acme.game.gems.ios",
            "Assets/Scripts/Store.cs:15 com.acme.game.premium", "Assets/Scripts/Store.cs:18 com.acme.game.sword",
        ])
    }

    /// `new ProductDefinition(id, type)` asks for its ID, `new ProductDefinition(id, storeID, type)`
    /// for the store's; constants declared together (`a = "x", b = "y"`) each keep their value.
    @Test func unityProductDefinitionsAndConstantsDeclaredTogether() {
        let files = [("Assets/Scripts/Purchaser.cs", #"""
        using UnityEngine.Purchasing;
        public class Purchaser
        {
            public static readonly string Pack = "com.acme.game.pack",
                            Bombs = "com.acme.game.bombs";
            void Start()
            {
                Manager.Initialize(
                    new ProductDefinition(Pack, ProductType.Consumable),
                    new ProductDefinition(Bombs, ProductType.Consumable),
                    new ProductDefinition("noads", "com.acme.game.noads.ios", ProductType.NonConsumable));
            }
        }
        """#)]
        #expect(requestedIDs(files) == [
            "Assets/Scripts/Purchaser.cs:4 com.acme.game.pack", "Assets/Scripts/Purchaser.cs:5 com.acme.game.bombs",
            "Assets/Scripts/Purchaser.cs:11 com.acme.game.noads.ios",
        ])
        #expect(unresolvedNotes(files) == [])
    }
}

/// `#if` blocks as an iOS build compiles them, and the App Store's side of store-specific IDs.
@Suite("C# as the iOS build reads it")
struct CSharpConditionalTests {
    /// Unity IAP's store-specific IDs: the App Store's, named by a field as often as written.
    @Test func theAppleIDOfAnIDsTableFromAField() {
        let files = [("Assets/Scripts/Store.cs", #"""
        using UnityEngine.Purchasing;
        public class Store {
            private static string appleGold = "com.acme.game.gold_ios";
            private static string playGold = "com.acme.game.gold_gp";
            void Start(ConfigurationBuilder builder) {
                builder.AddProduct("gold", ProductType.Subscription, new IDs() {
                    { appleGold, AppleAppStore.Name },
                    { playGold, GooglePlay.Name },
                });
                builder.AddProduct("gems", ProductType.Consumable, new IDs { { "com.acme.game.gems_ios", AppleAppStore.Name } });
            }
        }
        """#)]
        #expect(requestedIDs(files) == ["Assets/Scripts/Store.cs:3 com.acme.game.gold_ios", "Assets/Scripts/Store.cs:10 com.acme.game.gems_ios"])
    }

    @Test func theIOSBranchIsTheOneRead() {
        let files = [("Assets/Scripts/Store.cs", #"""
        using UnityEngine.Purchasing;
        public class Store {
        #if UNITY_ANDROID
            public static string coins = "coins_android";
        #elif UNITY_IOS
            public static string coins = "coins_ios";
        #else
            public static string coins = "coins_other";
        #endif
        #if UNITY_IOS || UNITY_IPHONE
            const string gems = "gems_ios";
        #else
            const string gems = "gems_android";
        #endif
        #if DEBUG
            const string extra = "extra_debug";
        #endif
            void Start(ConfigurationBuilder builder) {
                builder.AddProduct(coins, ProductType.Consumable);
                builder.AddProduct(gems, ProductType.Consumable);
                builder.AddProduct(extra, ProductType.Consumable);
        #if UNITY_ANDROID
                builder.AddProduct("android_only", ProductType.Consumable);
        #endif
            }
        }
        """#)]
        #expect(requestedIDs(files) == [
            "Assets/Scripts/Store.cs:6 coins_ios", "Assets/Scripts/Store.cs:11 gems_ios", "Assets/Scripts/Store.cs:16 extra_debug",
        ])
    }
}
