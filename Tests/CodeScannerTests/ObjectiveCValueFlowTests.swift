import CodeScanner
import Testing

@Suite("Objective-C value flow")
struct ObjectiveCValueFlowTests {
    /// Keys of dictionary literals and of `dictionaryWithObjectsAndKeys:` (objects first), and
    /// values where the IDs are the values.
    @Test func dictionaryKeysAndValues() {
        let files = [("TipJar.m", #"""
        #import <StoreKit/StoreKit.h>

        @implementation TipJar
        - (void)requestTips {
            NSDictionary *tips = @{ @"com.acme.tip1": @"Small tip", @"com.acme.tip2": @"Big tip" };
            SKProductsRequest *byKeys = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:[tips allKeys]]];
            SKProductsRequest *byCopy = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:[tips.allKeys copy]]];
        }
        - (void)requestLegacyTips {
            NSDictionary *legacy = [NSDictionary dictionaryWithObjectsAndKeys:@"Small", @"com.acme.legacy.small",
                                                                                @"Large", @"com.acme.legacy.large", nil];
            SKProductsRequest *request = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:legacy.allKeys]];
        }
        - (void)requestByValue {
            NSDictionary *byName = [[NSDictionary alloc] initWithObjects:@[@"com.acme.named.a", @"com.acme.named.b"] forKeys:@[@"A", @"B"]];
            NSDictionary *labels = @{ @"gold": @"com.acme.label.gold", @"silver": @"com.acme.label.silver", @"count": @3 };
            SKProductsRequest *a = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:[byName allValues]]];
            SKProductsRequest *b = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:labels.allValues]];
        }
        @end
        """#)]
        #expect(requestedIDs(files) == [
            "TipJar.m:5 com.acme.tip1",
            "TipJar.m:5 com.acme.tip2",
            "TipJar.m:10 com.acme.legacy.small",
            "TipJar.m:11 com.acme.legacy.large",
            "TipJar.m:15 com.acme.named.a",
            "TipJar.m:15 com.acme.named.b",
            "TipJar.m:16 com.acme.label.gold",
            "TipJar.m:16 com.acme.label.silver",
        ])
        #expect(unresolvedNotes(files) == [])
    }

    /// A property or instance variable set in one method and read in another of the same class
    /// (a category in another file included); every value it is given counts. Another class's
    /// property of the same name is not the same.
    @Test func propertiesAndInstanceVariables() {
        let files = [
            ("GemStore.h", #"""
            #import <Foundation/Foundation.h>
            @interface GemStore : NSObject
            @property (nonatomic, copy) NSDictionary *packs;
            @property (nonatomic, copy) NSArray *extras;
            - (NSSet *)seasonalIDs;
            @end
            """#),
            ("GemStore.m", #"""
            #import <StoreKit/StoreKit.h>
            #import "GemStore.h"

            @implementation GemStore {
                NSArray *bonusIDs;
            }
            - (instancetype)init {
                if ((self = [super init])) {
                    _extras = @[@"com.acme.gems.extra"];
                    bonusIDs = @[@"com.acme.gems.bonus"];
                }
                return self;
            }
            - (void)viewDidLoad {
                self.packs = @{ @"com.acme.gems.small": @10, @"com.acme.gems.big": @100 };
            }
            - (void)startHoliday {
                [self setPacks:@{ @"com.acme.gems.holiday": @50 }];
            }
            - (NSSet *)seasonalIDs {
                return [NSSet setWithObjects:@"com.acme.gems.winter", @"com.acme.gems.summer", nil];
            }
            - (void)fetch {
                SKProductsRequest *packs = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:self.packs.allKeys]];
                SKProductsRequest *extras = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:[self extras]]];
                SKProductsRequest *bonus = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:bonusIDs]];
                SKProductsRequest *seasonal = [[SKProductsRequest alloc] initWithProductIdentifiers:[self seasonalIDs]];
            }
            @end
            """#),
            ("GemStore+Restore.m", #"""
            #import <StoreKit/StoreKit.h>
            #import "GemStore.h"

            @implementation GemStore (Restore)
            - (void)restoreHoliday {
                SKProductsRequest *request = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:[self.packs allKeys]]];
            }
            @end
            """#),
            ("CoinStore.m", #"""
            @implementation CoinStore
            - (void)setUp {
                self.packs = @{ @"com.acme.coins.small": @1 };
                _extras = @[@"com.acme.coins.extra"];
            }
            @end
            """#),
        ]
        #expect(requestedIDs(files) == [
            "GemStore.m:9 com.acme.gems.extra",
            "GemStore.m:10 com.acme.gems.bonus",
            "GemStore.m:15 com.acme.gems.small",
            "GemStore.m:15 com.acme.gems.big",
            "GemStore.m:18 com.acme.gems.holiday",
            "GemStore.m:21 com.acme.gems.winter",
            "GemStore.m:21 com.acme.gems.summer",
        ])
        #expect(unresolvedNotes(files) == [])
    }

    /// Macros built from macros and adjacent literals, continued lines, constants declared
    /// `extern` or `FOUNDATION_EXPORT` in a header and defined in an implementation file.
    @Test func macrosAndConstants() {
        let files = [
            ("StoreIDs.h", #"""
            #import <Foundation/Foundation.h>
            #define kStorePrefix @"com.acme.store."
            #define kMonthlyID kStorePrefix @"pro.monthly"
            #define kAllPlans @[ kMonthlyID, \
                                 kStorePrefix @"pro.yearly" ]
            extern NSString *const kLifetimeID;
            FOUNDATION_EXPORT NSString *const kCoinsID;
            #define kTipID(n) @"com.acme.store.tip" #n
            """#),
            ("StoreIDs.m", #"""
            #import "StoreIDs.h"
            NSString *const kLifetimeID = @"com.acme.store.lifetime";
            NSString * const kCoinsID = kStorePrefix @"coins";
            """#),
            ("Shop.m", #"""
            #import <StoreKit/StoreKit.h>
            #import "StoreIDs.h"
            static NSString * const kTrialID = @"com.acme.store.trial";

            @implementation Shop
            - (void)loadPlans {
                SKProductsRequest *plans = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:kAllPlans]];
                SKProductsRequest *single = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithObjects:kLifetimeID, kCoinsID, kTrialID, nil]];
                SKPayment *payment = [SKPayment paymentWithProductIdentifier:kMonthlyID];
            }
            @end
            """#),
        ]
        #expect(requestedIDs(files) == [
            "Shop.m:3 com.acme.store.trial",
            // Requested twice: in the list of plans and by the payment.
            "StoreIDs.h:3 com.acme.store.pro.monthly",
            "StoreIDs.h:3 com.acme.store.pro.monthly",
            "StoreIDs.h:5 com.acme.store.pro.yearly",
            "StoreIDs.m:2 com.acme.store.lifetime",
            "StoreIDs.m:3 com.acme.store.coins",
        ])
        #expect(unresolvedNotes(files) == [])
    }

    /// Collection constructors, a mutable set filled in the same method, a list made once in a
    /// class method, `arrayByAddingObject:`, both branches of a conditional, a boxed C string.
    @Test func collectionsAndMutableSets() {
        let files = [("Catalog.m", #"""
        #import <StoreKit/StoreKit.h>
        static NSString *const kGoldID = @"com.acme.cat.gold";
        static NSArray *sharedIDs = nil;

        @implementation Catalog
        + (NSArray *)allIDs {
            static dispatch_once_t once;
            dispatch_once(&once, ^{
                sharedIDs = [NSArray arrayWithObjects:@"com.acme.cat.a", @"com.acme.cat.b", nil];
            });
            return sharedIDs;
        }
        - (void)loadAll {
            NSMutableSet *wanted = [NSMutableSet set];
            [wanted addObject:@"com.acme.cat.single"];
            [wanted addObjectsFromArray:@[kGoldID, @"com.acme.cat.silver"]];
            SKProductsRequest *r1 = [[SKProductsRequest alloc] initWithProductIdentifiers:wanted];
            NSArray *list = [[NSArray alloc] initWithObjects:@"com.acme.cat.c", nil];
            SKProductsRequest *r2 = [[SKProductsRequest alloc] initWithProductIdentifiers:[[NSSet alloc] initWithArray:list]];
            SKProductsRequest *r3 = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:[Catalog allIDs]]];
            NSMutableArray *more = [[NSMutableArray alloc] init];
            [more addObject:@"com.acme.cat.d"];
            SKProductsRequest *r4 = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:[more arrayByAddingObject:@"com.acme.cat.e"]]];
        }
        - (void)loadOther {
            NSMutableSet *wanted = [NSMutableSet setWithCapacity:1];
            [wanted addObject:@"com.acme.cat.other"];
            SKProductsRequest *r5 = [[SKProductsRequest alloc] initWithProductIdentifiers:wanted];
        }
        - (void)buy:(BOOL)yearly {
            SKPayment *payment = [SKPayment paymentWithProductIdentifier:yearly ? @"com.acme.cat.yearly" : @("com.acme.cat.monthly")];
        }
        @end
        """#)]
        #expect(requestedIDs(files) == [
            "Catalog.m:2 com.acme.cat.gold",
            "Catalog.m:9 com.acme.cat.a",
            "Catalog.m:9 com.acme.cat.b",
            "Catalog.m:15 com.acme.cat.single",
            "Catalog.m:16 com.acme.cat.silver",
            "Catalog.m:18 com.acme.cat.c",
            "Catalog.m:22 com.acme.cat.d",
            "Catalog.m:23 com.acme.cat.e",
            "Catalog.m:27 com.acme.cat.other",
            "Catalog.m:31 com.acme.cat.yearly",
            "Catalog.m:31 com.acme.cat.monthly",
        ])
        #expect(unresolvedNotes(files) == [])
    }

    /// Notes name what is unknown: a value added from a loop variable, a property also set from
    /// a server payload, a property nothing sets. A mutable array made empty and filled in
    /// another method is not called empty.
    @Test func notesNameTheUnknownPart() {
        let files = [("Vault.m", #"""
        #import <StoreKit/StoreKit.h>
        @implementation Vault
        - (void)loadFromServer:(NSArray *)serverSKUs {
            NSMutableSet *ids = [NSMutableSet set];
            for (NSString *sku in serverSKUs) {
                [ids addObject:sku];
            }
            SKProductsRequest *r1 = [[SKProductsRequest alloc] initWithProductIdentifiers:ids];
        }
        - (void)prepare {
            self.offers = @[@"com.acme.vault.offer"];
            _queue = [NSMutableArray array];
        }
        - (void)refresh:(NSDictionary *)payload {
            self.offers = payload[@"offers"];
            [self.queue addObject:@"com.acme.vault.queued"];
        }
        - (void)loadOffers {
            SKProductsRequest *r2 = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:self.offers]];
            SKProductsRequest *r3 = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:self.missing]];
            SKProductsRequest *r4 = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:_queue]];
        }
        @end
        """#)]
        #expect(requestedIDs(files) == [
            "Vault.m:11 com.acme.vault.offer",
            "Vault.m:16 com.acme.vault.queued",
        ])
        #expect(unresolvedNotes(files) == [
            "Vault.m:8 unresolved: `ids` is filled at run time from `sku`, which iapdoctor cannot follow",
            #"Vault.m:19 partial: 1 element of `[NSSet setWithArray:self.offers]` could not be resolved (`Vault.offers` is set to `payload["offers"]`, which iapdoctor cannot follow)"#,
            "Vault.m:20 unresolved: iapdoctor found nothing that sets `Vault.missing`: its value comes from code it did not scan or cannot follow",
        ])
    }

    /// Strings that look like product IDs but never reach StoreKit: a bundle ID, a URL, a
    /// notification name, user-defaults keys, another dictionary's keys, another class's property
    /// of the same name, a mutable set that is filled but not requested.
    @Test func lookAlikesAreNotRequests() {
        let files = [("Settings.m", #"""
        #import <StoreKit/StoreKit.h>
        #define kBundleID @"com.acme.app"
        static NSString *const kPurchasedNotification = @"com.acme.app.purchased";
        static NSString *const kLastTipKey = @"com.acme.app.lastTip";

        @implementation Settings
        - (void)viewDidLoad {
            NSURL *terms = [NSURL URLWithString:@"https://acme.com/terms"];
            NSDictionary *colors = @{ @"com.acme.theme.dark": @"#000000" };
            self.themes = colors.allKeys;
            [[NSUserDefaults standardUserDefaults] setObject:@"com.acme.tip.small" forKey:kLastTipKey];
            [[NSNotificationCenter defaultCenter] postNotificationName:kPurchasedNotification object:kBundleID];
            NSMutableSet *seen = [NSMutableSet set];
            [seen addObject:@"com.acme.seen"];
        }
        @end

        @implementation TipShop
        - (void)viewDidLoad {
            self.themes = @{ @"com.acme.tip.small": @"Small" };
        }
        - (void)buy {
            NSMutableSet *seen = [NSMutableSet set];
            SKProductsRequest *request = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:[self.themes allKeys]]];
            SKProductsRequest *none = [[SKProductsRequest alloc] initWithProductIdentifiers:seen];
        }
        @end
        """#)]
        #expect(requestedIDs(files) == ["Settings.m:20 com.acme.tip.small"])
        #expect(unresolvedNotes(files) == [
            "Settings.m:25 empty: every value the code gives `seen` is empty (an empty list, `nil`, or a function that returns one); the IDs are filled in at run time",
        ])
    }
}
