import Formats
import Model
import Loaders
import RuleEngine

/// `iapdoctor report --format html`: the pre-submission checklist as one self-contained page.
///
/// Inline CSS and inline SVG only: no script, no image, no font and no style sheet is fetched, so
/// the page opens offline and from a CI artifact. The only absolute URLs are the rule pages in
/// `<a href>`. Every value from the inputs is escaped, so a product name cannot add markup. The
/// status of an item is an icon and a word, never a colour alone. Output is deterministic: the
/// only time in it is the diagnosis's `checked_at`.
public struct HTMLReport: Sendable {
    public init() {}

    public func report(_ diagnosis: Diagnosis) -> String { render(ReportDocument(diagnosis)) }

    public func render(_ document: ReportDocument) -> String {
        var page = Page()
        page.add("<!DOCTYPE html>")
        page.add("<html lang=\"en\">")
        page.add("<head>")
        page.add("<meta charset=\"utf-8\">")
        page.add("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        page.add("<meta name=\"color-scheme\" content=\"light dark\">")
        page.add("<meta name=\"generator\" content=\"iapdoctor \(Self.escape(document.rules.toolVersion))\">")
        page.add("<title>iapdoctor report: \(Self.escape(document.title))</title>")
        page.add("<style>\n\(Self.styleSheet)</style>")
        page.add("</head>")
        page.add("<body>")
        page.add("<div class=\"page\">")
        header(document, into: &page)
        page.add("<main>")
        summary(document, into: &page)
        if !document.inputProblems.isEmpty { inputProblems(document, into: &page) }
        checklist(document, into: &page)
        if document.hasDescriptor { products(document, into: &page) }
        if !document.catalogs.isEmpty { catalogs(document, into: &page) }
        unchecked(document, into: &page)
        rulesInForce(document, into: &page)
        page.add("</main>")
        page.add("<footer>")
        page.add("<p>Made by iapdoctor \(Self.escape(document.rules.toolVersion)). Every rule has a page in <a href=\"\(ReportDocument.docsBaseURL)README.md\">docs/rules</a>, and <code>iapdoctor explain &lt;rule&gt;</code> prints it.</p>")
        page.add("</footer>")
        page.add("</div>")
        page.add("</body>")
        page.add("</html>")
        return Escaping.controlCharacters(page.text)
    }

    // MARK: Sections

    private func header(_ document: ReportDocument, into page: inout Page) {
        page.add("<header>")
        page.add("<p class=\"eyebrow\">iapdoctor report · \(document.checklistKind)</p>")
        page.add("<h1>\(Self.escape(document.title))</h1>")
        page.add("<dl class=\"facts\">")
        if document.hasDescriptor {
            page.add(Self.fact("App", document.appName.map { Self.escape($0) + Self.origin(document.appNameOrigin) } ?? Self.missing))
            page.add(Self.fact("Bundle ID", document.bundleID.map { Self.breakableCode($0) + Self.origin(document.bundleIDOrigin) } ?? Self.missing))
            page.add(Self.fact("Platform", document.platform.map { Self.escape($0) + Self.origin(document.platformOrigin) } ?? Self.missing))
            page.add(Self.fact("Environment", Self.code(document.environment.rawValue) + document.environmentQualifiers))
        }
        if let checkedAt = document.checkedAt {
            page.add(Self.fact("Checked at", "<time datetime=\"\(Self.escape(checkedAt))\">\(Self.escape(checkedAt))</time>"))
        }
        page.add(Self.fact("Inputs", document.inputs.map(Self.breakableCode).joined(separator: "<br>"), wide: true))
        page.add("</dl>")
        page.add("<nav aria-label=\"Sections\"><ul>")
        var sections = [("summary", "At a glance")]
        if !document.inputProblems.isEmpty { sections.append(("input-problems", "Problems with the inputs")) }
        sections.append(("checklist", "Checklist"))
        if document.hasDescriptor { sections.append(("products", "Products")) }
        if !document.catalogs.isEmpty { sections.append(("catalogs", "Catalogs")) }
        sections += [("unchecked", "What no rule could check"), ("rules", "Version and rules")]
        for (anchor, title) in sections { page.add("<li><a href=\"#\(anchor)\">\(title)</a></li>") }
        page.add("</ul></nav>")
        page.add("</header>")
    }

