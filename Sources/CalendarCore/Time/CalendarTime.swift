import Foundation

/// A start, end or recurrence instant as iCalendar means it: one of four
/// different kinds of time, kept apart in the type system.
///
/// | case | iCalendar | meaning |
/// |---|---|---|
/// | ``date(_:)`` | `DTSTART;VALUE=DATE:20260302` | a whole day; as an end it is *exclusive* |
/// | ``floating(_:)`` | `DTSTART:20260302T090000` | 09:00 wherever the reader is |
/// | ``utc(_:)`` | `DTSTART:20260302T080000Z` | one instant |
/// | ``zoned(_:_:)`` | `DTSTART;TZID=Europe/Madrid:20260302T090000` | 09:00 on Madrid's clocks |
///
/// A zoned time resolves to an instant through ``ZoneRules``; a wall time in
/// a daylight-saving gap moves forward by the gap and a repeated wall time takes
/// its first instant (RFC 5545 §3.3.5).
public enum CalendarTime: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A whole day (all-day), the iCalendar `DATE` value.
    case date(LocalDate)
    /// A wall time with no zone: the same clock reading in every zone.
    case floating(LocalDateTime)
    /// An instant, written as its UTC wall time.
    case utc(LocalDateTime)
    /// A wall time on the clocks of the named zone (an iCalendar `TZID`).
    case zoned(LocalDateTime, String)

    /// The wall-clock reading: midnight for a date, the UTC reading for UTC.
    public var wallTime: LocalDateTime {
        switch self {
        case .date(let d): LocalDateTime(localSeconds: Int64(d.dayNumber) * 86_400)
        case .floating(let t), .utc(let t), .zoned(let t, _): t
        }
    }

    /// The date part of the wall-clock reading.
    public var localDate: LocalDate {
        switch self {
        case .date(let d): d
        case .floating(let t), .utc(let t), .zoned(let t, _): t.date
        }
    }

    /// Whether this is an all-day ``date(_:)``.
    public var isDate: Bool { if case .date = self { true } else { false } }

    /// The zone identifier of a ``zoned(_:_:)`` time.
    public var zoneIdentifier: String? { if case .zoned(_, let z) = self { z } else { nil } }

    /// The same kind of time (same zone) with another wall-clock reading.
    ///
    /// A date keeps only the date of `wall`.
    public func withWallTime(_ wall: LocalDateTime) -> CalendarTime {
        switch self {
        case .date: .date(wall.date)
        case .floating: .floating(wall)
        case .utc: .utc(wall)
        case .zoned(_, let z): .zoned(wall, z)
        }
    }

    /// The instant this time stands for.
    ///
    /// - Parameters:
    ///   - floatingZone: the zone that dates and floating times are read in
    ///     (the viewer's zone).
    ///   - zones: the zones the time's calendar defines for itself (its own
    ///     `VTIMEZONE`s), looked up before the system's; empty by default.
    /// - Throws: ``TimeValueError/Code/unknownTimeZone`` for a zone that is not known.
    public func instant(floatingZone: ZoneRules, zones: ZoneTable = ZoneTable()) throws(TimeValueError) -> Date {
        Date(timeIntervalSince1970: TimeInterval(try epochSeconds(floatingZone: floatingZone, zones: zones)))
    }

    /// Seconds since the Unix epoch of the instant this time stands for.
    ///
    /// A zoned time is read with the rules of `zones` for its `TZID` when the
    /// table has them, else with the system's (``ZoneTable/rules(forTZID:)``).
    ///
    /// - Parameters:
    ///   - floatingZone: the zone that dates and floating times are read in
    ///     (the viewer's zone).
    ///   - zones: the zones the time's calendar defines for itself (its own
    ///     `VTIMEZONE`s), looked up before the system's; empty by default.
    /// - Throws: ``TimeValueError/Code/unknownTimeZone`` for a zone that is not known.
    public func epochSeconds(floatingZone: ZoneRules, zones: ZoneTable = ZoneTable()) throws(TimeValueError) -> Int64 {
        switch self {
        case .utc(let t): return t.localSeconds
        case .date, .floating: return floatingZone.instant(forWall: wallTime.localSeconds)
        case .zoned(let t, let id): return try zones.rules(forTZID: id).instant(forWall: t.localSeconds)
        }
    }

    /// The iCalendar value text: `20260302`, `20260302T090000`, `20260302T080000Z`.
    ///
    /// A zoned time prints its wall time; the zone goes in the `TZID` parameter.
    public var icalValue: String {
        switch self {
        case .date(let d): d.basicISO
        case .floating(let t), .zoned(let t, _): t.basicISO
        case .utc(let t): t.basicISO + "Z"
        }
    }

    /// A readable form such as `2026-03-02T09:00:00 Europe/Madrid`.
    public var description: String {
        switch self {
        case .date(let d): d.description
        case .floating(let t): t.description
        case .utc(let t): t.description + "Z"
        case .zoned(let t, let z): t.description + " " + z
        }
    }

    /// Parses an iCalendar `DATE` or `DATE-TIME` value (basic ISO 8601 form).
    ///
    /// `20260302` is a date, `20260302T090000` floating (or zoned when `tzid`
    /// is given), `20260302T090000Z` UTC.
    ///
    /// - Throws: ``TimeValueError`` naming what is wrong with the text.
    public init(icalValue text: some StringProtocol, tzid: String? = nil) throws(TimeValueError) {
        try self.init(icalText: Substring(text), tzid: tzid)
    }

    /// ``init(icalValue:tzid:)`` for a `Substring`, not generic: every time
    /// property of an import comes through here, and a generic initialiser
    /// called from another module runs unspecialised.
    package init(icalText text: Substring, tzid: String?) throws(TimeValueError) {
        // The text is copied into 16 bytes on the stack, not into an array.
        let utf8 = text.utf8
        let count = utf8.count
        guard count == 8 || count == 15 || count == 16 else {
            throw TimeValueError(.malformed, "‘\(text)’ is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS[Z])")
        }
        var s = SixteenBytes(count: count)
        for (i, b) in utf8.enumerated() { s.set(i, b) }
        func digits(_ r: Range<Int>) throws(TimeValueError) -> Int {
            var v = 0
            for i in r {
                guard i < s.count, s[i] >= 48, s[i] <= 57 else {
                    throw TimeValueError(.malformed, "‘\(text)’ is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS[Z])")
                }
                v = v * 10 + Int(s[i] - 48)
            }
            return v
        }
        let date = try LocalDate(year: digits(0..<4), month: digits(4..<6), day: digits(6..<8))
        if s.count == 8 {
            self = .date(date)
            return
        }
        guard s[8] == UInt8(ascii: "T") || s[8] == UInt8(ascii: "t"), s.count == 15 || s[15] == UInt8(ascii: "Z") || s[15] == UInt8(ascii: "z") else {
            throw TimeValueError(.malformed, "‘\(text)’ is not a date-time (YYYYMMDDTHHMMSS, optionally followed by Z)")
        }
        let wall = try LocalDateTime(date: date, hour: digits(9..<11), minute: digits(11..<13), second: digits(13..<15))
        if s.count == 16 {
            self = .utc(wall)
        } else if let tzid {
            self = .zoned(wall, tzid)
        } else {
            self = .floating(wall)
        }
    }
}

