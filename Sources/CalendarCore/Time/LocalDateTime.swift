/// A wall-clock date and time with no time zone attached, to the second.
///
/// This is what a clock on a wall shows. On its own it is a *floating* time
/// (RFC 5545 §3.3.5, form #1); ``CalendarTime`` says whether it is floating,
/// UTC or tied to a zone.
public struct LocalDateTime: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The date.
    public let date: LocalDate
    /// The hour, 0 through 23.
    public let hour: Int
    /// The minute, 0 through 59.
    public let minute: Int
    /// The second, 0 through 59 (iCalendar's leap second 60 is read as 59).
    public let second: Int

    /// Creates a date-time, refusing fields out of range.
    public init(date: LocalDate, hour: Int, minute: Int, second: Int = 0) throws(TimeValueError) {
        guard (0...23).contains(hour) else { throw TimeValueError(.outOfRange, "hour \(hour) is outside 0…23") }
        guard (0...59).contains(minute) else { throw TimeValueError(.outOfRange, "minute \(minute) is outside 0…59") }
        guard (0...60).contains(second) else { throw TimeValueError(.outOfRange, "second \(second) is outside 0…60") }
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = min(second, 59)
    }

    /// Creates a date-time from its fields, refusing an impossible date.
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) throws(TimeValueError) {
        try self.init(date: LocalDate(year: year, month: month, day: day), hour: hour, minute: minute, second: second)
    }

    /// Creates the date-time that is `seconds` after 1970-01-01T00:00:00 on the wall.
    public init(localSeconds seconds: Int64) {
        let day = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let sod = Int(seconds - day * 86_400)
        self.date = LocalDate(dayNumber: Int(day))
        self.hour = sod / 3600
        self.minute = sod / 60 % 60
        self.second = sod % 60
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
