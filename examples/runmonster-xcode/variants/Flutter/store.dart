import 'package:in_app_purchase/in_app_purchase.dart';

/// RunMonster's store in its Flutter edition: the same two products, through the plugin, after
/// asking whether the device can pay (as the plugin's example does).
Future<ProductDetailsResponse?> loadProducts() async {
  final InAppPurchase store = InAppPurchase.instance;
  if (!await store.isAvailable()) {
    return null;
  }
  return store.queryProductDetails({
    'com.runmonster.runmonsterfree.upgradetopro',
    'com.runmonster.runmonsterfree.coins100',
  });
}
