import IAPDoctor

/// The common forms of `check` read by hand: paths with `--format`/`-f`, `--output`/`-o`,
/// `--fail-on`, `--strict`, `--verbose` and `--color`, each given at most once. ArgumentParser's parse is a
/// large part of a tiny check's time (it reflects every option of every command and looks their
/// types' conformances up across the whole binary), and CI runs exactly these
/// forms. Anything else (another option, a value that is not one of the choices, `--help`, `--`,
/// a word that starts with `-`, a repeated option) is left to ArgumentParser, so every message,
/// help and completion request comes from one place. `QuickCheckArgumentsTests` holds every
/// accepted form to ArgumentParser's reading of it.
enum QuickCheckArguments {
    /// The settings `arguments` (without the program's name) give, or nil to parse them in full.
    static func parse(_ arguments: [String]) -> CheckSettings? {
        guard arguments.first == "check" else { return nil }
        var settings = CheckSettings(paths: [])
        var given: Set<String> = []
        var index = 1
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            guard word.hasPrefix("-") else {
                // `help` is ArgumentParser's word for help; the empty word and the other
                // subcommands' names are left to it too.
                guard !word.isEmpty, word != "help" else { return nil }
                settings.paths.append(word)
                continue
            }
            var name = word
            var value: String?
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                value = String(word[word.index(after: equals)...])
            }
            switch name {
            case "-f": name = "--format"
            case "-o": name = "--output"
            default: break
            }
            guard given.insert(name).inserted else { return nil }
            if name == "--strict" || name == "--verbose" {
                guard value == nil else { return nil }
                if name == "--strict" { settings.strict = true } else { settings.verbose = true }
                continue
            }
            if value == nil {
                guard index < arguments.count else { return nil }
                value = arguments[index]
                index += 1
            }
            guard let value, !value.isEmpty, !value.hasPrefix("-") else { return nil }
            switch name {
            case "--format":
                guard let format = OutputFormat(rawValue: value) else { return nil }
                settings.format = format
            case "--output":
                settings.output = value
            case "--fail-on":
                guard let failOn = FailOn(rawValue: value) else { return nil }
                settings.failOn = failOn
            case "--color":
                guard let color = ColorChoice(rawValue: value) else { return nil }
                settings.color = color
            default:
                return nil
            }
        }
        return settings.paths.isEmpty ? nil : settings
    }
}
