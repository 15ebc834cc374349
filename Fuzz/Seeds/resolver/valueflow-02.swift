enum Plan: CaseIterable {
    case monthly, annual
    var identifier: String {
        switch self {
        case .monthly: return "com.acme.plan.monthly"
        case .annual:
            return "com.acme.plan.annual"
        }
    }
    static var allIdentifiers: [String] { allCases.map(\.identifier) }
}
