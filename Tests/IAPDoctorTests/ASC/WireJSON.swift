import AppStoreConnect

/// The pull's JSON value, by a name that does not clash with IAPDoctor's `JSONValue` (nor with its
/// `AppStoreConnect` model type, which hides the module's name where both are imported).
typealias WireJSON = JSONValue