    private func summary(_ document: ReportDocument, into page: inout Page) {
        let tally = document.tally
        page.add("<section id=\"summary\" aria-labelledby=\"summary-heading\">")
        page.add("<h2 id=\"summary-heading\">At a glance</h2>")
        let status = document.readiness.status
        page.add("<p class=\"headline \(Self.statusClass(status))\" data-readiness=\"\(document.readiness.rawValue)\">\(Self.icon(for: status))<span><strong>\(Self.escape(document.readinessLabel)):</strong> \(Self.escape(document.readinessDetail))</span></p>")
        page.add("<div class=\"tallies\">")
        if document.evaluated {
            page.add("<div class=\"tally-group\"><h3>Checklist items</h3><ul class=\"tally\">")
            page.add(Self.tally(tally.pass, .pass, "pass"))
            page.add(Self.tally(tally.fail, .fail, "fail"))
            page.add(Self.tally(tally.warn, .warn, "warn"))
            page.add(Self.tally(tally.unknown, .unknown, "unknown"))
            page.add(Self.tally(tally.notApplicable, .notApplicable, "not applicable"))
            page.add("</ul></div>")
        }
        if !document.products.isEmpty {
            page.add("<div class=\"tally-group\"><h3>Products</h3><ul class=\"tally\">")
            page.add(Self.tally(tally.validProducts, .pass, "valid"))
            page.add(Self.tally(tally.invalidProducts, .fail, "invalid"))
            page.add(Self.tally(tally.atRiskProducts, .warn, "at risk"))
            page.add(Self.tally(tally.unknownProducts, .unknown, "unknown"))
            page.add("</ul></div>")
        }
        page.add("<div class=\"tally-group\"><h3>Findings</h3><ul class=\"tally\">")
        page.add(Self.tally(tally.errors, .fail, tally.errors == 1 ? "error" : "errors", icon: Self.severityIcon(.error)))
        page.add(Self.tally(tally.warnings, .warn, tally.warnings == 1 ? "warning" : "warnings", icon: Self.severityIcon(.warning)))
        page.add(Self.tally(tally.notes, nil, tally.notes == 1 ? "note" : "notes", icon: Self.severityIcon(.note)))
        page.add("</ul></div>")
        page.add("</div>")
        if !document.nextSteps.isEmpty {
            page.add("<h3>Next steps</h3>")
            page.add("<ol class=\"next-steps\">")
            for step in document.nextSteps { page.add("<li data-answer-source=\"\(step.source.rawValue)\">\(Self.inline(step.sentence))</li>") }
            page.add("</ol>")
        }
        page.add("<p class=\"profile\">\(Self.inline(document.profileNote))</p>")
        page.add("</section>")
    }

    private func inputProblems(_ document: ReportDocument, into page: inout Page) {
        page.add("<section id=\"input-problems\" aria-labelledby=\"input-problems-heading\">")
        page.add("<h2 id=\"input-problems-heading\">Problems with the inputs</h2>")
        page.add("<p>\(ReportDocument.inputProblemsIntro)</p>")
        var shown = Set<Int>()
        findings(document.inputProblems, shown: &shown, into: &page)
        page.add("</section>")
    }

