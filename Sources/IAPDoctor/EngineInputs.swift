import Formats
import Model
import Loaders
import RuleEngine

// What a check reads for the engine, which opens no file itself.

extension Configuration {
    /// Reads a configuration file. Every problem is collected; any makes the run stop with exit 2.
    public static func load(path: String, ruleSet: RuleSet) throws(ConfigurationError) -> Configuration {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readBytes(path, maxBytes: YAMLTreeReader.maxBytes)
        } catch {
            throw ConfigurationError(problems: [InputProblem.unreadable(error, at: SourceLocation(file: path)).finding])
        }
        return try parse(bytes: bytes, file: path, ruleSet: ruleSet)
    }
}

extension Engine {
    /// Reads a catalog package in one streaming pass, running on each item the checks
    /// `configuration` leaves on (``Engine/catalogScan(configuration:keepingUnlistedFor:)``). The
    /// package is what the file says; the results are what the checks found, to be put beside it
    /// (``Engine/Options/add(_:to:)``) and diagnosed with the same configuration (``Doctor`` does).
    ///
    /// `keepingUnlisted`: keep the findings past the listing limit too, compactly, for a report
    /// that lists every finding.
    public func scanCatalog(
        path: String, configuration: Configuration, keepingUnlisted: Bool = false
    ) throws(InputProblem) -> (package: CatalogPackage, results: CatalogScanResults) {
        let scan = catalogScan(
            configuration: configuration,
            keepingUnlistedFor: keepingUnlisted ? FileSystem.fileSize(CatalogPackage.metadataPath(for: path)) ?? 0 : nil)
        let package = try CatalogPackage.load(path: path, eachItem: scan.check)
        return (package, scan.results)
    }
}
