import CalendarCore
import Foundation

/// One day in 24 hourly slots, with timed occurrences placed by start and
/// end and overlapping ones laid out side by side; all-day items apart.
///
/// ```swift
/// let day = DayView(date: try LocalDate(year: 2026, month: 11, day: 25), schedule: schedule,
///                   options: .init(timeZone: try .named("Europe/Madrid")))
/// for p in day.timed {
///     // x = width * p.column / p.columnCount, w = width * p.columnSpan / p.columnCount
///     // y = height * p.startMinute / 1440,     h = height * (p.endMinute - p.startMinute) / 1440
/// }
/// ```
///
/// ## Layout
/// Occurrences that overlap, directly or through others, form a cluster;
/// within it each takes the leftmost column free at its start (longest
/// first when two start together), which uses as few columns as the
/// largest set of mutually overlapping items — the least any layout can.
/// Every item of a cluster shares its column count, and each then widens to
/// the right over every column that is free for its whole time
/// (``Placement/columnSpan``): as wide as the free space allows. There is no
/// limit on the columns (CalendarKit's layout is known to break past three;
/// the tests lay out five-, eight- and twelve-way overlaps).
///
/// Times are minutes on the display zone's wall clock. An occurrence that
/// crosses midnight is placed on each day it covers, cut at the day's edges
/// and flagged. On a day when clocks change, the wall clock decides: an item
/// from 01:30 to 03:30 on the spring-forward night is drawn at those times.
public struct DayView: Hashable, Sendable, Codable {
    /// How a day is placed.
    public struct Options: Hashable, Sendable, DisplayZoneOptions {
        /// The display zone: its wall clock decides which day and hour an
        /// occurrence is shown at.
        ///
        /// `nil` (the default) shows the schedule's own calendar zone
        /// (`Schedule.timeZone`); a schedule that has none holds
        /// only all-day, floating and UTC times, and is shown on UTC, where
        /// each reads as written. The machine's zone is never used unless the
        /// caller passes it. See ``timeZone(for:)``.
        public var timeZone: ZoneRules?
        /// Today's date in that zone (never read from the clock).
        public var today: LocalDate?
        /// The words to use.
        public var names: CalendarNames
        /// The least height an item takes in the layout, so that an instant
        /// or a five-minute item still gets room to be read; items closer
        /// than this are set side by side. Their times are not changed. A
        /// `Duration`, as every length in Horari's API; the layout counts
        /// whole minutes, at least one.
        public var minimumLength: Duration
        /// The most occurrences of one series the day shows (at least 1):
        /// a series with more is cut there and named in
        /// ``DayView/cappedSeries``, and its rule is expanded no further.
        /// An hour-long event repeating every second touches a day 86,400
        /// times, which took 5–17 s to lay out.
        public var limitPerSeries: Int

        /// Creates options.
        /// - Parameters:
        ///   - timeZone: the zone to show times on; `nil` for the schedule's own.
        ///   - today: today's date in that zone.
        ///   - names: the words to use.
        ///   - minimumLength: the least height an item takes in the layout.
        ///   - limitPerSeries: the most occurrences of one series shown (default ``DayView/defaultLimitPerSeries``).
        public init(timeZone: ZoneRules? = nil, today: LocalDate? = nil, names: CalendarNames = .english, minimumLength: Duration = .seconds(15 * 60),
                    limitPerSeries: Int = DayView.defaultLimitPerSeries) {
            self.timeZone = timeZone
            self.today = today
            self.names = names
            self.minimumLength = minimumLength
            self.limitPerSeries = limitPerSeries
        }
    }

    /// A timed occurrence placed on the day.
    public struct Placement: Hashable, Sendable, Codable {
        /// The occurrence.
        public var occurrence: DisplayOccurrence
        /// Where it starts on this day, in minutes from midnight (0 when it began the day before).
        public var startMinute: Int
        /// Where it ends on this day, in minutes from midnight (1440 when it goes on past midnight).
        public var endMinute: Int
        /// Whether it began on an earlier day.
        public var continuesFromPreviousDay: Bool
        /// Whether it goes on into the next day.
        public var continuesToNextDay: Bool
        /// Its column, from 0 on the left.
        public var column: Int
        /// How many columns its cluster of overlapping items has.
        public var columnCount: Int
        /// How many columns it spans, from ``column`` rightwards (at least 1).
        public var columnSpan: Int
    }

    /// One hour of the day.
    public struct Slot: Hashable, Sendable, Codable {
        /// The hour, 0 through 23.
        public var hour: Int
        /// The positions in ``DayView/timed`` of the items that overlap this hour.
        public var placements: [Int]
    }

    /// The date.
    public let date: LocalDate
    /// The weekday's name in the view's locale.
    public let name: String
    /// Whether it is `today`.
    public let isToday: Bool
    /// The all-day occurrences covering the date.
    public let allDay: [DisplayOccurrence]
    /// The timed occurrences touching the date, laid out, in the schedule's order.
    public let timed: [Placement]
    /// The 24 hours, each with the items that overlap it.
    public let slots: [Slot]
    /// The `UID`s of the series that touch the day more often than
    /// ``Options/limitPerSeries``, of which the view holds only the first
    /// that many; `nil` when the view holds every occurrence.
    public let cappedSeries: [String]?

