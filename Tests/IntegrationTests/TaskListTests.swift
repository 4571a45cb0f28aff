import CalendarCore
import CalendarViews
import Foundation
import ICalendarKit
import Testing
import _CalendarTestFixtures

/// Issue 31, 2: tasks as students keep them. `Tests/Fixtures/ics/tasks.ics`
/// holds tasks in the forms Thunderbird writes (a task with no date, a
/// weekly task with one instance done as a changed instance, a cancelled
/// and a done task) and Apple Reminders writes (a due date, a task with no
/// date), with subjects as `CATEGORIES`.
@Suite("Tasks still to do")
struct TaskListTests {
    func calendar() throws -> ICalendar {
        let result = try ICalendarImporter().importCalendar(from: Fixture.text("ics/tasks.ics"))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        return result.calendar
    }

    /// The code of the `CalendarItemError` the body throws, if it throws one.
    func code(_ body: () throws -> Void) -> CalendarItemError.Code? {
        do { try body() } catch { return (error as? CalendarItemError)?.code }
        return nil
    }

    func at(_ text: String) throws -> Date { try CalendarTime(icalValue: text).instant(floatingZone: .utc) }

    @Test("a task with no date (RFC 5545 §3.6.2) is an item on no date: someday in the list, in no view, written back as it came")
    func undatedTasks() throws {
        var calendar = try calendar()
        let kant = try #require(calendar.item(uid: "4e2c7a1d-someday@thunderbird"))
        #expect(kant.isUndated && kant.categories == ["Philosophy"] && kant.due() == nil)
        #expect(calendar.components.isEmpty)
        let schedule = calendar.schedule()
        #expect(schedule.item(uid: kant.uid) != nil)
        let everything = schedule.occurrences(from: .distantPast, to: .distantFuture)
        #expect(!everything.contains { $0.id.uid == kant.uid })
        #expect(!everything.isEmpty)
        // Exported: no DTSTART, no DUE, read back the same.
        let text = ICalendarExporter().export(calendar)
        let block = try #require(text.components(separatedBy: "BEGIN:VTODO").first { $0.contains("UID:\(kant.uid)") })
        #expect(!block.contains("DTSTART") && !block.contains("DUE"))
        let again = try ICalendarImporter().importCalendar(from: text).calendar
        #expect(again.item(uid: kant.uid)?.hasSameContent(as: kant) == true)
        // Made in code, it is the same kind of item; one with a rule is refused.
        try calendar.add(CalendarItem(undatedTask: "mats", title: "Order mats", categories: ["Gym"]), at: try at("20261124T100000Z"))
        #expect(calendar.item(uid: "mats")?.isUndated == true)
        var repeating = CalendarItem(undatedTask: "loop", title: "Someday, weekly")
        repeating.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=WEEKLY")]
        #expect(code { try repeating.validate() } == .invalidRecurrence)
    }

    @Test("pending: overdue first and marked, then by due time, then someday; the cancelled nowhere; a category, case ignored")
    func pendingAndOverdue() throws {
        let schedule = try calendar().schedule()
        let madrid = try ZoneRules.named("Europe/Madrid")
        let list = TaskList(schedule: schedule, now: try at("20261120T180000Z"), options: .init(timeZone: madrid))
        // At 19:00 in Madrid on the 20th: the sheet was due at 18:00; the lab
        // report is due on the 20th (a date), so overdue only from the 21st.
        #expect(list.overdue.map(\.title) == ["Maths problem sheet"])
        #expect(list.overdue.allSatisfy { $0.isOverdue })
        let maths = try #require(list.overdue.first)
        // Its first instance was done (Thunderbird's changed instance); the second is the one to do.
        let second = try CalendarTime(icalValue: "20261116T090000", tzid: "Europe/Madrid")
        #expect(maths.repeats && maths.id.recurrenceID == second)
        #expect(maths.due == (try LocalDateTime(year: 2026, month: 11, day: 20, hour: 18)))
        #expect(list.upcoming.map(\.title) == ["Hand in the lab report"])
        #expect(list.upcoming.allSatisfy { !$0.isOverdue })
        #expect(list.someday.map(\.title) == ["Read Kant's Groundwork", "Buy a lab coat"])
        #expect(!list.pending.contains { $0.title == "Old group project" })

        let later = TaskList(schedule: schedule, now: try at("20261121T000000Z"), options: .init(timeZone: madrid))
        #expect(later.overdue.map(\.title) == ["Hand in the lab report", "Maths problem sheet"])

        let chemistry = TaskList(schedule: schedule, now: try at("20261120T120000Z"), options: .init(timeZone: madrid, category: "CHEMISTRY"))
        #expect(chemistry.pending.map(\.title) == ["Hand in the lab report", "Buy a lab coat"])
        #expect(chemistry.done.isEmpty)
    }

