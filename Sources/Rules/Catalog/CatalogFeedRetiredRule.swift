import Formats
import Model
import Loaders
import RuleEngine

/// Apple stopped taking in-app purchases through the XML feed on 2022-11-09: say so once per file,
/// so nobody mistakes a clean check for an upload path that still works.
struct CatalogFeedRetiredRule: Rule {
    let id = RuleID.catalogXmlFeedRetired.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        context.catalogPackages.map { package in
            context.passWithNotes([context.finding(
                "Apple stopped accepting in-app purchases through the XML feed on 2022-11-09; this package is checked against the software5.x rules for archives, migrations and in-house catalogs",
                at: package.rootLocation,
                help: "create and edit products with App Store Connect or its API; keep a StoreKit configuration file (.storekit) as the local catalog",
                notes: ["software6.0 (July 2021) had already removed in-app purchases from the schema; all software XML schemas were decommissioned on 2024-07-15"])])
        }
    }
}
