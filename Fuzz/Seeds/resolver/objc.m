#import <StoreKit/StoreKit.h>
static NSString *const kPro = @"com.x.pro";
- (void)load {
  SKProductsRequest *r = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithObjects:kPro, @"com.x." @"gold", nil]];
}
