import Formats

/// iapdoctor's version, printed by `--version` and written into every report.
public enum IAPDoctorVersion {
    public static let current = "0.1.0"
}
