import ArgumentParser
import IAPDoctor

@main
struct IAPDoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iapdoctor",
        abstract: "Finds out why StoreKit says your In-App Purchase products are invalid.",
        discussion: """
            StoreKit never says why a product ID came back in `invalidProductIdentifiers` (or is \
            missing from `Product.products(for:)`); iapdoctor answers the invalid-product-ID \
            checklist item by item from your project files and a project descriptor.
            """,
        version: IAPDoctorVersion.current
    )
}
