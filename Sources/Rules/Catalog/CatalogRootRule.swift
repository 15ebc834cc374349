import Formats
import Model
import Loaders
import RuleEngine

/// The document must be an App Store Package: `<package xmlns="http://apple.com/itunes/importer">`.
struct CatalogRootRule: Rule {
    let id = RuleID.catalogRootElement.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        context.catalogPackages.map { package in
            if package.rootName != "package" {
                return context.fail(context.finding(
                    "the root element is `<\(package.rootName)>`; an App Store Package's metadata.xml starts with `<package>`",
                    at: package.rootLocation,
                    help: "wrap the content in `<package xmlns=\"\(CatalogSchema.namespace)\" version=\"software5.12\">`, or check that this is the package's metadata.xml"))
            }
            if package.rootNamespace != CatalogSchema.namespace {
                let actual = package.rootNamespace.map { "`\($0)`" } ?? "no namespace"
                return context.fail(context.finding(
                    "`<package>` has \(actual); Transporter expects the namespace `\(CatalogSchema.namespace)`",
                    at: package.rootLocation, help: "set `xmlns=\"\(CatalogSchema.namespace)\"` on `<package>`"))
            }
            if package.inAppPurchases == nil {
                return context.fail(context.finding(
                    "the package has no `<in_app_purchases>` under `package/software/software_metadata`",
                    at: package.rootLocation,
                    help: "put the in-app purchases in `<software><software_metadata><in_app_purchases>…`"))
            }
            return context.pass()
        }
    }
}
