enum Region: CaseIterable { case home, abroad }
enum Constants { static let trial = "trial" }
protocol Configuration { func identifiers(for region: Region) -> [String] }
final class DefaultConfiguration: Configuration {
    private let plans: [PlanDefinition]
    convenience init() {
        self.init(definitions: [
            .init(name: "Production",
                  idsByRegion: [.home: ["com.acme.plus.month", "com.acme.plus.month.\(Constants.trial)"],
                                .abroad: ["com.acme.plus.month.row"]]),
            .init(name: "Staging", idsByRegion: [.home: ["staging.month"], .abroad: []]),
        ])
    }
    init(definitions: [PlanDefinition]) {
        self.plans = definitions
    }
    func identifiers(for country: String) -> [String] {
        plans.reduce([], { $0 + $1.identifiers(for: country) })
    }
    func identifiers(for region: Region) -> [String] {
        plans.reduce([], { $0 + $1.identifiers(for: region) })
    }
}
struct PlanDefinition {
    var name: String
    var idsByRegion: [Region: [String]]
    func identifiers(for country: String) -> [String] { [] }
    func identifiers(for region: Region) -> [String] { idsByRegion[region] ?? [] }
}