    private func checklist(_ document: ReportDocument, into page: inout Page) {
        page.add("<section id=\"checklist\" aria-labelledby=\"checklist-heading\">")
        page.add("<h2 id=\"checklist-heading\">Checklist</h2>")
        if !document.evaluated {
            page.add("<p>\(ReportDocument.checklistNotEvaluated)</p>")
        }
        page.add("<table class=\"checklist stack\">")
        page.add("<thead><tr><th scope=\"col\" class=\"num\">#</th><th scope=\"col\">Item</th><th scope=\"col\">Question</th><th scope=\"col\">Status</th></tr></thead>")
        page.add("<tbody>")
        var shown = Set<Int>()
        for row in document.checklist {
            let id = Self.escape(row.id)
            let detailed = row.hasDetails
            page.add("<tr id=\"\(id)\" class=\"item\(detailed ? " has-details" : "")\" data-checklist-item=\"\(id)\" data-status=\"\(row.status.rawValue)\">")
            page.add("<td class=\"num\">\(row.number)</td>")
            page.add("<th scope=\"row\"><a class=\"item-id\" href=\"#\(id)\"><code>\(id)</code></a></th>")
            var question = Self.inline(row.question)
            if row.isAdvice { question += " <span class=\"advice\">(advice: never makes a product invalid)</span>" }
            if row.status == .notApplicable, !row.reasons.isEmpty {
                question += "<span class=\"reason\">Not applicable: \(Self.inline(row.reasons.joined(separator: "; ")))</span>"
            }
            page.add("<td class=\"question\">\(question)</td>")
            page.add("<td class=\"status-cell\">\(Self.badge(row.status))</td>")
            page.add("</tr>")
            guard detailed else { continue }
            page.add("<tr class=\"details\" data-details-for=\"\(id)\" data-status=\"\(row.status.rawValue)\"><td colspan=\"4\">")
            if !row.questions.isEmpty {
                page.add("<ul class=\"questions\">")
                for question in row.questions { page.add("<li>\(Self.icon(for: .unknown))<span>\(Self.question(question.question, key: question.key, productID: question.productID))</span></li>") }
                page.add("</ul>")
            }
            findings(row.findings, shown: &shown, into: &page)
            page.add("</td></tr>")
        }
        page.add("</tbody>")
        page.add("</table>")
        page.add("</section>")
    }

    private func products(_ document: ReportDocument, into page: inout Page) {
        page.add("<section id=\"products\" aria-labelledby=\"products-heading\">")
        page.add("<h2 id=\"products-heading\">Products</h2>")
        guard !document.products.isEmpty else {
            page.add("<p>\(document.noProductsSentence)</p>")
            page.add("</section>")
            return
        }
        page.add("<table class=\"products stack\">")
        page.add("<thead><tr><th scope=\"col\">Product</th><th scope=\"col\">Type</th><th scope=\"col\">Status</th><th scope=\"col\">Cleared for sale</th><th scope=\"col\">Price</th><th scope=\"col\">Localizations</th><th scope=\"col\">Verdict</th><th scope=\"col\">Why</th></tr></thead>")
        page.add("<tbody>")
        for product in document.products {
            page.add("<tr id=\"\(Self.escape(product.anchor))\" data-product=\"\(Self.escape(product.productID))\" data-verdict=\"\(product.verdict.rawValue)\">")
            var identity = Self.breakableCode(product.productID)
            if let name = product.referenceName { identity += "<span class=\"sub\">\(Self.escape(name))</span>" }
            if !product.requestedAs.isEmpty {
                identity += "<span class=\"sub\">requested as \(product.requestedAs.map(Self.code).joined(separator: ", "))</span>"
            }
            page.add("<th scope=\"row\">\(identity)</th>")
            if product.inDescriptor {
                page.add(Self.cell("Type", product.type.map(Self.escape)))
                page.add(Self.cell("Status", product.status.map(Self.escape)))
                page.add(Self.cell("Cleared for sale", product.clearedForSale.map(Self.escape)))
                page.add(Self.cell("Price", product.price.map(Self.escape)))
                let names = product.localizations.map { localization -> String in
                    let name = localization.displayName.map { "<span\(Self.languageAttribute(localization.locale))>\(Self.escape($0))</span>" } ?? Self.missing
                    return "<li>\(name) <span class=\"locale\">\(Self.escape(localization.locale))</span></li>"
                }
                page.add(Self.cell("Localizations", names.isEmpty ? nil : "<ul class=\"plain\">\(names.joined())</ul>"))
            } else {
                page.add("<td data-label=\"Type\" colspan=\"5\" class=\"muted\">not in the descriptor’s <code>products</code></td>")
            }
            page.add("<td data-label=\"Verdict\">\(Self.verdictBadge(product.verdict))</td>")
            page.add("<td data-label=\"Why\">\(Self.why(product))</td>")
            page.add("</tr>")
        }
        page.add("</tbody>")
        page.add("</table>")
        page.add("</section>")
    }

