import ArgumentParser
import CalendarCore
import CalendarViews
import Foundation

/// `horari list --pending` and `list --done`: the calendar's tasks as a
/// student keeps them (`TaskList`), as text or schema 1's JSON.
struct TaskOutput {
    let context: ViewOptions.Context
    let format: OutputFormat

    func print(pending: Bool, category: String?, limit: Int, now typed: String?) throws {
        let now = try typed.map { Date(timeIntervalSince1970: TimeInterval(try context.clock.instant(typed: $0, option: "--now").instant)) } ?? Date()
        let tasks = TaskList(schedule: context.schedule, now: now, options: .init(timeZone: context.zone, category: category, historyLimit: limit))
        if format == .json {
            let body = pending
                ? TasksJSON(overdue: tasks.overdue.map(entry), upcoming: tasks.upcoming.map(entry), someday: tasks.someday.map(entry), done: nil)
                : TasksJSON(overdue: nil, upcoming: nil, someday: nil, done: tasks.done.map(entry))
            return try printJSON(body, command: pending ? "list --pending" : "list --done", timeZone: context.clock.name)
        }
        let ids = context.shortIDs()
        context.printHeader()
        let of = category.map { " in ‘\($0.shown)’" } ?? ""
        if pending {
            guard !tasks.pending.isEmpty else { return Swift.print("Nothing to do\(of).") }
            let width = tasks.pending.map { when($0).count }.max() ?? 0
            for (title, entries) in [("Overdue", tasks.overdue), ("To do", tasks.upcoming), ("Someday", tasks.someday)] where !entries.isEmpty {
                Swift.print(title)
                for e in entries { Swift.print(row(e, when: when(e), width: width, ids: ids)) }
            }
        } else {
            guard !tasks.done.isEmpty else { return Swift.print("Nothing done yet\(of).") }
            Swift.print("Done, the latest first")
            let done = tasks.done.map { e in e.completed.map { "done \(dayText($0.date)) \(clock($0))" } ?? "done, no time said" }
            let width = done.map(\.count).max() ?? 0
            for (e, when) in zip(tasks.done, done) { Swift.print(row(e, when: when, width: width, ids: ids)) }
        }
    }

    /// "due Wed 2026-11-25 20:00", "from Wed 2026-11-25 10:00", or blank for someday.
    private func when(_ e: TaskList.Entry) -> String {
        if let due = e.due { return "due " + dayText(due.date) + (e.dueIsDate ? "" : " " + clock(due)) }
        if let start = e.start { return "from " + dayText(start.date) + (e.startAt == nil ? "" : " " + clock(start)) }
        return ""
    }

    /// One task: when (in a column `width` wide), its colour, title,
    /// subjects, instance, and ID; OVERDUE at the end, where it is seen.
    private func row(_ e: TaskList.Entry, when: String, width: Int, ids: ShortIDs) -> String {
        let painter = context.painter
        var line = "  " + (width == 0 ? "" : MonthGrid.pad(when, width) + "  ") + painter.swatch(e.color) + " " + painter.title(e.title, done: e.isDone)
        if !e.categories.isEmpty { line += "  (" + e.categories.map(\.shown).joined(separator: ", ") + ")" }
        if e.repeats { line += "  ↻ " + (e.id.recurrenceID.map(occurrenceText) ?? "") }
        if e.isDone, let due = e.due { line += "  was due " + dayText(due.date) + (e.dueIsDate ? "" : " " + clock(due)) }
        line += "  [\(ids.short(for: e.id.uid).shown)]"
        if e.isOverdue { line += "  OVERDUE" }
        return line
    }

    private func entry(_ e: TaskList.Entry) -> TaskJSON { TaskJSON(e) }
}

/// A task in `list --pending` and `list --done`.
struct TaskJSON: Encodable {
    let uid: String
    let recurrenceId: CalendarTime?
    let title: String
    let color: ItemColor?
    let categories: [String]
    let due: String?
    let start: String?
    let overdue: Bool
    let repeats: Bool
    let done: Bool
    let completed: String?

    init(_ e: TaskList.Entry) {
        (uid, recurrenceId, title, color, categories) = (e.id.uid, e.id.recurrenceID, e.title, e.color, e.categories)
        func text(_ wall: LocalDateTime?, _ instant: Date?) -> String? {
            guard let wall else { return nil }
            guard let instant else { return wall.date.description }
            return ISOText.instant(wall: wall, seconds: Int64(instant.timeIntervalSince1970.rounded(.down)))
        }
        due = text(e.due, e.dueAt)
        start = text(e.start, e.startAt)
        (overdue, repeats, done) = (e.isOverdue, e.repeats, e.isDone)
        completed = text(e.completed, e.completedAt)
    }
}

/// The body of `list --pending` (overdue, upcoming, someday) and `list --done` (done).
struct TasksJSON: Encodable {
    let overdue: [TaskJSON]?
    let upcoming: [TaskJSON]?
    let someday: [TaskJSON]?
    let done: [TaskJSON]?
}
