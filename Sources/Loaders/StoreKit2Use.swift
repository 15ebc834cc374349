import Formats
import Model

extension Evidence {
    /// A place the app's Swift code uses StoreKit 2, and the OS versions the code around it
    /// requires (`if #available`, `guard #available`, `@available`).
    public struct StoreKit2Use: Sendable, Hashable {
        /// `Product.products(for:)`, `StoreView(ids:)`, `Product.PurchaseResult`.
        public var api: String
        public var location: SourceLocation
        /// By platform as `@available` names it (`iOS`, `macOS`, …): the highest version the
        /// enclosing checks and attributes require.
        public var guardedMinimum: [String: String]
        /// Platforms an enclosing `@available(…, unavailable)` leaves out.
        public var unavailable: Set<String>

        public init(api: String, location: SourceLocation, guardedMinimum: [String: String] = [:], unavailable: Set<String> = []) {
            self.api = api
            self.location = location
            self.guardedMinimum = guardedMinimum
            self.unavailable = unavailable
        }

        /// The version the code around the use requires on `platform`; nil when nothing checks it.
        public func guardedMinimum(on platform: Platform) -> String? { guardedMinimum[platform.availabilityName] }

        /// The use never runs on `platform`.
        public func isUnavailable(on platform: Platform) -> Bool { unavailable.contains(platform.availabilityName) }
    }
}

extension Platform {
    /// How `#available` and `@available` name the platform (iPadOS apps check `iOS`).
    public var availabilityName: String {
        switch self {
        case .ios, .ipados: return "iOS"
        case .macos: return "macOS"
        case .tvos: return "tvOS"
        case .visionos: return "visionOS"
        case .watchos: return "watchOS"
        }
    }
}