    private func catalogs(_ document: ReportDocument, into page: inout Page) {
        page.add("<section id=\"catalogs\" aria-labelledby=\"catalogs-heading\">")
        page.add("<h2 id=\"catalogs-heading\">Bulk product XML catalogs</h2>")
        page.add("<table class=\"catalogs stack\">")
        page.add("<thead><tr><th scope=\"col\">Catalog</th><th scope=\"col\">Result</th><th scope=\"col\" class=\"count\">Errors</th><th scope=\"col\" class=\"count\">Warnings</th><th scope=\"col\" class=\"count\">Notes</th><th scope=\"col\">Findings</th></tr></thead>")
        page.add("<tbody>")
        for catalog in document.catalogs {
            page.add("<tr data-catalog=\"\(Self.escape(catalog.file))\">")
            page.add("<th scope=\"row\">\(Self.breakableCode(catalog.file))</th>")
            page.add("<td data-label=\"Result\">\(Self.badge(catalog.status))</td>")
            page.add("<td data-label=\"Errors\" class=\"count\">\(catalog.errors)</td>")
            page.add("<td data-label=\"Warnings\" class=\"count\">\(catalog.warnings)</td>")
            page.add("<td data-label=\"Notes\" class=\"count\">\(catalog.notes)</td>")
            page.add("<td data-label=\"Findings\">\(catalog.findingNumbers.isEmpty ? "none" : Self.findingLinks(catalog.findingNumbers))</td>")
            page.add("</tr>")
        }
        page.add("</tbody>")
        page.add("</table>")
        page.add("</section>")
    }

    private func unchecked(_ document: ReportDocument, into page: inout Page) {
        page.add("<section id=\"unchecked\" aria-labelledby=\"unchecked-heading\">")
        page.add("<h2 id=\"unchecked-heading\">What no rule could check</h2>")
        page.add("<h3>Questions to answer</h3>")
        page.add("<p>\(document.openQuestionsLead)</p>")
        if document.evaluated, !document.openQuestions.isEmpty {
            page.add("<table class=\"questions-table stack\">")
            page.add("<thead><tr><th scope=\"col\">Item</th><th scope=\"col\">Question</th><th scope=\"col\">Descriptor key</th></tr></thead>")
            page.add("<tbody>")
            for open in document.openQuestions {
                page.add("<tr data-open-question=\"\(Self.escape(open.itemID))\">")
                page.add("<th scope=\"row\"><a href=\"#\(Self.escape(open.itemID))\"><code>\(Self.escape(open.itemID))</code></a></th>")
                var question = Self.inline(open.question)
                if let product = open.productID { question += " <span class=\"sub\">for \(Self.code(product))</span>" }
                page.add("<td data-label=\"Question\">\(question)</td>")
                page.add("<td data-label=\"Key\">\(open.key.isEmpty ? "none" : Self.code(open.key))</td>")
                page.add("</tr>")
            }
            page.add("</tbody>")
            page.add("</table>")
        }
        page.add("<h3>Not applicable here</h3>")
        if let none = document.noneNotApplicableSentence {
            page.add("<p>\(none)</p>")
        } else {
            page.add("<table class=\"not-applicable stack\">")
            page.add("<thead><tr><th scope=\"col\">Item</th><th scope=\"col\">Question</th><th scope=\"col\">Why not</th></tr></thead>")
            page.add("<tbody>")
            for item in document.notApplicable {
                page.add("<tr data-not-applicable=\"\(Self.escape(item.itemID))\">")
                page.add("<th scope=\"row\"><a href=\"#\(Self.escape(item.itemID))\"><code>\(Self.escape(item.itemID))</code></a></th>")
                page.add("<td data-label=\"Question\">\(Self.inline(item.question))</td>")
                page.add("<td data-label=\"Why not\">\(Self.inline(item.reasons.joined(separator: "; ")))</td>")
                page.add("</tr>")
            }
            page.add("</tbody>")
            page.add("</table>")
        }
        page.add("</section>")
    }

