import Foundation

// The doors between Horari's calendar values and Foundation's: a `Date`
// (an instant) read on a zone's clocks, `DateComponents`, and "today".
//
// A `Date` is an instant; `LocalDate` and `LocalDateTime` are readings of a
// wall clock. Going from an instant to a reading needs a zone; going back
// needs one too, and follows RFC 5545 §3.3.5 where the zone's clocks skip or
// repeat (a time in a gap moves forward by the gap, a repeated time is the
// first) — the same rule every expansion in the library uses, so a date
// picker and a calendar never disagree about 02:30 on the night the clocks
// change. Each zone's rules are read once and cached (``ZoneRules/of(_:)``).

extension ZoneRules {
    /// The rules of a Foundation time zone, read once per identifier and cached.
    ///
    /// - Parameter timeZone: the zone, such as `TimeZone.current` or
    ///   `TimeZone(identifier: "Europe/Madrid")`.
    public static func of(_ timeZone: TimeZone) -> ZoneRules {
        (try? named(timeZone.identifier)) ?? ZoneRules(timeZone)
    }

    /// The machine's zone: the one named by ``currentIdentifier``.
    public static var current: ZoneRules { (try? named(currentIdentifier)) ?? of(.current) }

    /// The IANA name of the machine's zone: `TZ` when it names a zone (with
    /// or without the leading `:` POSIX allows; Foundation reads `TZ=UTC` as
    /// `GMT` and `TZ=:Europe/Madrid` as UTC), else the system's setting
    /// (`TimeZone.current`).
    public static var currentIdentifier: String {
        if var tz = ProcessInfo.processInfo.environment["TZ"], !tz.isEmpty {
            if tz.hasPrefix(":") { tz.removeFirst() }
            if let name = ianaIdentifier(forTZID: tz) { return name }
        }
        return TimeZone.current.identifier
    }

    /// Whether two zone names name the same zone: the same IANA name by
    /// ``ianaIdentifier(forTZID:)`` (`"Europe/Madrid"` and `Europe/Madrid`), or
    /// any two names of UTC (`UTC`, `GMT`, `Etc/UTC`, `Zulu`, `Etc/GMT+0`…).
    /// - Parameters:
    ///   - a: a zone name.
    ///   - b: another.
    public static func namesTheSameZone(_ a: String, _ b: String) -> Bool {
        if a == b || (utcAliases.contains(a) && utcAliases.contains(b)) { return true }
        guard let x = ianaIdentifier(forTZID: a) else { return false }
        return x == ianaIdentifier(forTZID: b)
    }

    /// Names of the one zone with offset 0 and no changes.
    private static let utcAliases: Set<String> = [
        "UTC", "GMT", "Z", "UCT", "Universal", "Zulu", "Greenwich", "GMT0", "Etc/UTC", "Etc/GMT", "Etc/UCT", "Etc/Universal",
        "Etc/Zulu", "Etc/Greenwich", "Etc/GMT0", "Etc/GMT+0", "Etc/GMT-0",
    ]

    /// The Foundation time zone with this identifier, when Foundation knows it.
    public var foundationTimeZone: TimeZone? { TimeZone(identifier: identifier) }

    /// The instant a wall reading stands for on this zone's clocks (RFC 5545 §3.3.5 in gaps and folds).
    ///
    /// - Parameter wall: the wall reading.
    public func date(of wall: LocalDateTime) -> Date {
        Date(timeIntervalSince1970: TimeInterval(instant(forWall: wall.localSeconds)))
    }

    /// What this zone's clocks read at an instant.
    ///
    /// - Parameter date: the instant.
    public func wallTime(at date: Date) -> LocalDateTime {
        LocalDateTime(localSeconds: wall(atInstant: date.clampedEpochSeconds))
    }
}

extension LocalDate {
    /// The date a zone's clocks show at an instant.
    ///
    /// - Parameters:
    ///   - date: the instant, such as a date picker's value.
    ///   - zone: whose calendar day it is.
    public init(_ date: Date, in zone: ZoneRules) {
        self = zone.wallTime(at: date).date
    }

