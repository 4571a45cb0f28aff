import CalendarCore
import Foundation

/// Reading a `VTIMEZONE`'s observances into ``ZoneRules``, and writing
/// ``ZoneRules`` out as a `VTIMEZONE` (RFC 5545 §3.6.5).
enum VTimeZone {
    struct Problem: Error {
        var line: Int
        var message: String
    }

    /// The end of the tabulated range: onsets are expanded up to 2150, as the
    /// IANA tables are.
    static let horizon: Int64 = 5_680_281_600  // 2150-01-01T00:00:00Z

    /// The transitions a `VTIMEZONE` describes.
    ///
    /// Each `STANDARD`/`DAYLIGHT` observance has onsets at its `DTSTART`, its
    /// `RRULE` and its `RDATE`s, all local times read with its `TZOFFSETFROM`;
    /// from each onset `TZOFFSETTO` applies. An `RRULE`'s `UNTIL` is in UTC
    /// (§3.6.5 requires it) and is moved to local time before expansion.
    static func rules(from node: RawNode, tzid: String) throws(Problem) -> ZoneRules {
        var transitions: [(instant: Int64, offset: Int)] = []
        var earliest: (instant: Int64, from: Int)?
        for o in node.children where o.name == "STANDARD" || o.name == "DAYLIGHT" {
            guard let (from, fromLine) = o.first("TZOFFSETFROM"), let (to, toLine) = o.first("TZOFFSETTO"), let (dtstart, startLine) = o.first("DTSTART") else {
                throw Problem(line: o.line, message: "a \(o.name) observance lacks DTSTART, TZOFFSETFROM or TZOFFSETTO")
            }
            guard let offsetFrom = offset(from.value) else { throw Problem(line: fromLine, message: "TZOFFSETFROM ‘\(from.value)’ is not ±HHMM") }
            guard let offsetTo = offset(to.value) else { throw Problem(line: toLine, message: "TZOFFSETTO ‘\(to.value)’ is not ±HHMM") }
            let start: CalendarTime
            do { start = try CalendarTime(icalValue: dtstart.value.trimmedValue) } catch {
                throw Problem(line: startLine, message: "DTSTART ‘\(dtstart.value)’: \(error.message)")
            }
            let local = CalendarTime.floating(start.wallTime)
            var rules: [RecurrenceRule] = []
            for (p, line) in o.properties where p.name == "RRULE" {
                guard var rule = try? RecurrenceRule.parse(p.value, mode: .lenient).rule else {
                    throw Problem(line: line, message: "RRULE ‘\(p.value)’ cannot be read")
                }
                if case .utc(let u)? = rule.until {
                    rule.until = .floating(LocalDateTime(localSeconds: u.localSeconds + Int64(offsetFrom)))
                } else if case .date(let d)? = rule.until {
                    rule.until = .floating(LocalDateTime(localSeconds: Int64(d.dayNumber) * 86_400 + 86_399))
                }
                rules.append(rule)
            }
            var additions: [CalendarTime] = []
            for (p, _) in o.properties where p.name == "RDATE" {
                for v in p.value.split(separator: ",") {
                    if let t = try? CalendarTime(icalValue: String(v.split(separator: "/")[0]).trimmedValue) { additions.append(.floating(t.wallTime)) }
                }
            }
            let set = RecurrenceSet(start: local, rules: rules, additions: additions)
            let onsets: [RecurrenceSet.Instance]
            do {
                onsets = try set.instances(to: Date(timeIntervalSince1970: TimeInterval(horizon)), limit: 2000, floatingZone: .utc)
            } catch {
                throw Problem(line: o.line, message: "its onsets cannot be listed: \(error.message)")
            }
            for onset in onsets {
                let instant = onset.epochSeconds - Int64(offsetFrom)
                transitions.append((instant, offsetTo))
                if earliest == nil || instant < earliest!.instant { earliest = (instant, offsetFrom) }
            }
        }
        guard let earliest else { throw Problem(line: node.line, message: "it has no STANDARD or DAYLIGHT observance") }
        return ZoneRules(identifier: tzid, initialOffset: earliest.from, transitions: transitions)
    }

