extension RecurrenceRule {
    /// How strictly to read an `RRULE`.
    public enum ParsingMode: Sendable, Hashable {
        /// Every RFC 5545 violation is an error.
        case strict
        /// Known real-world deviations are repaired and reported (for import).
        case lenient
    }

    /// What lenient parsing made of a rule, with every problem it repaired.
    public struct ParseResult: Sendable, Hashable {
        /// The rule, repaired where needed.
        public var rule: RecurrenceRule
        /// The problems found, each with the part it is in. Empty for a valid rule.
        public var issues: [RecurrenceRuleError]
    }

    /// Parses an `RRULE` value strictly, such as `FREQ=DAILY;COUNT=5`.
    ///
    /// A leading `RRULE:` is accepted. The parts may come in any order.
    /// - Throws: ``RecurrenceRuleError`` naming the first offending part.
    public init(parsing text: some StringProtocol) throws(RecurrenceRuleError) {
        let result = try RecurrenceRule.parse(text, mode: .strict)
        self = result.rule
    }

    /// Parses an `RRULE` value in the given mode.
    ///
    /// In ``ParsingMode/lenient`` mode only a rule that cannot be read at all
    /// (no `FREQ`, an unreadable `FREQ`) throws; these are repaired and reported:
    /// - `COUNT` with `UNTIL`: both are kept and the rule ends at whichever comes first;
    ///   a `COUNT` below 1 beside an `UNTIL` is ignored, and `UNTIL` ends the rule;
    /// - a part the `FREQ` does not allow (`BYMONTHDAY` with `WEEKLY`, a numbered
    ///   `BYDAY` in a `WEEKLY` rule): the part, or the number, is ignored;
    /// - values out of range are dropped, `INTERVAL=0` is read as 1;
    /// - a repeated part: the last one wins; an unknown part (including the
    ///   `X-` parts RFC 2445 allowed) is kept verbatim and written back.
    public static func parse(_ text: some StringProtocol, mode: ParsingMode) throws(RecurrenceRuleError) -> ParseResult {
        var parser = Parser(mode: mode)
        let rule = try parser.parse(String(text))
        return ParseResult(rule: rule, issues: parser.issues)
    }

    /// The canonical `RRULE` value: `FREQ` first, then `COUNT`/`UNTIL`,
    /// `INTERVAL` (when not 1), the `BY…` parts in RFC order, `WKST` (when not
    /// Monday) and extension parts.
    ///
    /// Parsing this text gives back an equal rule.
    public var icalValue: String {
        var parts = ["FREQ=" + frequency.rawValue]
        if let until { parts.append("UNTIL=" + until.icalValue) }
        if let count { parts.append("COUNT=\(count)") }
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        func list(_ name: String, _ values: [Int]) {
            if !values.isEmpty { parts.append(name + "=" + values.map { String($0) }.joined(separator: ",")) }
        }
        list("BYSECOND", bySecond)
        list("BYMINUTE", byMinute)
        list("BYHOUR", byHour)
        if !byDay.isEmpty { parts.append("BYDAY=" + byDay.map(\.description).joined(separator: ",")) }
        list("BYMONTHDAY", byMonthDay)
        list("BYYEARDAY", byYearDay)
        list("BYWEEKNO", byWeekNo)
        list("BYMONTH", byMonth)
        list("BYSETPOS", bySetPos)
        if weekStart != .monday { parts.append("WKST=" + weekStart.icalCode) }
        for x in extensionParts { parts.append(x.name + "=" + x.value) }
        return parts.joined(separator: ";")
    }

    /// Checks the rule against RFC 5545 §3.3.10.
    ///
    /// - Throws: ``RecurrenceRuleError`` naming the first offending part.
    public func validate() throws(RecurrenceRuleError) {
        var parser = Parser(mode: .strict)
        var copy = self
        try parser.check(&copy)
    }
}

/// Reads and checks `RRULE` text; in lenient mode it records and repairs.
struct Parser {
    let mode: RecurrenceRule.ParsingMode
    var issues: [RecurrenceRuleError] = []

    init(mode: RecurrenceRule.ParsingMode) { self.mode = mode }

    /// Records a problem: throws in strict mode, keeps it in lenient mode.
    /// - Parameter repair: what lenient mode does about it, added to its message.
    mutating func problem(_ code: RecurrenceRuleError.Code, _ part: String?, _ message: String, repair: String? = nil) throws(RecurrenceRuleError) {
        if mode == .strict { throw RecurrenceRuleError(code, part: part, message) }
        issues.append(RecurrenceRuleError(code, part: part, repair.map { message + "; " + $0 } ?? message))
    }

