import CalendarCore
import Foundation

/// A week of seven days, each saying whether it is free, holds one item, or
/// holds several — a week view says "Several items" ("Several tasks" when
/// they are all tasks) instead of cramming names.
///
/// ```swift
/// let week = WeekView(containing: try LocalDate(year: 2026, month: 11, day: 25), schedule: schedule,
///                     options: .init(firstWeekday: .monday, timeZone: try .named("Europe/Madrid"),
///                                    names: CalendarNames(locale: Locale(identifier: "es_ES"))))
/// for day in week.days { print(day.name, day.label ?? "") }   // "miércoles Varios elementos"
/// ```
///
/// Each day's ``Day/date`` is what an app opens a ``DayView`` with.
public struct WeekView: Hashable, Sendable, Codable {
    /// How a week is laid out, placed and labelled.
    public struct Options: Hashable, Sendable, DisplayZoneOptions {
        /// The first day of the week.
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
        /// Today's date in that zone, flagged (never read from the clock).
        public var today: LocalDate?
        /// A selected day, flagged.
        public var selected: LocalDate?
        /// The words to use.
        public var names: CalendarNames
        /// The most occurrences of one series a day counts, as a day view's
        /// (at least 1): the week stops a series at seven times this, names
        /// it in ``WeekView/cappedSeries``, and expands its rule no further
        /// (so a minutely event, 1,440 a day, is counted whole).
        public var limitPerSeries: Int

        /// Creates options; the first weekday defaults to the names' locale's.
        public init(firstWeekday: Weekday? = nil, timeZone: ZoneRules? = nil, today: LocalDate? = nil, selected: LocalDate? = nil,
                    names: CalendarNames = .english, limitPerSeries: Int = DayView.defaultLimitPerSeries) {
            self.firstWeekday = firstWeekday ?? names.firstWeekday
            self.timeZone = timeZone
            self.today = today
            self.selected = selected
            self.names = names
            self.limitPerSeries = limitPerSeries
        }
    }

    /// What a day holds that is still to do: done tasks and cancelled items
    /// are counted apart (``Day/done``, ``Day/cancelled``), so a day says
    /// "Several items" only when several are open.
    public enum Content: Hashable, Sendable, Codable {
        /// Nothing.
        case empty
        /// One occurrence.
        case one(DisplayOccurrence)
        /// Two or more occurrences (drawn red, labelled "Several items", or
        /// "Several tasks" when all are tasks).
        case several(count: Int)

        private enum CodingKeys: String, CodingKey { case kind, occurrence, count }

        /// Decodes `{"kind": "none"}`, `{"kind": "single", "occurrence": …}`
        /// or `{"kind": "several", "count": 2}`, the kinds of ``DayMarker``.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            switch try c.decode(String.self, forKey: .kind) {
            case "none": self = .empty
            case "single": self = .one(try c.decode(DisplayOccurrence.self, forKey: .occurrence))
            case "several": self = .several(count: try c.decode(Int.self, forKey: .count))
            case let other: throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "‘\(other)’ is not none, single or several")
            }
        }

        /// Encodes `{"kind": …}` with the one occurrence or the count of several.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .empty: try c.encode("none", forKey: .kind)
            case .one(let o):
                try c.encode("single", forKey: .kind)
                try c.encode(o, forKey: .occurrence)
            case .several(let count):
                try c.encode("several", forKey: .kind)
                try c.encode(count, forKey: .count)
            }
        }
    }

    /// One day of the week.
    public struct Day: Hashable, Sendable, Codable {
        /// The date.
        public var date: LocalDate
        /// The weekday's name in the view's locale.
        public var name: String
        /// Whether it is `today`.
        public var isToday: Bool
        /// Whether it is the selected day.
        public var isSelected: Bool
        /// What it holds.
        public var content: Content
        /// The text to show: the one item's title, the localised "Several
        /// items" ("Several tasks" when all are tasks), or `nil` for an empty day.
        public var label: String?
        /// The colour to draw: the one item's (as `ItemColor.displayed`
        /// draws it, never red), red for several, `nil` otherwise.
        public var color: ItemColor?
        /// How many done tasks the day holds besides its ``content``.
        public var done: Int
        /// How many cancelled items (`STATUS:CANCELLED`, a cancelled
        /// session) the day holds besides its ``content``.
        public var cancelled: Int
    }

    /// The first day shown.
    public let start: LocalDate
    /// The ISO 8601 week of the week's Thursday (the rule ``MonthView/Week/isoWeek`` states).
    public let isoWeek: Int
    /// The seven days.
    public let days: [Day]
    /// The `UID`s of the series that touch the week more than seven times
    /// ``Options/limitPerSeries``, of which the days count only the first
    /// that many; `nil` when they count every occurrence.
    public let cappedSeries: [String]?

    /// The week holding `date`, starting on the options' first weekday.
    public init(containing date: LocalDate, schedule: Schedule = .empty, options: Options = Options()) {
        let lead = (date.weekday.rawValue - options.firstWeekday.rawValue + 7) % 7
        let first = date.dayNumber - lead
        start = LocalDate(dayNumber: first)
        let zone = options.timeZone(for: schedule)
        let read = occurrencesByDay(first..<(first + 7), schedule: schedule, zone: zone, limitPerSeries: 7 * max(1, options.limitPerSeries))
        let byDay = read.byDay
        cappedSeries = read.capped.isEmpty ? nil : read.capped
        var days: [Day] = []
        for (i, all) in byDay.enumerated() {
            let day = LocalDate(dayNumber: first + i)
            let occurrences = all.filter(\.item.counts)
            let content: Content
            let label: String?
            let color: ItemColor?
            switch occurrences.count {
            case 0: (content, label, color) = (.empty, nil, nil)
            case 1:
                let one = DisplayOccurrence(occurrences[0], in: zone)
                (content, label, color) = (.one(one), one.title, one.color)
            default:
                let allTasks = occurrences.allSatisfy { $0.item.kind == .task }
                (content, label, color) = (.several(count: occurrences.count), allTasks ? options.names.severalTasks : options.names.severalItems, .red)
            }
            days.append(Day(date: day, name: options.names.weekday(day.weekday), isToday: day == options.today,
                            isSelected: day == options.selected, content: content, label: label, color: color,
                            done: all.count(where: \.item.isDone), cancelled: all.count { $0.item.isCancelled && !$0.item.isDone }))
        }
        self.days = days
        isoWeek = LocalDate(dayNumber: first + (Weekday.thursday.rawValue - options.firstWeekday.rawValue + 7) % 7).isoWeek.week
    }

    /// The first day of the week before.
    public var previous: LocalDate { start.adding(days: -7) }
    /// The first day of the week after.
    public var next: LocalDate { start.adding(days: 7) }
}
