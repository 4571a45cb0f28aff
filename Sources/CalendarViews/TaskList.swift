import CalendarCore
import Foundation

/// The tasks still to do, as a student keeps them: the overdue first, then
/// the rest by when they are due, then those with no date ("someday"), and
/// the history of what was done, newest first, each with when.
///
/// ```swift
/// let tasks = TaskList(schedule: calendar.schedule(), now: .now,
///                      options: .init(category: "Maths"))
/// for task in tasks.overdue { print("overdue:", task.title) }
/// ```
///
/// A repeating task shows one instance, the earliest still to do
/// (`CalendarItem.pendingInstance(floatingZone:zones:)`): marking it done
/// brings the next, as in Apple Reminders and Thunderbird. A task with no
/// date (RFC 5545 §3.6.2, `CalendarItem.isUndated`) is never overdue. A
/// cancelled task is in no section. A task is overdue when its due time has
/// passed; with a due date and no time, from the day after.
public struct TaskList: Hashable, Sendable, Codable {
    /// How the list is made.
    public struct Options: Hashable, Sendable, DisplayZoneOptions {
        /// The zone times are shown in; `nil` takes the schedule's.
        public var timeZone: ZoneRules?
        /// Only the tasks in this category (a subject), case ignored; `nil` for all.
        public var category: String?
        /// The most done tasks in ``TaskList/done``, newest first.
        public var historyLimit: Int

        /// Creates options.
        /// - Parameters:
        ///   - timeZone: the zone times are shown in; `nil` takes the schedule's.
        ///   - category: only the tasks in this category; `nil` for all.
        ///   - historyLimit: the most done tasks listed.
        public init(timeZone: ZoneRules? = nil, category: String? = nil, historyLimit: Int = 20) {
            self.timeZone = timeZone
            self.category = category
            self.historyLimit = historyLimit
        }
    }

    /// One task, or one instance of a repeating task, as the list shows it.
    public struct Entry: Hashable, Sendable, Codable, Identifiable {
        /// The task's `UID` and, for an instance of a repeating task, its recurrence ID.
        public let id: Occurrence.ID
        /// The title.
        public let title: String
        /// The colour to draw it in, if it has one (`ItemColor.displayed`:
        /// never a colour of the red family, which marks busy days).
        public let color: ItemColor?
        /// Its categories (subjects).
        public let categories: [String]
        /// When it is due on the display zone's clock (a midnight when ``dueIsDate``).
        public let due: LocalDateTime?
        /// Whether the due time is a date with no time of day.
        public let dueIsDate: Bool
        /// The instant it is due; `nil` for a due date, which names no instant.
        public let dueAt: Date?
        /// When it starts (its own `DTSTART`) on the display zone's clock.
        public let start: LocalDateTime?
        /// The instant it starts; `nil` for a start date.
        public let startAt: Date?
        /// Whether the due time has passed and it is not done.
        public let isOverdue: Bool
        /// Whether the task repeats (this is then one of its instances).
        public let repeats: Bool
        /// Whether it is done.
        public let isDone: Bool
        /// When it was done (`COMPLETED`) on the display zone's clock, if it says.
        public let completed: LocalDateTime?
        /// The instant it was done, if it says.
        public let completedAt: Date?
    }

    /// Not done and past due, the longest overdue first.
    public let overdue: [Entry]
    /// Not done and not yet due (or with a start and no due time), soonest first.
    public let upcoming: [Entry]
    /// Not done and with no date, in the calendar's order.
    public let someday: [Entry]
    /// Done, the latest done first (those that do not say when, after), at
    /// most ``Options/historyLimit``.
    public let done: [Entry]

    /// Every task still to do: ``overdue``, ``upcoming`` and ``someday``, in that order.
    public var pending: [Entry] { overdue + upcoming + someday }

