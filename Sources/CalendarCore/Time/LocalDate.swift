/// A calendar date with no time and no time zone: the iCalendar `DATE` value.
///
/// `LocalDate` uses the proleptic Gregorian calendar (as RFC 5545 does) and
/// does all its arithmetic on a *day number* — days since 1970-01-01 — with
/// Howard Hinnant's civil-date algorithms, so it never touches
/// `Foundation.Calendar` and is cheap enough for recurrence expansion.
///
/// ```swift
/// let d = try LocalDate(year: 2026, month: 3, day: 2)
/// d.weekday            // .monday
/// d.adding(days: 30)   // 2026-04-01
/// ```
public struct LocalDate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    // Stored in 4 bytes: a calendar holds several dates and date-times per
    // item, and their size was most of an imported item's. With the year in
    // 16 bits a `LocalDateTime` takes 7 bytes and a `CalendarTime` 24 (it was
    // 32): 1.6 MB of the 50,000-event import (Benchmarks/RESULTS.md). Day
    // arithmetic may leave 1…9999 (the engine clamps instants to about
    // ±12,700 years); ``init(dayNumber:)`` clamps to the years that fit.
    private let storedYear: Int16
    /// The year, 1 through 9999 for values iCalendar can carry
    /// (−32767 through 32767 after day arithmetic).
    public var year: Int { Int(storedYear) }
    private let storedMonth: UInt8
    private let storedDay: UInt8
    /// The month, 1 through 12.
    public var month: Int { Int(storedMonth) }
    /// The day of the month, 1 through 28…31.
    public var day: Int { Int(storedDay) }

    /// Creates a date, refusing one that does not exist (such as February 30).
    ///
    /// - Throws: ``TimeValueError`` naming the offending field.
    public init(year: Int, month: Int, day: Int) throws(TimeValueError) {
        guard (1...9999).contains(year) else {
            throw TimeValueError(.outOfRange, "year \(year) is outside 1…9999")
        }
        guard (1...12).contains(month) else {
            throw TimeValueError(.outOfRange, "month \(month) is outside 1…12")
        }
        let length = LocalDate.daysIn(month: month, year: year)
        guard (1...length).contains(day) else {
            throw TimeValueError(
                .impossibleDate,
                "\(String(format4: year))-\(String(format2: month))-\(String(format2: day)) does not exist: that month has \(length) days")
        }
        self.init(unchecked: year, month, day)
    }

    /// Creates a date from fields already known to be valid.
    init(unchecked year: Int, _ month: Int, _ day: Int) {
        self.storedYear = Int16(truncatingIfNeeded: year)
        self.storedMonth = UInt8(truncatingIfNeeded: month)
        self.storedDay = UInt8(truncatingIfNeeded: day)
    }

    /// Decodes `"2026-11-25"` (ISO 8601's extended date), refusing a date that does not exist.
    public init(from decoder: any Decoder) throws {
        self = try ISOText.decode(try decoder.singleValueContainer()) { text throws(TimeValueError) in try ISOText.date(text) }
    }

    /// Encodes `"2026-11-25"`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }

    /// Creates the date with the given day number (days since 1970-01-01).
    ///
    /// A day number outside the years −32767…32767 (about ±12 million days)
    /// gives the first or last day of that range.
    public init(dayNumber: Int) {
        let (y, m, d) = LocalDate.civil(fromDays: Swift.min(Swift.max(dayNumber, LocalDate.firstRepresentableDay), LocalDate.lastRepresentableDay))
        self.init(unchecked: y, m, d)
    }

    /// The day numbers of −32767-01-01 (astronomical years) and 32767-12-31.
    static let firstRepresentableDay = days(fromCivil: -32767, 1, 1)
    static let lastRepresentableDay = days(fromCivil: 32767, 12, 31)

    /// Days since 1970-01-01 (negative before it).
    public var dayNumber: Int { LocalDate.days(fromCivil: year, month, day) }

    /// The day of the week.
    public var weekday: Weekday { LocalDate.weekday(ofDayNumber: dayNumber) }

    /// The day of the year, 1 through 366.
    public var dayOfYear: Int { dayNumber - LocalDate.days(fromCivil: year, 1, 1) + 1 }

    /// The date `n` days later (earlier when `n` is negative).
    public func adding(days n: Int) -> LocalDate { LocalDate(dayNumber: dayNumber + n) }

    /// Whole days from this date to `other`.
    public func days(to other: LocalDate) -> Int { other.dayNumber - dayNumber }

    /// The basic ISO 8601 form iCalendar uses: `YYYYMMDD`.
    public var basicISO: String { String(format4: year) + String(format2: month) + String(format2: day) }

    /// The extended ISO 8601 form: `YYYY-MM-DD`.
    public var description: String {
        String(format4: year) + "-" + String(format2: month) + "-" + String(format2: day)
    }

    /// Orders dates chronologically.
    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.storedYear, lhs.storedMonth, lhs.storedDay) < (rhs.storedYear, rhs.storedMonth, rhs.storedDay)
    }

    // MARK: - Civil arithmetic (Hinnant, "chrono-Compatible Low-Level Date Algorithms")

    /// Whether `year` is a Gregorian leap year.
    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The number of days in a month of a year.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    @inline(__always)
    static func days(fromCivil y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = m > 2 ? m - 3 : m + 9
        let doy = (153 * mp + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    @inline(__always)
    static func civil(fromDays z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }

    @inline(__always)
    static func weekday(ofDayNumber n: Int) -> Weekday {
        Weekday.ordered[weekdayIndex(ofDayNumber: n)]
    }

    /// The weekday's raw value (Monday 0 … Sunday 6) of a day number.
    @inline(__always)
    static func weekdayIndex(ofDayNumber n: Int) -> Int {
        // 1970-01-01 was a Thursday (raw value 3).
        ((n % 7) + 7 + 3) % 7
    }
}

extension String {
    /// Zero-padded to two digits.
    init(format2 value: Int) {
        self = value < 10 && value >= 0 ? "0" + String(value) : String(value)
    }
    /// Zero-padded to four digits.
    init(format4 value: Int) {
        let s = String(value)
        self = value >= 0 && s.count < 4 ? String(repeating: "0", count: 4 - s.count) + s : s
    }
}
