import CalendarCore
import Foundation

/// A month as a grid of weeks, ready to draw: 4 to 6 rows of 7 days.
///
/// Everything is placed in the display time zone passed in, and `today` is
/// passed in too (a view model never reads the clock), so the same inputs
/// always give the same grid.
///
/// ```swift
/// let view = MonthView(year: 2026, month: 11, schedule: schedule,
///                      options: .init(firstWeekday: .monday, timeZone: try .named("Europe/Madrid"),
///                                     today: try LocalDate(year: 2026, month: 11, day: 22)))
/// for week in view.weeks { print(week.isoWeek, week.days.map(\.marker)) }
/// ```
public struct MonthView: Hashable, Sendable, Codable {
    /// How a month grid is laid out and what it flags.
    public struct Options: Hashable, Sendable, DisplayZoneOptions {
        /// The first day of each row.
        public var firstWeekday: Weekday
        /// The display zone: its wall clock decides which day and hour an
        /// occurrence is shown at.
        ///
        /// `nil` (the default) shows the schedule's own calendar zone
        /// (`Schedule.timeZone`); a schedule that has none holds
        /// only all-day, floating and UTC times, and is shown on UTC, where
        /// each reads as written. The machine's zone is never used unless the
        /// caller passes it. See ``timeZone(for:)``.
        public var timeZone: ZoneRules?
        /// Today's date in that zone, flagged in the grid (never read from the clock).
        public var today: LocalDate?
        /// A selected day, flagged in the grid.
        public var selected: LocalDate?
        /// The colour a day with one item that has no colour of its own is
        /// marked with (default `ItemColor.fallback`), so that
        /// every item marks its day.
        public var uncolored: ItemColor = .fallback

        /// Creates options; Monday first, the schedule's own zone, nothing flagged by default.
        public init(firstWeekday: Weekday = .monday, timeZone: ZoneRules? = nil, today: LocalDate? = nil, selected: LocalDate? = nil) {
            self.firstWeekday = firstWeekday
            self.timeZone = timeZone
            self.today = today
            self.selected = selected
        }
    }

    /// One day cell.
    public struct Day: Hashable, Sendable, Codable {
        /// The date.
        public var date: LocalDate
        /// Whether the date belongs to the month shown (leading and trailing days do not).
        public var isInMonth: Bool
        /// Whether it is `today`.
        public var isToday: Bool
        /// Whether it is the selected day.
        public var isSelected: Bool
        /// What the items on it show.
        public var marker: DayMarker
    }

    /// One row of seven days.
    public struct Week: Hashable, Sendable, Codable {
        /// The ISO 8601 week number of the row.
        ///
        /// Rule: the ISO week of the row's **Thursday**. With Monday first that
        /// is the ISO week of every day in the row; with any other first
        /// weekday the row straddles two ISO weeks, and the one holding its
        /// Thursday holds at least four of its seven days — the majority, the
        /// same test ISO 8601 uses to give a week to a year.
        public var isoWeek: Int
        /// The seven days, starting on the first weekday.
        public var days: [Day]
    }

    /// The year.
    public let year: Int
    /// The month, 1 through 12.
    public let month: Int
    /// The first day of each row.
    public let firstWeekday: Weekday
    /// The rows, 4 to 6.
    public let weeks: [Week]

    /// Lays out a month and marks each day with the schedule's occurrences.
    ///
    /// A year or month out of range is clamped to the nearest one that exists
    /// (years 1…9999, months 1…12): a view model draws, it does not refuse.
    public init(year: Int, month: Int, schedule: Schedule = .empty, options: Options = Options()) {
        let year = min(max(year, 1), 9999)
        let month = min(max(month, 1), 12)
        self.year = year
        self.month = month
        self.firstWeekday = options.firstWeekday
        let first = LocalDate(unsafeYear: year, month: month, day: 1)
        let length = LocalDate.daysIn(month: month, year: year)
        let lead = (first.weekday.rawValue - options.firstWeekday.rawValue + 7) % 7
        let rows = (lead + length + 6) / 7
        let start = first.dayNumber - lead
        let days = start..<(start + rows * 7)
        let marks = markers(for: days, schedule: schedule, zone: options.timeZone(for: schedule), uncolored: options.uncolored)
        weeks = (0..<rows).map { row in
            let cells = (0..<7).map { column in
                let date = LocalDate(dayNumber: start + row * 7 + column)
                return Day(date: date, isInMonth: date.month == month && date.year == year,
                           isToday: date == options.today, isSelected: date == options.selected,
                           marker: marks[row * 7 + column])
            }
            let thursday = cells[(Weekday.thursday.rawValue - options.firstWeekday.rawValue + 7) % 7].date
            return Week(isoWeek: thursday.isoWeek.week, days: cells)
        }
    }

    /// The month before, keeping the selected day where that month has it
    /// (31 March → 28 or 29 February).
    public static func previous(year: Int, month: Int, selected: LocalDate?) -> (year: Int, month: Int, selected: LocalDate?) {
        moved(year: year, month: month, by: -1, selected: selected)
    }

    /// The month after, keeping the selected day where that month has it (31 January → 28 or 29 February).
    public static func next(year: Int, month: Int, selected: LocalDate?) -> (year: Int, month: Int, selected: LocalDate?) {
        moved(year: year, month: month, by: 1, selected: selected)
    }

    private static func moved(year: Int, month: Int, by n: Int, selected: LocalDate?) -> (year: Int, month: Int, selected: LocalDate?) {
        let index = year * 12 + (month - 1) + n
        let y = min(max(index / 12, 1), 9999)
        let m = index / 12 < 1 ? 1 : index / 12 > 9999 ? 12 : index % 12 + 1
        let day = selected.map { min($0.day, LocalDate.daysIn(month: m, year: y)) }
        return (y, m, day.map { LocalDate(unsafeYear: y, month: m, day: $0) })
    }
}

extension LocalDate {
    /// A date from fields the caller has already brought into range.
    init(unsafeYear year: Int, month: Int, day: Int) {
        self = (try? LocalDate(year: year, month: month, day: day)) ?? LocalDate(dayNumber: 0)
    }
}
