import CalendarCore
import CalendarScheduling

// A class's series in yearly parts (issue 21: costs that follow the change).
//
// A class is one recurring event whose `RECURRENCE-ID` instances hold its
// rosters; RFC 4791 §4.1 keeps every component of one UID in one resource
// of a calendar server, so that resource holds every roster the class ever
// had, and the server reads all of it again on every booking (Radicale: 1.7 s
// for twenty years of weekly yoga, against 0.09 s for one). Written in
// parts, the class's event goes on from the start of the current year under
// its own UID, and each earlier year is an event of its own — its dates,
// its rosters, its cancelled and moved occurrences — under `ID@YEAR`, with
// `X-HORARI-CLASS-PART:ID`: what calendar clients do for "this and following
// events". A booking this year writes the class's own resource, whatever
// its history; a new year moves the class's start and adds last year's
// part, once. Reading joins the parts back into one series, so the book is
// the same whichever way it was written.

extension SchedulingBook {
    /// Everything in the book, as ``backupContent()``, each class that met
    /// before `year` written in yearly parts: its own UID from the start of
    /// `year` (of its last year, for a class that ended before), and each
    /// earlier year as `ID@YEAR` with `X-HORARI-CLASS-PART:ID`.
    ///
    /// For a calendar kept one resource per UID (a folder, a CalDAV
    /// collection), so that a booking's write does not grow with the
    /// class's history; `SchedulingBook(timeZone:items:components:)` reads
    /// either form.
    /// - Parameter year: the current year on the book's clock.
    public func backupContent(splittingClassesBefore year: Int) -> SchedulingContent {
        backupContent(splittingClassesBefore: year, besides: [])
    }

    /// ``backupContent(splittingClassesBefore:)`` for a calendar whose other
    /// items hold the UIDs `taken`: a class one of whose parts would take a
    /// UID held already (a session, another class, an event called
    /// `yoga@2024`) is written whole, since one UID names one item.
    package func backupContent(splittingClassesBefore year: Int, besides taken: Set<String>) -> SchedulingContent {
        var content = backupContent()
        let others = content.items.filter { !$0.properties.contains { $0.name == Names.capacity } }
        let held = taken.union(others.map(\.uid)).union(classes.map(\.id))
        var parts: [CalendarItem] = []
        for series in classes {
            let split = classParts(series, before: year)
            parts += split.dropFirst().contains { held.contains($0.uid) } ? [calendarItem(for: series, withRosters: true)] : split
        }
        content.items = parts + others
        return content
    }

    /// The UID of a class's part for a year: `ID@YEAR`.
    public static func classPartUID(_ classID: String, year: Int) -> String { "\(classID)@\(year)" }

    /// A class's series as its yearly parts, the class's own UID first.
    func classParts(_ series: ClassSeries, before year: Int) -> [CalendarItem] {
        let whole = calendarItem(for: series, withRosters: true)
        let mainYear = min(year, series.lastDate?.year ?? year)
        guard series.firstDate.year < mainYear, let start = Self.newYear(mainYear),
              let main = part(of: whole, series, from: start, through: nil, uid: series.id, partOf: nil)
        else { return [whole] }
        var out = [main]
        for y in series.firstDate.year..<mainYear {
            guard let from = Self.newYear(y), let next = Self.newYear(y + 1) else { continue }
            let last = next.adding(days: -1)
            if let p = part(of: whole, series, from: from, through: min(last, series.lastDate ?? last), uid: Self.classPartUID(series.id, year: y), partOf: series.id) {
                out.append(p)
            }
        }
        return out
    }

    /// The part of a class's event that meets from `from` through `through`
    /// (open: as the series), or `nil` when it meets on none of those days.
    private func part(of whole: CalendarItem, _ series: ClassSeries, from: LocalDate, through: LocalDate?, uid: String, partOf: String?) -> CalendarItem? {
        var first = max(from, series.firstDate)
        while !series.weekdays.contains(first.weekday) { first = first.adding(days: 1) }
        if let end = through ?? series.lastDate, first > end { return nil }
        func within(_ t: CalendarTime) -> Bool {
            let date = bookWall(t).date
            return date >= from && through.map { date <= $0 } ?? true
        }
        var item = whole
        item.uid = uid
        item.start = .zoned(series.time.on(first), timeZone.identifier)
        if let through {
            let until = CalendarTime.utc(LocalDateTime(localSeconds: instant(series.time.on(through))))
            item.recurrenceRules = [RecurrenceRule(frequency: .weekly, until: until, byDay: series.weekdays.map { .init($0) })]
        }
        item.exceptionDates = whole.exceptionDates.filter(within)
        item.overrides = whole.overrides.filter { within($0.recurrenceID) }.map { o in
            var o = o
            o.item.uid = uid
            return o
        }
        if let partOf { item.properties.append(ContentLine(name: Names.classPart, value: partOf)) }
        return item
    }

