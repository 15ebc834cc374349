/// A point in time in whole seconds since 1970-01-01T00:00:00Z. Dates in descriptors are ISO 8601
/// (`2026-11-22`, `2026-11-22T10:00:00Z`, `2026-11-22T10:00:00+02:00`); no time zone means UTC.
public struct Timestamp: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var secondsSince1970: Int64

    public init(secondsSince1970: Int64) {
        self.secondsSince1970 = secondsSince1970
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.secondsSince1970 < b.secondsSince1970 }

    public static func - (a: Timestamp, b: Timestamp) -> Int64 { a.secondsSince1970 - b.secondsSince1970 }

    /// Never traps: hours beyond ±100,000 years (or not a number) are clamped to that.
    public func adding(hours: Double) -> Timestamp {
        let limit = 100_000.0 * 366 * 24 * 3600
        let seconds = hours.isNaN ? 0 : min(max(hours * 3600, -limit), limit)
        return Timestamp(secondsSince1970: secondsSince1970.addingReportingOverflow(Int64(seconds)).partialValue)
    }

    /// Parses ISO 8601 date or date-time; `nil` when the text is not one.
    public init?(iso8601 text: String) {
        let s = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= s.count else { return nil }
            var value = 0
            for byte in s[range] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard s.count >= 10, s[4] == UInt8(ascii: "-"), s[7] == UInt8(ascii: "-"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            (1...12).contains(month), day >= 1, day <= Timestamp.daysIn(month: month, year: year)
        else { return nil }
        var hour = 0, minute = 0, second = 0, offset = 0
        var index = 10
        if index < s.count {
            guard s[index] == UInt8(ascii: "T") || s[index] == UInt8(ascii: " "),
                let h = number(index + 1..<index + 3), index + 3 < s.count, s[index + 3] == UInt8(ascii: ":"),
                let m = number(index + 4..<index + 6), h < 24, m < 60
            else { return nil }
            hour = h
            minute = m
            index += 6
            if index < s.count, s[index] == UInt8(ascii: ":") {
                guard let sec = number(index + 1..<index + 3), sec < 61 else { return nil }
                second = sec
                index += 3
                // Fractional seconds are accepted and dropped.
                if index < s.count, s[index] == UInt8(ascii: ".") {
                    index += 1
                    let start = index
                    while index < s.count, s[index] >= 48, s[index] <= 57 { index += 1 }
                    guard index > start else { return nil }
                }
            }
            if index < s.count {
                if s[index] == UInt8(ascii: "Z") {
                    index += 1
                } else if s[index] == UInt8(ascii: "+") || s[index] == UInt8(ascii: "-") {
                    let sign = s[index] == UInt8(ascii: "+") ? 1 : -1
                    guard let oh = number(index + 1..<index + 3) else { return nil }
                    var om = 0
                    if index + 3 < s.count, s[index + 3] == UInt8(ascii: ":") {
                        guard let m = number(index + 4..<index + 6) else { return nil }
                        om = m
                        index += 6
                    } else if let m = number(index + 3..<index + 5) {
                        om = m
                        index += 5
                    } else {
                        index += 3
                    }
                    offset = sign * (oh * 3600 + om * 60)
                } else {
                    return nil
                }
            }
            guard index == s.count else { return nil }
        }
        let days = Timestamp.daysFromCivil(year: year, month: month, day: day)
        secondsSince1970 = Int64(days) * 86400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
    }

    /// `2026-11-22T10:00:00Z`.
    public var description: String {
        let days = Int(secondsSince1970 >= 0 ? secondsSince1970 / 86400 : (secondsSince1970 - 86399) / 86400)
        let rest = Int(secondsSince1970 - Int64(days) * 86400)
        let (y, m, d) = Timestamp.civilFromDays(days)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let year = String(y)
        return "\(String(repeating: "0", count: max(0, 4 - year.count)))\(year)-\(two(m))-\(two(d))T"
            + "\(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60))Z"
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's civil-calendar algorithms.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    static func civilFromDays(_ z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp + (mp < 10 ? 3 : -9)
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}

/// "3 hours", "1 day 2 hours": a duration for messages.
public func describeDuration(seconds: Int64) -> String {
    let s = max(0, seconds)
    if s < 3600 {
        let minutes = Int((s + 59) / 60)
        return minutes == 1 ? "1 minute" : "\(minutes) minutes"
    }
    let hours = Int(s / 3600)
    if hours < 48 { return hours == 1 ? "1 hour" : "\(hours) hours" }
    let days = hours / 24
    return "\(days) days"
}