    /// `+0100`, `-0530`, `+013045` → seconds.
    static func offset(_ text: String) -> Int? {
        let s = Array(text.trimmedValue.utf8)
        guard s.count == 5 || s.count == 7, s[0] == UInt8(ascii: "+") || s[0] == UInt8(ascii: "-") else { return nil }
        var digits: [Int] = []
        for c in s.dropFirst() {
            guard c >= 48, c <= 57 else { return nil }
            digits.append(Int(c - 48))
        }
        let h = digits[0] * 10 + digits[1]
        let m = digits[2] * 10 + digits[3]
        let sec = digits.count == 6 ? digits[4] * 10 + digits[5] : 0
        guard m < 60, sec < 60 else { return nil }
        let v = h * 3600 + m * 60 + sec
        return s[0] == UInt8(ascii: "-") ? -v : v
    }

    static func offsetText(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let a = abs(seconds)
        let h = a / 3600, m = a % 3600 / 60, s = a % 60
        return sign + pad(h) + pad(m) + (s == 0 ? "" : pad(s))
    }

    private static func pad(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }

    // MARK: Writing

    /// A `VTIMEZONE` for `rules`, covering instants from `from` on.
    ///
    /// Observances are grouped by (offset before, offset after, DST or not).
    /// Within a group, the longest final run of onsets that follows one yearly
    /// rule (a month, a weekday, its number or "last" in the month, and a wall
    /// time) is written as an `RRULE` (open-ended when the run reaches the end
    /// of the zone table); the onsets before that run are written as `RDATE`s.
    /// A zone with no transition in range gets one `STANDARD` observance.
    ///
    /// Written components are remembered (up to 64): a zone with daylight
    /// saving until 2150 has about 250 transitions to group and name.
    ///
    /// `TZNAME` is the tz database's abbreviation for the period (`CET`,
    /// `CEST`), as other producers write it (see
    /// `ZoneRules.abbreviation(atInstant:)`), not ICU's `GMT+1`.
    static func component(for rules: ZoneRules, tzid: String, from: Int64) -> ContentComponent {
        let key = WrittenKey(rules: rules, tzid: tzid, from: from)
        if let hit = written.withLock({ $0[key] }) { return hit }
        let zone = makeComponent(for: rules, tzid: tzid, from: from)
        written.withLock { table in
            if table.count >= 64 { table.removeAll() }
            table[key] = zone
        }
        return zone
    }

    /// A zone's abbreviation at one of its transitions, looked up once (where
    /// ICU answers, each answer costs it a new formatter). Keyed by zone and
    /// transition, so the table is bounded by the time-zone database.
    private static func abbreviation(_ rules: ZoneRules, at t: ZoneRules.Transition) -> String? {
        let key = AbbreviationKey(zone: rules.identifier, instant: t.instant, offset: t.offsetAfter)
        if let hit = abbreviations.withLock({ $0[key] }) { return hit }
        let name = rules.abbreviation(atInstant: t.instant)
        abbreviations.withLock { $0[key] = .some(name) }
        return name
    }

    private struct AbbreviationKey: Hashable, Sendable {
        var zone: String
        var instant: Int64
        var offset: Int
    }

    private static let abbreviations = Locked<[AbbreviationKey: String?]>([:])

    private struct WrittenKey: Hashable, Sendable {
        var rules: ZoneRules
        var tzid: String
        var from: Int64
    }

    private static let written = Locked<[WrittenKey: ContentComponent]>([:])