    /// Makes the list.
    ///
    /// - Parameters:
    ///   - schedule: the calendar's items.
    ///   - now: the moment that decides what is overdue.
    ///   - options: the zone, a category, the history's length.
    /// - Complexity: O(n log n) in the tasks, plus each repeating task's
    ///   instances done (`CalendarItem.pendingInstance(floatingZone:zones:)`).
    public init(schedule: Schedule, now: Date, options: Options = Options()) {
        let zone = options.timeZone(for: schedule)
        let floating = schedule.timeZone ?? zone
        let zones = schedule.zones
        let nowSeconds = Int64(now.timeIntervalSince1970.rounded(.down))
        let today = LocalDateTime(localSeconds: zone.wall(atInstant: nowSeconds)).date
        var overdue: [(Int64, Entry)] = [], upcoming: [(Int64, Entry)] = [], someday: [Entry] = [], done: [(Int64, Entry)] = []

        /// The wall time on the display clock, the seconds to sort by, and
        /// the instant (none for a date).
        func shown(_ time: CalendarTime) -> (LocalDateTime, Int64, Date?)? {
            if case .date = time { return (time.wallTime, time.wallTime.localSeconds, nil) }
            guard let t = try? time.epochSeconds(floatingZone: floating, zones: zones) else { return nil }
            return (LocalDateTime(localSeconds: zone.wall(atInstant: t)), t, Date(timeIntervalSince1970: TimeInterval(t)))
        }
        func entry(_ task: CalendarItem, recurrenceID: CalendarTime?, repeats: Bool) -> (Entry, sortKey: Int64) {
            let due = task.due(floatingZone: floating, zones: zones).flatMap { d in shown(d).map { (d, $0) } }
            let start = task.hasStart && !task.isUndated ? shown(task.start) : nil
            let completed = task.completed.flatMap(shown)
            let isOverdue: Bool = if let (time, (wall, seconds, _)) = due, !task.isDone {
                time.isDate ? wall.date < today : seconds < nowSeconds
            } else { false }
            let e = Entry(id: Occurrence.ID(uid: task.uid, recurrenceID: recurrenceID), title: task.title, color: task.color?.displayed, categories: task.categories,
                          due: due?.1.0, dueIsDate: due?.0.isDate ?? false, dueAt: due?.1.2, start: start?.0, startAt: start?.2,
                          isOverdue: isOverdue, repeats: repeats, isDone: task.isDone, completed: completed?.0, completedAt: completed?.2)
            return (e, due?.1.1 ?? start?.1 ?? Int64.max)
        }
        func file(_ task: CalendarItem, recurrenceID: CalendarTime? = nil, repeats: Bool = false) {
            let (e, key) = entry(task, recurrenceID: recurrenceID, repeats: repeats)
            if task.isDone {
                done.append((task.completed.flatMap(shown)?.1 ?? Int64.min, e))
            } else if task.isUndated {
                someday.append(e)
            } else if e.isOverdue {
                overdue.append((key, e))
            } else {
                upcoming.append((key, e))
            }
        }

        for task in schedule.items where task.kind == .task && !task.isCancelled {
            if let category = options.category, !task.isInCategory(category) { continue }
            guard task.isRecurring, !task.isDone else {
                file(task)
                continue
            }
            for changed in task.overrides where changed.item.isDone {
                file(changed.item, recurrenceID: changed.recurrenceID, repeats: true)
            }
            if let next = try? task.pendingInstance(floatingZone: floating, zones: zones) {
                file(task.item(for: next), recurrenceID: next.recurrenceID, repeats: true)
            }
        }
        let byKey: ((Int64, Entry), (Int64, Entry)) -> Bool = { a, b in a.0 != b.0 ? a.0 < b.0 : a.1.title < b.1.title }
        self.overdue = overdue.sorted(by: byKey).map(\.1)
        self.upcoming = upcoming.sorted(by: byKey).map(\.1)
        self.someday = someday
        self.done = done.sorted { a, b in a.0 != b.0 ? a.0 > b.0 : a.1.title < b.1.title }.prefix(max(0, options.historyLimit)).map(\.1)
    }
}