    /// January 1 of a year (`nil` for one the calendar cannot hold).
    private static func newYear(_ year: Int) -> LocalDate? {
        try? LocalDate(year: year, month: 1, day: 1)
    }

    /// The items with each class's yearly parts (`X-HORARI-CLASS-PART`)
    /// joined into its own event: their dates, cancelled and moved
    /// occurrences and rosters, the series starting on its first part's
    /// first date. A part whose class is not there is left as it is (a class
    /// of its own).
    ///
    /// Only a part's dates are read: the class meets at one time, for one
    /// length, on one rule. A part another client changed otherwise (its
    /// time, its length, its rule beyond `UNTIL`, dates of its own) is read
    /// as the class meets, and said in a warning, since the next write of
    /// that year's part writes it so.
    static func joiningClassParts(_ items: [CalendarItem]) -> (items: [CalendarItem], problems: [RecordProblem]) {
        guard items.contains(where: { $0.properties.contains { $0.name == Names.classPart } }) else { return (items, []) }
        var parts: [String: [CalendarItem]] = [:]
        var out: [CalendarItem] = []
        var problems: [RecordProblem] = []
        for item in items {
            if let id = item.properties.first(where: { $0.name == Names.classPart })?.value {
                parts[id, default: []].append(item)
            } else {
                out.append(item)
            }
        }
        for i in out.indices {
            guard let found = parts.removeValue(forKey: out[i].uid) else { continue }
            var main = out[i]
            let time = main.start.wallTime.secondOfDay
            for p in found.sorted(by: { $0.start.wallTime < $1.start.wallTime }) {
                let differences = partDifferences(p, from: out[i])
                if !differences.isEmpty {
                    problems.append(RecordProblem(
                        severity: .warning, record: .item(uid: p.uid),
                        message: "\(p.uid), the \(p.start.localDate.year) part of class ‘\(main.uid)’, \(differences.joined(separator: ", ")), unlike the class; it is read as the class meets (its dates, cancellations and rosters are kept), and the next change of that year writes it so",
                        repair: nil, underlying: nil))
                }
                if p.start.localDate < main.start.localDate {
                    main.start = main.start.withWallTime(LocalDateTime(localSeconds: Int64(p.start.localDate.dayNumber) * 86_400 + Int64(time)))
                }
                main.exceptionDates += p.exceptionDates
                main.overrides += p.overrides.map { o in
                    var o = o
                    o.item.uid = main.uid
                    return o
                }
            }
            out[i] = main
        }
        return (out + parts.keys.sorted().flatMap { parts[$0] ?? [] }, problems)
    }

    /// How a yearly part differs from its class, besides its dates: each as a phrase.
    private static func partDifferences(_ part: CalendarItem, from whole: CalendarItem) -> [String] {
        var out: [String] = []
        if part.start.wallTime.secondOfDay != whole.start.wallTime.secondOfDay || part.start.zoneIdentifier != whole.start.zoneIdentifier {
            let t = part.start.wallTime
            out.append("starts at " + String(format: "%02d:%02d", t.hour, t.minute) + (part.start.zoneIdentifier.map { " \($0)" } ?? ""))
        }
        func length(_ item: CalendarItem) -> Int64? {
            switch item.end {
            case .at(let end)?: end.wallTime.localSeconds - item.start.wallTime.localSeconds
            case .duration(let d)?: Int64(d.days) * 86_400 + Int64(d.seconds)
            case nil: nil
            }
        }
        if length(part) != length(whole) { out.append("lasts \(length(part).map { "\($0 / 60) minutes" } ?? "no time")") }
        func shape(_ item: CalendarItem) -> [RecurrenceRule] {
            item.recurrenceRules.map { rule in
                var rule = rule
                rule.until = nil
                return rule
            }
        }
        if shape(part) != shape(whole) { out.append("has the rule \(part.recurrenceRules.map(\.icalValue).joined(separator: " and "))") }
        if !part.recurrenceDates.isEmpty { out.append("has dates of its own (RDATE)") }
        return out
    }
}