    @Test("done: the latest first, each with its COMPLETED time on the display clock, a repeating task's instances each")
    func history() throws {
        let list = TaskList(schedule: try calendar().schedule(), now: try at("20261124T120000Z"), options: .init(timeZone: try .named("Europe/Madrid")))
        #expect(list.done.map(\.title) == ["History essay", "Maths problem sheet"])
        #expect(list.done[0].completed == (try LocalDateTime(year: 2026, month: 11, day: 21, hour: 10, minute: 30)))
        #expect(list.done[0].completedAt == (try at("20261121T093000Z")))
        let mathsDone = try LocalDateTime(year: 2026, month: 11, day: 13, hour: 18, minute: 12)
        #expect(list.done[1].repeats && list.done[1].completed == mathsDone)
        #expect(list.done.allSatisfy { $0.isDone && !$0.isOverdue })
    }

    @Test("a repeating task done completes its current instance and brings the next; undone, the change goes; the last done leaves nothing to do")
    func repeatingTaskDone() throws {
        var calendar = try calendar()
        let uid = "9b1f03c8-weekly@thunderbird"
        let madrid = try ZoneRules.named("Europe/Madrid")
        func pending(_ c: ICalendar) throws -> CalendarTime? { try c.item(uid: uid)?.pendingInstance(floatingZone: madrid, zones: c.zones)?.recurrenceID }
        func on(_ day: Int) throws -> CalendarTime { try CalendarTime(icalValue: "202611\(day)T090000", tzid: "Europe/Madrid") }
        #expect(try pending(calendar) == (try on(16)))
        let done = try calendar.markDone(uid: uid, at: try at("20261120T170000Z"))
        #expect(!done.isDone, "the series is not done, one instance is")
        #expect(done.overrides.count == 2)
        let changed = try #require(done.overrides.first { $0.recurrenceID == (try on(16)) })
        let stamped = try CalendarTime(icalValue: "20261120T170000Z")
        #expect(changed.item.isDone && changed.item.completed == stamped)
        #expect(changed.item.due() == (try CalendarTime(icalValue: "20261120T180000", tzid: "Europe/Madrid")))
        #expect(try pending(calendar) == (try on(23)))
        // Written out and read back, the instance done stays done.
        let again = try ICalendarImporter().importCalendar(from: ICalendarExporter().export(calendar)).calendar
        #expect(try pending(again) == (try on(23)))
        // Undone: the latest done is reopened, and as marking it was its only change, the change goes.
        try calendar.reopen(uid: uid, at: try at("20261120T170500Z"))
        #expect(try pending(calendar) == (try on(16)))
        #expect(calendar.item(uid: uid)?.overrides.count == 1)
        // COUNT=4: after the 16th, 23rd and 30th, nothing is left to do.
        for day in ["20261120", "20261127", "20261204"] { try calendar.markDone(uid: uid, at: try at("\(day)T170000Z")) }
        #expect(try pending(calendar) == nil)
        let list = TaskList(schedule: calendar.schedule(), now: try at("20261205T000000Z"))
        #expect(!list.pending.contains { $0.id.uid == uid })
        #expect(list.done.filter { $0.id.uid == uid }.count == 4)
    }

