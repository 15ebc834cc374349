import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        // "upgradetopro" is shown in the settings screen; the store loads the real IDs.
        Store.shared.loadProducts()
        return true
    }
}