/// Up to 16 bytes of text in two words, read by position.
private struct SixteenBytes {
    private var low: UInt64 = 0
    private var high: UInt64 = 0
    let count: Int

    init(count: Int) { self.count = count }

    mutating func set(_ i: Int, _ b: UInt8) {
        if i < 8 { low |= UInt64(b) << (8 * i) } else { high |= UInt64(b) << (8 * (i - 8)) }
    }

    subscript(i: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: i < 8 ? low >> (8 * i) : high >> (8 * (i - 8)))
    }
}

extension Date {
    /// Whole Unix seconds, rounded down, clamped to a range that every
    /// computation here can take (a non-finite date cannot trap).
    package var clampedEpochSeconds: Int64 {
        let t = timeIntervalSince1970
        guard t.isFinite else { return t > 0 ? 400_000_000_000 : -400_000_000_000 }
        return Int64(Swift.max(-400_000_000_000, Swift.min(400_000_000_000, t.rounded(.down))))
    }

    /// ``clampedEpochSeconds`` rounded up: the exclusive end of a window on
    /// whole seconds still includes a second the `Date` reaches into.
    package var clampedEpochSecondsRoundedUp: Int64 {
        clampedEpochSeconds + (timeIntervalSince1970.rounded(.down) == timeIntervalSince1970 ? 0 : 1)
    }
}
