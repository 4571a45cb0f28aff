/// A wall-clock date and time with no time zone attached, to the second.
///
/// This is what a clock on a wall shows. On its own it is a *floating* time
/// (RFC 5545 §3.3.5, form #1); ``CalendarTime`` says whether it is floating,
/// UTC or tied to a zone.
public struct LocalDateTime: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The date.
    public let date: LocalDate
    // Stored in bytes: 7 bytes in all (see `LocalDate`).
    private let storedHour: UInt8
    private let storedMinute: UInt8
    private let storedSecond: UInt8
    /// The hour, 0 through 23.
    public var hour: Int { Int(storedHour) }
    /// The minute, 0 through 59.
    public var minute: Int { Int(storedMinute) }
    /// The second, 0 through 59 (iCalendar's leap second 60 is read as 59).
    public var second: Int { Int(storedSecond) }

    /// Creates a date-time, refusing fields out of range.
    public init(date: LocalDate, hour: Int, minute: Int, second: Int = 0) throws(TimeValueError) {
        guard (0...23).contains(hour) else { throw TimeValueError(.outOfRange, "hour \(hour) is outside 0…23") }
        guard (0...59).contains(minute) else { throw TimeValueError(.outOfRange, "minute \(minute) is outside 0…59") }
        guard (0...60).contains(second) else { throw TimeValueError(.outOfRange, "second \(second) is outside 0…60") }
        self.init(unchecked: date, hour, minute, min(second, 59))
    }

    /// Creates a date-time from fields already known to be in range.
    init(unchecked date: LocalDate, _ hour: Int, _ minute: Int, _ second: Int) {
        self.date = date
        self.storedHour = UInt8(truncatingIfNeeded: hour)
        self.storedMinute = UInt8(truncatingIfNeeded: minute)
        self.storedSecond = UInt8(truncatingIfNeeded: second)
    }

    /// Decodes `"2026-11-25T18:30:00"` (ISO 8601's extended form, no offset), refusing fields out of range.
    public init(from decoder: any Decoder) throws {
        self = try ISOText.decode(try decoder.singleValueContainer()) { text throws(TimeValueError) in try ISOText.dateTime(text) }
    }

    /// Encodes `"2026-11-25T18:30:00"`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }

    /// Creates a date-time from its fields, refusing an impossible date.
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) throws(TimeValueError) {
        try self.init(date: LocalDate(year: year, month: month, day: day), hour: hour, minute: minute, second: second)
    }

    /// Creates the date-time that is `seconds` after 1970-01-01T00:00:00 on the wall.
    public init(localSeconds seconds: Int64) {
        let day = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let sod = Int(seconds - day * 86_400)
        self.init(unchecked: LocalDate(dayNumber: Int(day)), sod / 3600, sod / 60 % 60, sod % 60)
    }

    /// Seconds since 1970-01-01T00:00:00 *on the wall* (no zone applied).
    ///
    /// Two wall times compare as their `localSeconds` compare; treating the
    /// value as UTC gives the instant of a UTC time.
    public var localSeconds: Int64 {
        Int64(date.dayNumber) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// Seconds since midnight.
    public var secondOfDay: Int { hour * 3600 + minute * 60 + second }

    /// The wall time `n` seconds later.
    public func adding(seconds n: Int64) -> LocalDateTime { LocalDateTime(localSeconds: localSeconds + n) }

    /// The basic ISO 8601 form iCalendar uses: `YYYYMMDDTHHMMSS`.
    public var basicISO: String {
        date.basicISO + "T" + String(format2: hour) + String(format2: minute) + String(format2: second)
    }

    /// The extended ISO 8601 form, `YYYY-MM-DDTHH:MM:SS`.
    public var description: String {
        date.description + "T" + String(format2: hour) + ":" + String(format2: minute) + ":" + String(format2: second)
    }

    /// Orders wall times chronologically.
    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool { lhs.localSeconds < rhs.localSeconds }
}
