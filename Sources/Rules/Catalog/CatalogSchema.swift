import Formats
import Model
import Loaders
import RuleEngine
import XMLReader

/// What the software5.x App Metadata Specification allows inside `in_app_purchases`, reconstructed
/// in `shared/knowledge/bulk-xml.md` §1.2 from Apple's texts, generators and Transporter errors.
enum CatalogSchema {
    static let namespace = "http://apple.com/itunes/importer"
    static let knownMinorVersions = 0...12
    /// `subscription_group` replaced `family` in software5.7.
    static let firstGroupMinor = 7

    /// Allowed child elements by parent element name (below `in_app_purchases`).
    static let children: [String: Set<String>] = [
        "in_app_purchases": ["in_app_purchase", "family", "subscription_group"],
        "in_app_purchase": [
            "product_id", "reference_name", "type", "products", "locales", "review_screenshot", "review_notes",
            "read_only_info", "duration", "free_trial_duration", "bonus_duration", "cleared_for_sale", "rank",
            "prices", "offers", "hosted_content", "promotional_image",
        ],
        "family": ["locales", "review_screenshot", "review_notes", "in_app_purchase", "read_only_info"],
        "subscription_group": ["locales", "in_app_purchase", "read_only_info"],
        "locales": ["locale"],
        "locale": ["title", "description", "publication_name", "app_name"],
        "products": ["product"],
        "product": ["cleared_for_sale", "wholesale_price_tier", "intervals", "territories"],
        "intervals": ["interval"],
        "interval": ["start_date", "end_date", "wholesale_price_tier"],
        "review_screenshot": ["file_name", "size", "checksum"],
        "promotional_image": ["file_name", "size", "checksum"],
        "read_only_info": ["read_only_value"],
        "prices": ["price"],
        "price": ["territory", "tier", "start_date", "end_date"],
        "offers": ["offer"],
        "offer": ["territory", "type", "duration", "start_date", "end_date", "prices", "number_of_periods", "product_code", "offer_code"],
        "territories": ["territory"],
    ]

    /// Review screenshot sizes Transporter lists as accepted for In-App Purchases, width × height.
    static let screenshotSizes: [(width: Int, height: Int)] = [
        (312, 390), (640, 920), (640, 960), (960, 600), (960, 640), (640, 1096), (640, 1136), (1136, 600), (1136, 640),
        (750, 1334), (1334, 750), (1242, 2208), (2208, 1242), (1125, 2436), (2436, 1125), (768, 1004), (768, 1024),
        (1024, 748), (1024, 768), (1536, 2008), (1536, 2048), (2048, 1496), (2048, 1536), (1668, 2224), (2224, 1668),
        (2048, 2732), (2732, 2048),
    ]

    /// Whether a screenshot of `size` is accepted: a scan of the 27 pairs, not a set of `"W×H"`
    /// strings, which would make a string for every screenshot.
    static func isScreenshotSize(_ size: ImageSize) -> Bool {
        screenshotSizes.contains { $0.width == size.width && $0.height == size.height }
    }
}

extension RuleContext {
    var catalogPackages: [CatalogPackage] { project.catalogPackages }
}

extension CatalogPackage.Item {
    /// The product ID for messages, or where the item is.
    var name: String { productID?.value ?? "the in-app purchase at line \(location.line)" }
}