    @Test("subjects: a category of 10,000 characters is refused with its length, an empty one too; deleting a subject takes exactly its items")
    func categories() throws {
        let long = String(repeating: "a", count: 10_000)
        #expect(code { try CalendarItem.checkCategory(long) } == .invalidCategory)
        #expect(code { try CalendarItem.checkCategory("  ") } == .invalidCategory)
        #expect(code { try CalendarItem.checkCategory("Maths\nPhysics") } == .invalidCategory)
        do throws(CalendarItemError) { try CalendarItem.checkCategory(long) } catch {
            #expect(error.message.contains("10000 characters") && error.field == .categories && error.errorCode == 18)
        }
        var calendar = try calendar()
        var task = try #require(calendar.item(uid: "history-essay@thunderbird"))
        task.categories = [long]
        #expect(code { try calendar.update(task) } == .invalidCategory)
        let before = calendar.items.count
        let removed = calendar.removeItems(inCategory: "chemistry")
        #expect(removed.map(\.title) == ["Hand in the lab report", "Buy a lab coat"])
        #expect(calendar.items.count == before - 2)
        #expect(calendar.removeItems(inCategory: "Maths", keeping: { _ in true }).isEmpty)
    }

    @Test("a reminder on a task with no date: counted from a start or due it has not, it cannot ring; at a time of its own, it does")
    func undatedAlarms() throws {
        var task = CalendarItem(undatedTask: "kant", title: "Read Kant")
        let never = try Alarm(.before(.minutes(15)))
        // Refused when it is added (issue 41, 9); a file's such VALARM is read and reported.
        #expect(throws: AlarmError.self) { try task.addAlarm(never) }
        #expect(!task.hasAlarms)
        task.alarms.append(never)  // as a file can hold it
        try task.addAlarm(try Alarm(.absolute(try CalendarTime(icalValue: "20261128T090000Z"))))
        let report = try Schedule(items: [task]).alarms(from: try at("20261101T000000Z"), to: try at("20261201T000000Z"))
        #expect(report.instants.map(\.time) == [try at("20261128T090000Z")])
        #expect(report.problems.map(\.error.code) == [.noStart])
    }

    @Test("a task made with a due time only is due and overdue then, its alarm counted from the due time (RELATED=END) rings, one from its start is refused when added (issue 41, 9)")
    func dueOnlyTasks() throws {
        let due = try CalendarTime(icalValue: "20261204T120000Z")
        var essay = CalendarItem(task: "essay", title: "Hand in the essay", due: due)
        #expect(essay.due() == due && !essay.hasStart && !essay.isUndated)
        do {
            try essay.addAlarm(try Alarm(.before(.hours(3))))
            Issue.record("an alarm counted from a start the task has not was added")
        } catch {
            #expect(error.code == .noStart && error.message.contains("count it from its due time"), "\(error)")
        }
        try essay.addAlarm(try Alarm(.relative(.before(.hours(3)), to: .end), message: "The essay is due at noon"))
        let schedule = try Schedule(items: [essay])
        let report = schedule.alarms(from: try at("20261201T000000Z"), to: try at("20261205T000000Z"))
        #expect(report.instants.map(\.time) == [try at("20261204T090000Z")] && report.problems.isEmpty)
        // Pending before noon, overdue after; what CalendarItem(uid:kind:title:start:) made was never due.
        let before = TaskList(schedule: schedule, now: try at("20261204T110000Z"), options: .init(timeZone: .utc))
        let after = TaskList(schedule: schedule, now: try at("20261204T130000Z"), options: .init(timeZone: .utc))
        #expect(before.upcoming.map(\.title) == ["Hand in the essay"] && after.overdue.map(\.title) == ["Hand in the essay"])
        #expect(CalendarItem(uid: "x", kind: .task, title: "x", start: due).due() == nil)
        // Written as a VTODO with DUE and no DTSTART, the alarm RELATED=END; read back the same.
        let text = ICalendarExporter().export(ICalendar(items: [essay]))
        #expect(text.contains("DUE:20261204T120000Z") && !text.contains("DTSTART") && text.contains("TRIGGER;RELATED=END:-PT3H"), "\(text)")
        let back = try #require(try ICalendarImporter().importCalendar(from: text).calendar.item(uid: "essay"))
        #expect(back.due() == due && back.alarms.map(\.relatesToEnd) == [true])
    }
}