    /// The date a Foundation time zone's clocks show at an instant.
    ///
    /// - Parameters:
    ///   - date: the instant.
    ///   - timeZone: whose calendar day it is.
    public init(_ date: Date, in timeZone: TimeZone) {
        self.init(date, in: ZoneRules.of(timeZone))
    }

    /// Today on a zone's clocks.
    ///
    /// - Parameters:
    ///   - zone: whose today (the machine's by default).
    ///   - now: the instant to read; pass one to make a test repeatable.
    public static func today(in zone: ZoneRules = .current, now: Date = Date()) -> LocalDate {
        LocalDate(now, in: zone)
    }

    /// Today in a Foundation time zone.
    ///
    /// - Parameters:
    ///   - timeZone: whose today.
    ///   - now: the instant to read.
    public static func today(in timeZone: TimeZone, now: Date = Date()) -> LocalDate {
        today(in: ZoneRules.of(timeZone), now: now)
    }

    /// The instant this day starts on a zone's clocks (its first instant
    /// when midnight is skipped, as in Santiago de Chile's spring).
    ///
    /// - Parameter zone: whose day.
    public func start(in zone: ZoneRules) -> Date {
        zone.date(of: LocalDateTime(localSeconds: Int64(dayNumber) * 86_400))
    }

    /// Reads the `year`, `month` and `day` of date components (any calendar
    /// set on them is ignored: the fields are Gregorian).
    ///
    /// - Parameter components: components with a year, a month and a day.
    /// - Throws: ``TimeValueError`` naming a missing or impossible field.
    public init(_ components: DateComponents) throws(TimeValueError) {
        guard let y = components.year, let m = components.month, let d = components.day else {
            throw TimeValueError(.malformed, "the date components need a year, a month and a day")
        }
        try self.init(year: y, month: m, day: d)
    }

    /// The date as Gregorian `DateComponents` (year, month, day).
    public var dateComponents: DateComponents {
        DateComponents(calendar: Calendar(identifier: .gregorian), year: year, month: month, day: day)
    }
}

extension LocalDateTime {
    /// The wall reading a zone's clocks show at an instant.
    ///
    /// - Parameters:
    ///   - date: the instant, such as a date picker's value.
    ///   - zone: whose clocks.
    public init(_ date: Date, in zone: ZoneRules) {
        self = zone.wallTime(at: date)
    }

    /// The wall reading a Foundation time zone's clocks show at an instant.
    ///
    /// - Parameters:
    ///   - date: the instant.
    ///   - timeZone: whose clocks.
    public init(_ date: Date, in timeZone: TimeZone) {
        self.init(date, in: ZoneRules.of(timeZone))
    }

    /// What a zone's clocks read now (to the second).
    ///
    /// - Parameters:
    ///   - zone: whose clocks (the machine's by default).
    ///   - now: the instant to read; pass one to make a test repeatable.
    public static func now(in zone: ZoneRules = .current, now: Date = Date()) -> LocalDateTime {
        LocalDateTime(now, in: zone)
    }

    /// The instant this reading stands for on a zone's clocks (RFC 5545
    /// §3.3.5: a time in a gap moves forward, a repeated time is the first).
    ///
    /// - Parameter zone: whose clocks.
    public func date(in zone: ZoneRules) -> Date { zone.date(of: self) }

    /// The instant this reading stands for in a Foundation time zone.
    ///
    /// - Parameter timeZone: whose clocks.
    public func date(in timeZone: TimeZone) -> Date { date(in: ZoneRules.of(timeZone)) }

    /// Reads date components: year, month and day are needed; hour, minute
    /// and second default to 0.
    ///
    /// - Parameter components: the components.
    /// - Throws: ``TimeValueError`` naming a missing or impossible field.
    public init(_ components: DateComponents) throws(TimeValueError) {
        try self.init(date: LocalDate(components), hour: components.hour ?? 0, minute: components.minute ?? 0, second: components.second ?? 0)
    }

    /// The reading as Gregorian `DateComponents` (year through second).
    public var dateComponents: DateComponents {
        DateComponents(calendar: Calendar(identifier: .gregorian), year: date.year, month: date.month, day: date.day,
                       hour: hour, minute: minute, second: second)
    }
}

