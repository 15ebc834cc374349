/// One input problem, already written as a finding.
public struct InputProblem: Error, Sendable {
    public var finding: Finding

    public init(_ finding: Finding) {
        self.finding = finding
    }
}