    private static func makeComponent(for rules: ZoneRules, tzid: String, from: Int64) -> ContentComponent {
        let start = from - 366 * 86_400
        let changes = rules.transitions(from: start, to: horizon)
        var zone = ContentComponent(name: "VTIMEZONE", properties: [ContentLine(name: "TZID", value: tzid)])
        guard !changes.isEmpty else {
            let offset = rules.offset(atInstant: from)
            var o = ContentComponent(name: "STANDARD")
            o.properties = [
                ContentLine(name: "DTSTART", value: "19700101T000000"),
                ContentLine(name: "TZOFFSETFROM", value: offsetText(offset)),
                ContentLine(name: "TZOFFSETTO", value: offsetText(offset)),
            ]
            if let abbreviation = rules.abbreviation(atInstant: from) { o.properties.append(ContentLine(name: "TZNAME", value: abbreviation)) }
            zone.components = [o]
            return zone
        }
        struct Key: Hashable { var before: Int, after: Int, daylight: Bool, name: String? }
        var groups: [Key: [ZoneRules.Transition]] = [:]
        var order: [Key] = []
        for t in changes {
            let daylight = t.isDaylightSaving ?? (t.offsetAfter > t.offsetBefore)
            let key = Key(before: t.offsetBefore, after: t.offsetAfter, daylight: daylight, name: abbreviation(rules, at: t))
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(t)
        }
        let lastYearInTable = LocalDate(dayNumber: Int((horizon - 1) / 86_400)).year - 1
        var observances: [(Int64, ContentComponent)] = []
        for key in order {
            guard let list = groups[key] else { continue }
            let walls = list.map { LocalDateTime(localSeconds: $0.instant + Int64($0.offsetBefore)) }
            // The final run following one yearly pattern.
            var runStart = walls.count - 1
            let pattern = yearlyPattern(walls[runStart])
            while runStart > 0, yearlyPattern(walls[runStart - 1]) == pattern, walls[runStart - 1].date.year == walls[runStart].date.year - 1 {
                runStart -= 1
            }
            let useRule = walls.count - runStart >= 2
            func observance(_ first: LocalDateTime) -> ContentComponent {
                var o = ContentComponent(name: key.daylight ? "DAYLIGHT" : "STANDARD")
                o.properties = [
                    ContentLine(name: "DTSTART", value: first.basicISO),
                    ContentLine(name: "TZOFFSETFROM", value: offsetText(key.before)),
                    ContentLine(name: "TZOFFSETTO", value: offsetText(key.after)),
                ]
                if let name = key.name { o.properties.append(ContentLine(name: "TZNAME", value: name)) }
                return o
            }
            let singles = useRule ? Array(walls[..<runStart]) : walls
            if let first = singles.first {
                var o = observance(first)
                for w in singles.dropFirst() { o.properties.append(ContentLine(name: "RDATE", value: w.basicISO)) }
                observances.append((list[0].instant, o))
            }
            if useRule {
                var o = observance(walls[runStart])
                var rule = "FREQ=YEARLY;BYMONTH=\(pattern.month);BYDAY=\(pattern.ordinal)\(pattern.weekday.icalCode)"
                if walls[walls.count - 1].date.year < lastYearInTable {
                    let last = list[list.count - 1].instant
                    rule = "FREQ=YEARLY;UNTIL=\(LocalDateTime(localSeconds: last).basicISO)Z;BYMONTH=\(pattern.month);BYDAY=\(pattern.ordinal)\(pattern.weekday.icalCode)"
                }
                o.properties.insert(ContentLine(name: "RRULE", value: rule), at: 3)
                observances.append((list[runStart].instant, o))
            }
        }
        zone.components = observances.sorted { $0.0 < $1.0 }.map(\.1)
        return zone
    }

    struct Pattern: Equatable {
        var month: Int
        var weekday: Weekday
        var ordinal: Int
        var secondOfDay: Int
    }

    /// A wall time as "the nth (or last, -1) weekday of the month at hh:mm".
    static func yearlyPattern(_ t: LocalDateTime) -> Pattern {
        let d = t.date
        let lastDay = LocalDate.daysIn(month: d.month, year: d.year)
        let ordinal = d.day + 7 > lastDay ? -1 : (d.day - 1) / 7 + 1
        return Pattern(month: d.month, weekday: d.weekday, ordinal: ordinal, secondOfDay: t.secondOfDay)
    }
}