    mutating func parse(_ raw: String) throws(RecurrenceRuleError) -> RecurrenceRule {
        var text = Substring(raw.trimmedWhitespace)
        if text.prefix(6).uppercased() == "RRULE:" { text = text.dropFirst(6) }
        var frequency: RecurrenceRule.Frequency?
        var rule = RecurrenceRule(frequency: .daily)
        var seen = Set<String>()
        for piece in text.split(separator: ";", omittingEmptySubsequences: false) {
            if piece.isEmpty {
                // A trailing or doubled ';' is harmless; strict mode says so.
                try problem(.malformedValue, nil, "empty rule part (a stray ‘;’)")
                continue
            }
            guard let eq = piece.firstIndex(of: "=") else {
                try problem(.malformedValue, String(piece), "‘\(piece)’ is not NAME=VALUE")
                continue
            }
            let name = piece[..<eq].uppercased()
            let value = String(piece[piece.index(after: eq)...])
            if !seen.insert(name).inserted {
                try problem(.duplicatePart, name, "\(name) appears more than once", repair: "the last one is used")
            }
            switch name {
            case "FREQ":
                guard let f = RecurrenceRule.Frequency(rawValue: value.uppercased()) else {
                    throw RecurrenceRuleError(.malformedValue, part: "FREQ", "‘\(value)’ is not a frequency (SECONDLY, MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY)")
                }
                frequency = f
            case "INTERVAL":
                guard let n = Int(value) else { try problem(.malformedValue, name, "‘\(value)’ is not a whole number"); continue }
                rule.interval = n
            case "COUNT":
                guard let n = Int(value) else { try problem(.malformedValue, name, "‘\(value)’ is not a whole number"); continue }
                rule.count = n
            case "UNTIL":
                do throws(TimeValueError) {
                    rule.until = try CalendarTime(icalValue: value)
                } catch {
                    try problem(.malformedValue, name, error.message)
                }
            case "BYSECOND": rule.bySecond = try ints(name, value)
            case "BYMINUTE": rule.byMinute = try ints(name, value)
            case "BYHOUR": rule.byHour = try ints(name, value)
            case "BYMONTHDAY": rule.byMonthDay = try ints(name, value)
            case "BYYEARDAY": rule.byYearDay = try ints(name, value)
            case "BYWEEKNO": rule.byWeekNo = try ints(name, value)
            case "BYMONTH": rule.byMonth = try ints(name, value)
            case "BYSETPOS": rule.bySetPos = try ints(name, value)
            case "BYDAY": rule.byDay = try weekdays(value)
            case "WKST":
                guard let d = Weekday(icalCode: value) else {
                    try problem(.malformedValue, name, "‘\(value)’ is not a weekday (MO, TU, WE, TH, FR, SA or SU)")
                    continue
                }
                rule.weekStart = d
            default:
                // RFC 5545 Appendix A.3 #5: x-name rule parts are no longer allowed
                // in RECUR values; lenient mode keeps any unknown part verbatim.
                try problem(.unknownPart, name, "‘\(name)’ is not an RFC 5545 rule part", repair: "it is kept but not applied")
                // Trimmed (found by fuzzing): a last part ending in a space was
                // written back with it, and the rule's own trim dropped it on the
                // next read, so `icalValue` did not read back as the same rule.
                rule.extensionParts.append(.init(name: name, value: value.trimmedWhitespace))
            }
        }
        guard let frequency else {
            throw RecurrenceRuleError(.missingFrequency, part: "FREQ", "the rule has no FREQ part (for example FREQ=WEEKLY)")
        }
        rule.frequency = frequency
        try check(&rule)
        return rule
    }