    /// The most occurrences of one series a day or a week view shows by
    /// default: 2,000, as `horari occurrences --max-per-series` (more than a
    /// minutely event's 1,440 a day).
    public static let defaultLimitPerSeries = 2_000

    /// Lays out `date` with the schedule's occurrences.
    public init(date: LocalDate, schedule: Schedule = .empty, options: Options = Options()) {
        self.date = date
        name = options.names.weekday(date.weekday)
        isToday = date == options.today
        let zone = options.timeZone(for: schedule)
        let read = occurrencesByDay(date.dayNumber..<(date.dayNumber + 1), schedule: schedule, zone: zone, limitPerSeries: max(1, options.limitPerSeries))
        let occurrences = read.byDay[0]
        cappedSeries = read.capped.isEmpty ? nil : read.capped
        var allDay: [DisplayOccurrence] = []
        var timed: [Placement] = []
        let midnight = Int64(date.dayNumber) * 86_400
        for o in occurrences {
            let shown = DisplayOccurrence(o, in: zone)
            if shown.isAllDay {
                allDay.append(shown)
                continue
            }
            let startWall = shown.start.localSeconds - midnight
            let endWall = shown.end.localSeconds - midnight
            let startMinute = Int(min(max(startWall, 0), 86_400) / 60)
            // A fall-back hour can put the wall end before the wall start.
            let endMinute = max(startMinute, Int(min(max(endWall, 0), 86_400) / 60))
            timed.append(Placement(occurrence: shown, startMinute: startMinute, endMinute: endMinute,
                                   continuesFromPreviousDay: startWall < 0, continuesToNextDay: endWall > 86_400,
                                   column: 0, columnCount: 1, columnSpan: 1))
        }
        Self.layOut(&timed, minimumMinutes: max(1, options.minimumLength.wholeMinutes))
        self.allDay = allDay
        self.timed = timed
        slots = (0..<24).map { hour in
            let from = hour * 60
            let to = from + 60
            let inside = timed.indices.filter { i in
                let p = timed[i]
                return p.endMinute > p.startMinute ? p.startMinute < to && p.endMinute > from : p.startMinute >= from && p.startMinute < to
            }
            return Slot(hour: hour, placements: inside)
        }
    }

    /// The day before.
    public var previous: LocalDate { date.adding(days: -1) }
    /// The day after.
    public var next: LocalDate { date.adding(days: 1) }

    /// Assigns columns as the type's documentation describes; `placements`
    /// keep their order.
    static func layOut(_ placements: inout [Placement], minimumMinutes: Int) {
        // The minutes each item holds in the layout.
        func top(_ i: Int) -> Int { placements[i].startMinute }
        func bottom(_ i: Int) -> Int { max(placements[i].endMinute, placements[i].startMinute + minimumMinutes) }
        let order = placements.indices.sorted { a, b in
            top(a) != top(b) ? top(a) < top(b) : bottom(a) != bottom(b) ? bottom(a) > bottom(b) : a < b
        }
        var cluster: [Int] = []
        var columnEnds: [Int] = []
        // Each column's items, in the order they were placed: by top, and
        // apart (an item takes a column only once the one before ends), so
        // whether an item is blocked in a column is one binary search, not a
        // look at the whole cluster — which cost n³ for a day whose items
        // all chain together (1,440 minutely items beside 2,000 overlapping
        // ones: 84 s in a debug build).
        var columnItems: [[Int]] = []
        var clusterEnd = Int.min

        func blocked(_ i: Int, in column: Int) -> Bool {
            let items = columnItems[column]
            // The first item of the column that ends after i starts.
            var (lo, hi) = (0, items.count)
            while lo < hi {
                let mid = (lo + hi) / 2
                if bottom(items[mid]) > top(i) { hi = mid } else { lo = mid + 1 }
            }
            return lo < items.count && top(items[lo]) < bottom(i)
        }

        func closeCluster() {
            let count = columnEnds.count
            for i in cluster {
                placements[i].columnCount = count
                var span = 1
                for column in (placements[i].column + 1)..<max(count, placements[i].column + 1) {
                    if blocked(i, in: column) { break }
                    span += 1
                }
                placements[i].columnSpan = span
            }
            cluster.removeAll()
            columnEnds.removeAll()
            columnItems.removeAll()
        }

        for i in order {
            if top(i) >= clusterEnd { closeCluster() }
            if let free = columnEnds.firstIndex(where: { $0 <= top(i) }) {
                placements[i].column = free
                columnEnds[free] = bottom(i)
                columnItems[free].append(i)
            } else {
                placements[i].column = columnEnds.count
                columnEnds.append(bottom(i))
                columnItems.append([i])
            }
            cluster.append(i)
            clusterEnd = max(clusterEnd, bottom(i))
        }
        closeCluster()
    }
}
