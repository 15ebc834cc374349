import 'package:in_app_purchase/in_app_purchase.dart';

/// RunMonster's store in its Flutter edition: the same two products, through the plugin.
Future<ProductDetailsResponse> loadProducts() {
  return InAppPurchase.instance.queryProductDetails({
    'com.runmonster.runmonsterfree.upgradetopro',
    'com.runmonster.runmonsterfree.coins100',
  });
}