    private mutating func ints(_ name: String, _ value: String) throws(RecurrenceRuleError) -> [Int] {
        var out: [Int] = []
        for item in value.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = item.hasPrefix("+") ? item.dropFirst() : item
            guard let n = Int(trimmed) else {
                try problem(.malformedValue, name, "‘\(item)’ is not a whole number")
                continue
            }
            out.append(n)
        }
        return out
    }

    private mutating func weekdays(_ value: String) throws(RecurrenceRuleError) -> [RecurrenceRule.WeekdayOccurrence] {
        var out: [RecurrenceRule.WeekdayOccurrence] = []
        for item in value.split(separator: ",", omittingEmptySubsequences: false) {
            let code = item.suffix(2)
            let number = item.dropLast(2)
            guard let day = Weekday(icalCode: code) else {
                try problem(.malformedValue, "BYDAY", "‘\(item)’ is not a weekday such as MO, 2TU or -1FR")
                continue
            }
            if number.isEmpty || number == "+" || number == "-" {
                if !number.isEmpty {
                    try problem(.malformedValue, "BYDAY", "‘\(item)’ has a sign but no number")
                }
                out.append(.init(nil, day))
                continue
            }
            let digits = number.hasPrefix("+") ? number.dropFirst() : number
            guard let n = Int(digits) else {
                try problem(.malformedValue, "BYDAY", "‘\(item)’ is not a weekday such as MO, 2TU or -1FR")
                continue
            }
            out.append(.init(n, day))
        }
        return out
    }

    /// Checks RFC 5545 §3.3.10's constraints; lenient mode repairs the rule.
    mutating func check(_ rule: inout RecurrenceRule) throws(RecurrenceRuleError) {
        let freq = rule.frequency
        if rule.interval < 1 {
            try problem(.valueOutOfRange, "INTERVAL", "INTERVAL must be 1 or more, not \(rule.interval)", repair: "read as 1")
            rule.interval = 1
        }
        if let count = rule.count, count < 1 {
            // With an UNTIL the invalid COUNT is dropped and UNTIL ends the rule:
            // `UNTIL=20240331;COUNT=-1` (a producer's "no count") means what its
            // UNTIL says, as recurring-ical-events reads it. Alone, it is kept as
            // the end it states: nothing beyond DTSTART, as dateutil reads it.
            if rule.until != nil {
                try problem(.valueOutOfRange, "COUNT", "COUNT must be 1 or more, not \(count)", repair: "it is ignored and UNTIL ends the rule")
                rule.count = nil
            } else {
                try problem(.valueOutOfRange, "COUNT", "COUNT must be 1 or more, not \(count)", repair: "the rule gives no occurrence")
                rule.count = 0
            }
        }
        if rule.count != nil, rule.until != nil {
            try problem(.countAndUntil, "COUNT", "COUNT and UNTIL must not both be given", repair: "the rule ends at whichever comes first")
        }
        func range(_ name: String, _ values: inout [Int], _ valid: (Int) -> Bool, _ what: String) throws(RecurrenceRuleError) {
            let bad = values.filter { !valid($0) }
            if !bad.isEmpty {
                try problem(.valueOutOfRange, name, "\(bad.map { String($0) }.joined(separator: ",")) outside \(what)", repair: "dropped")
                values.removeAll { !valid($0) }
            }
        }
        try range("BYSECOND", &rule.bySecond, { (0...60).contains($0) }, "0…60")
        try range("BYMINUTE", &rule.byMinute, { (0...59).contains($0) }, "0…59")
        try range("BYHOUR", &rule.byHour, { (0...23).contains($0) }, "0…23")
        try range("BYMONTHDAY", &rule.byMonthDay, { $0 != 0 && (-31...31).contains($0) }, "±1…31")
        try range("BYYEARDAY", &rule.byYearDay, { $0 != 0 && (-366...366).contains($0) }, "±1…366")
        try range("BYWEEKNO", &rule.byWeekNo, { $0 != 0 && (-53...53).contains($0) }, "±1…53")
        try range("BYMONTH", &rule.byMonth, { (1...12).contains($0) }, "1…12")
        try range("BYSETPOS", &rule.bySetPos, { $0 != 0 && (-366...366).contains($0) }, "±1…366")

        if !rule.byWeekNo.isEmpty, freq != .yearly {
            try problem(.partNotAllowed, "BYWEEKNO", "BYWEEKNO is only allowed with FREQ=YEARLY, not \(freq.rawValue)", repair: "ignored")
            rule.byWeekNo = []
        }
        if !rule.byYearDay.isEmpty, [.daily, .weekly, .monthly].contains(freq) {
            try problem(.partNotAllowed, "BYYEARDAY", "BYYEARDAY is not allowed with FREQ=\(freq.rawValue)", repair: "ignored")
            rule.byYearDay = []
        }
        if !rule.byMonthDay.isEmpty, freq == .weekly {
            try problem(.partNotAllowed, "BYMONTHDAY", "BYMONTHDAY is not allowed with FREQ=WEEKLY", repair: "ignored")
            rule.byMonthDay = []
        }
        let numbered = rule.byDay.contains { $0.ordinal != nil }
        if numbered {
            let limit = freq == .monthly ? 5 : 53
            if freq != .monthly && freq != .yearly {
                try problem(.partNotAllowed, "BYDAY", "a numbered weekday (such as 2MO) is only allowed with FREQ=MONTHLY or YEARLY, not \(freq.rawValue)", repair: "the number is ignored")
                rule.byDay = rule.byDay.map { .init(nil, $0.weekday) }
            } else if freq == .yearly, !rule.byWeekNo.isEmpty {
                try problem(.partNotAllowed, "BYDAY", "a numbered weekday must not be combined with BYWEEKNO", repair: "the number is ignored")
                rule.byDay = rule.byDay.map { .init(nil, $0.weekday) }
            } else if let bad = rule.byDay.first(where: { ($0.ordinal ?? 1) == 0 || abs($0.ordinal ?? 1) > limit }) {
                try problem(.valueOutOfRange, "BYDAY", "\(bad) is outside ±1…\(limit) for FREQ=\(freq.rawValue)", repair: "dropped")
                rule.byDay.removeAll { ($0.ordinal ?? 1) == 0 || abs($0.ordinal ?? 1) > limit }
            }
        }
        if !rule.bySetPos.isEmpty {
            let hasOther = !(rule.bySecond.isEmpty && rule.byMinute.isEmpty && rule.byHour.isEmpty && rule.byDay.isEmpty
                && rule.byMonthDay.isEmpty && rule.byYearDay.isEmpty && rule.byWeekNo.isEmpty && rule.byMonth.isEmpty)
            if !hasOther {
                try problem(.missingCompanion, "BYSETPOS", "BYSETPOS must be used with another BYxxx part", repair: "ignored")
                rule.bySetPos = []
            }
        }
    }
}

extension String {
    /// The string without leading and trailing white space.
    var trimmedWhitespace: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
