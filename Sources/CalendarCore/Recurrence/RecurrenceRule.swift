/// A recurrence rule: the value of an iCalendar `RRULE` (RFC 5545 §3.3.10).
///
/// The rule alone is a pattern; with a start (``RecurrenceSet``) it gives
/// dates. Parse one from text, or build one in code:
///
/// ```swift
/// let rule = try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10")
/// rule.frequency        // .weekly
/// rule.icalValue        // "FREQ=WEEKLY;COUNT=10;BYDAY=MO,WE"
///
/// var other = RecurrenceRule(frequency: .monthly)
/// other.byDay = [.init(-1, .friday)]   // the last Friday of each month
/// ```
///
/// The stored parts are exactly those of the text; defaults that RFC 5545
/// takes from `DTSTART` are applied only when a ``RecurrenceSet`` expands.
public struct RecurrenceRule: Hashable, Sendable, Codable {
    /// How often the rule repeats: the `FREQ` part.
    public enum Frequency: String, CaseIterable, Hashable, Sendable, Codable, Comparable {
        /// Every second.
        case secondly = "SECONDLY"
        /// Every minute.
        case minutely = "MINUTELY"
        /// Every hour.
        case hourly = "HOURLY"
        /// Every day.
        case daily = "DAILY"
        /// Every week.
        case weekly = "WEEKLY"
        /// Every month.
        case monthly = "MONTHLY"
        /// Every year.
        case yearly = "YEARLY"

        /// Orders frequencies from the shortest period to the longest.
        public static func < (a: Frequency, b: Frequency) -> Bool { a.rank < b.rank }

        var rank: Int {
            switch self {
            case .secondly: 0
            case .minutely: 1
            case .hourly: 2
            case .daily: 3
            case .weekly: 4
            case .monthly: 5
            case .yearly: 6
            }
        }
    }

    /// A weekday, optionally numbered, as in `BYDAY=MO,-1FR,2TU`.
    public struct WeekdayOccurrence: Hashable, Sendable, Codable, CustomStringConvertible {
        /// The n-th occurrence in the month or year (`2` in `2TU`, `-1` in `-1FR`),
        /// or `nil` for every such weekday.
        public var ordinal: Int?
        /// The weekday.
        public var weekday: Weekday

        /// Creates a numbered weekday (`ordinal` may be `nil` for every one).
        public init(_ ordinal: Int?, _ weekday: Weekday) {
            self.ordinal = ordinal
            self.weekday = weekday
        }

        /// Every such weekday.
        public init(_ weekday: Weekday) { self.init(nil, weekday) }

        /// The iCalendar text, such as `-1FR`.
        public var description: String { (ordinal.map { String($0) } ?? "") + weekday.icalCode }
    }

    /// A rule part this library does not interpret, kept so it can be written
    /// back (an unknown or `X-` part accepted by lenient parsing).
    public struct ExtensionPart: Hashable, Sendable, Codable {
        /// The part name, upper-cased.
        public var name: String
        /// The value, as written.
        public var value: String
        /// Creates a part.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// `FREQ`: the period the rule repeats in.
    public var frequency: Frequency
    /// `INTERVAL`: every how many periods (1 or more).
    public var interval: Int
    /// `COUNT`: how many occurrences in all, `DTSTART` included.
    public var count: Int?
    /// `UNTIL`: the last instant an occurrence may start at, inclusive.
    ///
    /// RFC 5545 requires the same value type as `DTSTART` (a date for an
    /// all-day start, UTC for a zoned one); lenient handling is described at
    /// ``RecurrenceSet``.
    public var until: CalendarTime?
    /// `BYSECOND`: seconds of the minute, 0…60.
    public var bySecond: [Int]
    /// `BYMINUTE`: minutes of the hour, 0…59.
    public var byMinute: [Int]
    /// `BYHOUR`: hours of the day, 0…23.
    public var byHour: [Int]
    /// `BYDAY`: weekdays, numbered within the month or year for `MONTHLY`/`YEARLY`.
    public var byDay: [WeekdayOccurrence]
    /// `BYMONTHDAY`: days of the month, 1…31 or -31…-1 (from the end).
    public var byMonthDay: [Int]
    /// `BYYEARDAY`: days of the year, 1…366 or -366…-1.
    public var byYearDay: [Int]
    /// `BYWEEKNO`: ISO-style week numbers (weeks start on ``weekStart``), ±1…53.
    public var byWeekNo: [Int]
    /// `BYMONTH`: months, 1…12.
    public var byMonth: [Int]
    /// `BYSETPOS`: which of each period's occurrences to keep, ±1…366.
    public var bySetPos: [Int]
    /// `WKST`: the first day of the week, for `WEEKLY` intervals and `BYWEEKNO`.
    public var weekStart: Weekday
    /// Parts kept verbatim for writing back (`X-` parts).
    public var extensionParts: [ExtensionPart]

    /// Creates a rule with only a frequency; set the other parts as needed.
    public init(
        frequency: Frequency, interval: Int = 1, count: Int? = nil, until: CalendarTime? = nil,
        bySecond: [Int] = [], byMinute: [Int] = [], byHour: [Int] = [], byDay: [WeekdayOccurrence] = [],
        byMonthDay: [Int] = [], byYearDay: [Int] = [], byWeekNo: [Int] = [], byMonth: [Int] = [],
        bySetPos: [Int] = [], weekStart: Weekday = .monday, extensionParts: [ExtensionPart] = []
    ) {
        self.frequency = frequency
        self.interval = interval
        self.count = count
        self.until = until
        self.bySecond = bySecond
        self.byMinute = byMinute
        self.byHour = byHour
        self.byDay = byDay
        self.byMonthDay = byMonthDay
        self.byYearDay = byYearDay
        self.byWeekNo = byWeekNo
        self.byMonth = byMonth
        self.bySetPos = bySetPos
        self.weekStart = weekStart
        self.extensionParts = extensionParts
    }

    /// Whether the rule ends by itself (has `COUNT` or `UNTIL`).
    public var isBounded: Bool { count != nil || until != nil }
}