extension CalendarTime {
    /// An instant as a time on a zone's clocks (`.zoned`), or as UTC for the
    /// UTC zone.
    ///
    /// - Parameters:
    ///   - date: the instant.
    ///   - zone: whose clocks the time is kept on.
    public init(_ date: Date, in zone: ZoneRules) {
        let wall = zone.wallTime(at: date)
        self = ZoneRules.utcNames.contains(zone.identifier) ? .utc(wall) : .zoned(wall, zone.identifier)
    }

    /// An instant as a time on a Foundation time zone's clocks.
    ///
    /// - Parameters:
    ///   - date: the instant.
    ///   - timeZone: whose clocks.
    public init(_ date: Date, in timeZone: TimeZone) {
        self.init(date, in: ZoneRules.of(timeZone))
    }

    /// The instant this time stands for, reading dates and floating times on
    /// a viewer's clocks.
    ///
    /// - Parameter viewer: the zone of the person looking (the machine's by default).
    /// - Throws: ``TimeValueError/Code/unknownTimeZone`` for a zone that is not known.
    public func date(floatingZone viewer: ZoneRules = .current) throws(TimeValueError) -> Date {
        try instant(floatingZone: viewer)
    }

    /// The wall reading as Gregorian `DateComponents`, with the time zone of
    /// a UTC or zoned time (none for a floating time; no time for a date).
    public var dateComponents: DateComponents {
        switch self {
        case .date(let d):
            return d.dateComponents
        case .floating(let t):
            return t.dateComponents
        case .utc(let t):
            var c = t.dateComponents
            c.timeZone = TimeZone(identifier: "UTC")
            return c
        case .zoned(let t, let zone):
            var c = t.dateComponents
            c.timeZone = ZoneRules.ianaIdentifier(forTZID: zone).flatMap(TimeZone.init(identifier:))
            return c
        }
    }

    /// Reads date components: with a time zone, a zoned time (UTC for UTC);
    /// with an hour but no zone, a floating time; with only a date, a date.
    ///
    /// - Parameter components: the components.
    /// - Throws: ``TimeValueError`` naming a missing or impossible field.
    public init(_ components: DateComponents) throws(TimeValueError) {
        let hasTime = components.hour != nil || components.minute != nil || components.second != nil
        guard hasTime || components.timeZone != nil else {
            self = .date(try LocalDate(components))
            return
        }
        let wall = try LocalDateTime(components)
        switch components.timeZone?.identifier {
        case nil: self = .floating(wall)
        case let id? where ZoneRules.utcNames.contains(id): self = .utc(wall)
        case let id?: self = .zoned(wall, id)
        }
    }
}

extension ItemDuration {
    /// An exact length (no nominal days), to the second.
    ///
    /// - Parameter duration: the length; fractions of a second are dropped.
    public init(_ duration: Duration) {
        self.init(days: 0, seconds: Int(duration.components.seconds))
    }

    /// The length as a `Duration`, counting each nominal day as 24 hours
    /// (a day over a change of clocks is 23 or 25 hours on the wall; see
    /// `CalendarItem.length(floatingZone:)` for the exact length of an item).
    public var duration: Duration { .seconds(days * 86_400 + seconds) }
}

extension CalendarItem.End {
    /// An end given as an exact length after the start (`DURATION`).
    ///
    /// - Parameter duration: the length, such as `.seconds(45 * 60)`.
    public static func lasting(_ duration: Duration) -> CalendarItem.End { .duration(ItemDuration(duration)) }
}

// Not public: the standard library's `Duration` has no minutes or hours,
// and a library that adds them collides with an app's own (issue 43).
// Apps write `.seconds(45 * 60)`; the package's own code and tests use these.
extension Duration {
    /// Whole minutes, rounded down (for a scheduling length).
    package var wholeMinutes: Int { Int(components.seconds / 60) }

    /// A length of whole minutes, as the scheduling book counts them.
    /// - Parameter minutes: the minutes.
    package static func minutes(_ minutes: Int) -> Duration { .seconds(Int64(minutes) * 60) }

    /// A length of whole hours.
    /// - Parameter hours: the hours.
    package static func hours(_ hours: Int) -> Duration { .seconds(Int64(hours) * 3600) }
}
