import Formats
import Model
import Loaders
import RuleEngine

/// The package names a software5.x spec version iapdoctor knows.
struct CatalogSpecVersionRule: Rule {
    let id = RuleID.catalogSpecVersion.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        context.catalogPackages.compactMap { package -> Outcome? in
            guard package.rootName == "package" else { return nil }
            guard let version = package.version else {
                return context.fail(context.finding(
                    "`<package>` has no `version` attribute; expected a spec version such as `software5.12`",
                    at: package.rootLocation, help: "add `version=\"software5.12\"` (or the version the package was written for)"))
            }
            if let number = package.versionNumber, number.major == 5, CatalogSchema.knownMinorVersions.contains(number.minor) {
                return context.pass()
            }
            let note = version.value.hasPrefix("software6")
                ? ["software6.0 removed in-app purchases from the XML feed (July 2021)"] : []
            return context.fail(context.finding(
                "spec version `\(version.value)` is not one that carries in-app purchases (`software5.0` to `software5.12`)",
                at: version.location, help: "set `version` to the software5.x version the package was written for",
                notes: note))
        }
    }
}