    private func rulesInForce(_ document: ReportDocument, into page: inout Page) {
        let rules = document.rules
        page.add("<section id=\"rules\" aria-labelledby=\"rules-heading\">")
        page.add("<h2 id=\"rules-heading\">Version and rules</h2>")
        page.add("<dl class=\"facts\">")
        page.add(Self.fact("iapdoctor", Self.code(rules.toolVersion)))
        page.add(Self.fact("Rules in force", document.rulesInForce(code: Self.code)))
        page.add(Self.fact("Configuration file", rules.configurationFile.map(Self.code) ?? ReportDocument.noConfigurationFile))
        page.add(Self.fact("Rules turned off", rules.disabledRules.isEmpty ? "none" : rules.disabledRules.map(Self.code).joined(separator: ", ")))
        if !rules.changes.isEmpty {
            let changes = rules.changes.map { change in
                "<li>\(Self.code(change.rule)) \(change.option.map { "option " + Self.code($0) } ?? "severity"): \(Self.code(change.value)) (default \(Self.code(change.defaultValue)))</li>"
            }
            page.add(Self.fact("Changed from the defaults", "<ul class=\"plain\">\(changes.joined())</ul>"))
        }
        page.add(Self.fact("Fails at", Self.code("--fail-on \(rules.failOn)")))
        page.add(Self.fact("iapdoctor check would say", Self.escape(document.summaryLine), wide: true))
        page.add("</dl>")
        page.add("</section>")
    }

    // MARK: Findings

    /// The findings, each with its fix and where it points. A finding answers more than one item
    /// at times; its anchor goes on the first copy so `#finding-N` stays unique.
    private func findings(_ entries: [ReportDocument.FindingEntry], shown: inout Set<Int>, into page: inout Page) {
        guard !entries.isEmpty else { return }
        page.add("<ul class=\"findings\">")
        for finding in entries {
            let anchor = shown.insert(finding.number).inserted ? " id=\"finding-\(finding.number)\"" : ""
            page.add("<li class=\"finding \(Self.severityClass(finding.severity))\"\(anchor) data-finding=\"\(finding.number)\">")
            var head = Self.severityBadge(finding.severity)
            let rule = "<code>\(Self.escape(finding.rule))</code>"
            head += " " + (finding.docsURL.map { "<a class=\"rule\" href=\"\(Self.escape($0))\">\(rule)</a>" } ?? rule)
            head += " <span class=\"finding-number\">[\(finding.number)]</span>"
            page.add("<p class=\"finding-head\">\(head)</p>")
            page.add("<p class=\"message\">\(Self.inline(finding.message))</p>")
            if let location = finding.location {
                page.add("<p class=\"where\">at \(Self.breakableCode(location.description))</p>")
                if let line = location.sourceLine {
                    page.add("<pre class=\"source\"><span class=\"gutter\" aria-hidden=\"true\">\(location.line)</span>\(Self.highlighted(line, location.highlight))</pre>")
                }
            }
            for note in finding.notes { page.add("<p class=\"note\"><strong>Note:</strong> \(Self.inline(note))</p>") }
            if let help = finding.help { page.add("<p class=\"fix\"><strong>Fix:</strong> \(Self.inline(help))</p>") }
            page.add("</li>")
        }
        page.add("</ul>")
    }

    // MARK: Pieces

    private struct Page {
        var lines: [String] = []
        mutating func add(_ line: String) { lines.append(line) }
        var text: String { lines.joined(separator: "\n") + "\n" }
    }

    static let missing = "<span class=\"muted\">not stated</span>"

    /// "from `RunMonster/Info.plist:12:10`" after a fact the header shows.
    static func origin(_ place: String?) -> String {
        place.map { " <span class=\"sub\">from \(breakableCode($0))</span>" } ?? ""
    }

    static func fact(_ term: String, _ value: String, wide: Bool = false) -> String {
        "<div\(wide ? " class=\"wide\"" : "")><dt>\(term)</dt><dd>\(value)</dd></div>"
    }

    static func cell(_ label: String, _ value: String?) -> String {
        "<td data-label=\"\(label)\">\(value ?? missing)</td>"
    }

    static func code(_ value: String) -> String { "<code>\(escape(value))</code>" }

    /// A product ID, bundle ID or path as code that may wrap after a `.` or `/` (`<wbr>`), rather
    /// than in the middle of a word, on a narrow column or a phone.
    static func breakableCode(_ value: String) -> String {
        var result = ""
        for character in value {
            result += escape(String(character))
            if character == "." || character == "/" { result += "<wbr>" }
        }
        return "<code>\(result)</code>"
    }

    static func tally(_ count: Int, _ status: Diagnosis.ItemStatus?, _ word: String, icon: String? = nil) -> String {
        let style = status.map(statusClass) ?? "s-note"
        let symbol = icon ?? status.map { Self.icon(for: $0) } ?? ""
        return "<li class=\"status \(style)\(count == 0 ? " zero" : "")\">\(symbol)<b>\(count)</b> \(word)</li>"
    }

    static func badge(_ status: Diagnosis.ItemStatus) -> String {
        "<span class=\"status \(statusClass(status))\">\(icon(for: status))\(statusWord(status))</span>"
    }

    static func verdictBadge(_ verdict: Diagnosis.Verdict) -> String {
        let status: Diagnosis.ItemStatus
        switch verdict {
        case .valid: status = .pass
        case .invalid: status = .fail
        case .atRisk: status = .warn
        case .unknown: status = .unknown
        }
        return "<span class=\"status \(statusClass(status))\">\(icon(for: status))\(verdict == .atRisk ? "at risk" : verdict.rawValue)</span>"
    }

    static func severityBadge(_ severity: Severity) -> String {
        "<span class=\"status \(severityClass(severity))\">\(severityIcon(severity))\(severity.rawValue)</span>"
    }

    static func statusWord(_ status: Diagnosis.ItemStatus) -> String {
        status == .notApplicable ? "not applicable" : status.rawValue
    }

    static func statusClass(_ status: Diagnosis.ItemStatus) -> String {
        switch status {
        case .pass: return "s-pass"
        case .fail: return "s-fail"
        case .warn: return "s-warn"
        case .unknown: return "s-unknown"
        case .notApplicable: return "s-na"
        }
    }

    static func severityClass(_ severity: Severity) -> String {
        switch severity {
        case .error: return "s-fail"
        case .warning: return "s-warn"
        case .note: return "s-note"
        }
    }

    static func question(_ question: String, key: String, productID: String?) -> String {
        var text = inline(question)
        if !key.isEmpty { text += " Set \(code(key))." }
        if let productID { text += " <span class=\"sub\">for \(code(productID))</span>" }
        return text
    }

    static func findingLinks(_ numbers: [Int]) -> String {
        numbers.map { "<a href=\"#finding-\($0)\">[\($0)]</a>" }.joined(separator: " ")
    }

    /// The items that decide a product's verdict, linked to their rows, with the findings about it.
    static func why(_ product: ReportDocument.ProductRow) -> String {
        guard !product.reasons.isEmpty else { return "Every item that applies passes." }
        var lines: [String] = []
        for (status, word) in [(Diagnosis.ItemStatus.fail, "Fails"), (.warn, "At risk"), (.unknown, "Unknown")] {
            let items = product.reasons.filter { $0.status == status }.map { reason -> String in
                var item = "<a href=\"#\(escape(reason.itemID))\"><code>\(escape(reason.itemID))</code></a>"
                if !reason.findingNumbers.isEmpty { item += "&nbsp;" + findingLinks(reason.findingNumbers) }
                return "<li>\(item)</li>"
            }
            if !items.isEmpty { lines.append("<p class=\"why-label\">\(word):</p><ul class=\"plain reasons\">\(items.joined())</ul>") }
        }
        return lines.joined()
    }

    /// `lang` for a display name, when the locale is a plausible language tag (`en-US`, `zh_Hans`).
    static func languageAttribute(_ locale: String) -> String {
        let tag = locale.replacingOccurrences(of: "_", with: "-")
        let plausible = !tag.isEmpty && tag.count <= 35 && tag.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
        }
        return plausible ? " lang=\"\(tag)\"" : ""
    }

    /// A source line with the part the finding is about in `<mark>`.
    static func highlighted(_ line: String, _ range: Range<Int>?) -> String {
        let scalars = Array(line.unicodeScalars)
        guard let range, range.lowerBound >= 0, range.upperBound <= scalars.count, !range.isEmpty else { return escape(line) }
        func text(_ part: ArraySlice<Unicode.Scalar>) -> String { String(String.UnicodeScalarView(part)) }
        return escape(text(scalars[..<range.lowerBound])) + "<mark>" + escape(text(scalars[range])) + "</mark>"
            + escape(text(scalars[range.upperBound...]))
    }

    /// Text from a message: the `code` spans the rules write become `<code>`; everything is escaped.
    static func inline(_ text: String) -> String {
        let segments = text.split(separator: "`", omittingEmptySubsequences: false)
        var result = ""
        for (index, segment) in segments.enumerated() {
            if index % 2 == 1 && index < segments.count - 1 {
                result += "<code>" + escape(String(segment)) + "</code>"
            } else if index % 2 == 1 {
                // A backtick that nothing closes is a plain backtick.
                result += "`" + escape(String(segment))
            } else {
                result += escape(String(segment))
            }
        }
        return result
    }

    /// Escapes text for element content and quoted attribute values alike. Control characters other
    /// than tab and newline cannot appear in HTML and show as U+FFFD.
    public static func escape(_ text: String) -> String {
        // Control characters from the inputs are shown escaped (`\u{1B}`), as in every text format.
        let text = Escaping.controlCharacters(text)
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    // MARK: Icons (inline SVG, drawn in the text colour; the word beside them carries the meaning)

    static func svg(_ body: String) -> String {
        "<svg class=\"icon\" viewBox=\"0 0 16 16\" width=\"16\" height=\"16\" aria-hidden=\"true\" focusable=\"false\">\(body)</svg>"
    }

    static func icon(for status: Diagnosis.ItemStatus) -> String {
        switch status {
        case .pass:
            return svg("<circle cx=\"8\" cy=\"8\" r=\"8\"/><path d=\"M4.4 8.3l2.4 2.4 4.8-5.2\" fill=\"none\" class=\"glyph\" stroke=\"#fff\" stroke-width=\"1.9\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>")
        case .fail:
            return svg("<circle cx=\"8\" cy=\"8\" r=\"8\"/><path d=\"M5.3 5.3l5.4 5.4m0-5.4l-5.4 5.4\" fill=\"none\" class=\"glyph\" stroke=\"#fff\" stroke-width=\"1.9\" stroke-linecap=\"round\"/>")
        case .warn:
            return severityIcon(.warning)
        case .unknown:
            return svg("<circle cx=\"8\" cy=\"8\" r=\"8\"/><path d=\"M5.9 6.1a2.15 2.15 0 1 1 3 2c-.6.3-.9.7-.9 1.3v.4\" fill=\"none\" class=\"glyph\" stroke=\"#fff\" stroke-width=\"1.7\" stroke-linecap=\"round\"/><circle cx=\"8\" cy=\"12.2\" r=\"1\" class=\"dot\" fill=\"#fff\"/>")
        case .notApplicable:
            return svg("<circle cx=\"8\" cy=\"8\" r=\"7\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.8\"/><path d=\"M4.8 8h6.4\" stroke=\"currentColor\" stroke-width=\"1.8\" stroke-linecap=\"round\"/>")
        }
    }

    static func severityIcon(_ severity: Severity) -> String {
        switch severity {
        case .error:
            return icon(for: .fail)
        case .warning:
            return svg("<path d=\"M8 .8l7.6 13.6H.4z\" stroke-linejoin=\"round\"/><path d=\"M8 5.6v4\" class=\"glyph\" stroke=\"#fff\" stroke-width=\"1.8\" stroke-linecap=\"round\"/><circle cx=\"8\" cy=\"12.1\" r=\"1\" class=\"dot\" fill=\"#fff\"/>")
        case .note:
            return svg("<circle cx=\"8\" cy=\"8\" r=\"8\"/><path d=\"M8 7.2v4.6\" class=\"glyph\" stroke=\"#fff\" stroke-width=\"1.8\" stroke-linecap=\"round\"/><circle cx=\"8\" cy=\"4.6\" r=\"1\" class=\"dot\" fill=\"#fff\"/>")
        }
    }
}
