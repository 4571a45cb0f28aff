import CalendarCore
import CalendarScheduling
import CalendarStore
import Foundation
import ICalendarKit
import SchedulingICalendar
import Testing
import _SchedulingTestSupport

/// Issue 30, 3: each public error, as a Foundation app meets it. Every error
/// here is a real one, thrown by the library for real bad input, then read
/// as an app reads errors: `localizedDescription` (Horari's sentence, not
/// "The operation could not be completed"), `recoverySuggestion`, and
/// `NSError`'s domain and code, whose numbers are pinned here: they are a
/// promise to apps that store or compare them (Docs/Errors.md).
@Suite("Errors that Foundation understands")
struct ErrorsAsFoundationTests {
    /// What an app sees of an error: its localized description, its
    /// suggestion, and its NSError identity.
    func seen(_ error: any Error) -> (text: String, suggestion: String?, domain: String, code: Int) {
        let ns = error as NSError
        return (error.localizedDescription, (error as? any LocalizedError)?.recoverySuggestion, ns.domain, ns.code)
    }

    /// What an app that shows the description and then the suggestion (an
    /// alert: its message, its informative text) shows, joined as Horari
    /// wrote it: each part once (issue 43, 7: the suggestion was in the
    /// description too, and so said twice).
    func shown(_ error: any Error) -> String {
        let s = seen(error)
        #expect(s.suggestion.map { !s.text.contains($0) } ?? true, "the suggestion is said twice")
        return s.text + (s.suggestion.map { "; \($0)" } ?? "")
    }

    @Test("TimeValueError: February 30")
    func timeValue() throws {
        let error = try #require(#expect(throws: TimeValueError.self) { _ = try LocalDate(year: 2026, month: 2, day: 30) })
        let s = seen(error)
        #expect(shown(error) == error.description)
        #expect(s.text.contains("30"))
        #expect((s.domain, s.code) == ("Horari.TimeValueError", 2))
        #expect((error as NSError).localizedDescription == error.description)
    }

    @Test("RecurrenceRuleError: an unknown frequency")
    func recurrenceRule() throws {
        let error = try #require(#expect(throws: RecurrenceRuleError.self) { _ = try RecurrenceRule(parsing: "FREQ=FORTNIGHTLY") })
        let s = seen(error)
        #expect(shown(error) == error.description && !s.text.isEmpty)
        #expect(s.domain == "Horari.RecurrenceRuleError")
        #expect(s.code == [.missingFrequency: 1, .malformedValue: 2, .valueOutOfRange: 3][error.code])
    }

    @Test("a \"; \" inside a quoted title is the title's: the remedy is what follows the sentence's own")
    func remedyAfterAQuotedTitle() {
        let error = AlarmError(.noStart, property: "TRIGGER", "the task ‘Call Anna; then Pau’ has no date, so an alarm counted from its start cannot go off; give the task a date")
        #expect(seen(error).suggestion == "give the task a date")
        #expect(seen(error).text == "the task ‘Call Anna; then Pau’ has no date, so an alarm counted from its start cannot go off")
        #expect(shown(error) == error.description)
    }

    @Test("RecurrenceError: an endless rule without a window end, with what to do")
    func recurrence() throws {
        let start = CalendarTime.utc(try LocalDateTime(date: LocalDate(year: 2026, month: 1, day: 1), hour: 9, minute: 0))
        let set = RecurrenceSet(start: start, rules: [try RecurrenceRule(parsing: "FREQ=DAILY")])
        let error = try #require(#expect(throws: RecurrenceError.self) { _ = try set.instances(from: Date()) })
        let s = seen(error)
        #expect(s.text == "the recurrence has no COUNT or UNTIL" && shown(error) == error.description)
        #expect(s.suggestion == "give a window end or a limit")
        #expect((s.domain, s.code) == ("Horari.RecurrenceError", 1))
        // Caught by code, through the one shared pattern.
        do { _ = try set.instances(from: Date()) } catch RecurrenceError.Code.unbounded {} catch { Issue.record("not matched by code: \(error)") }
    }

    @Test("CalendarItemError: an empty title and a duplicate UID")
    func calendarItem() async throws {
        let start = CalendarTime.utc(try LocalDateTime(date: LocalDate(year: 2026, month: 11, day: 24), hour: 9, minute: 0))
        let error = try #require(#expect(throws: CalendarItemError.self) { try CalendarItem(uid: "a", title: "  ", start: start).validate() })
        let s = seen(error)
        #expect(s.text == "the title is empty" && shown(error) == "the title is empty; give the item a name")
        #expect(s.suggestion == "give the item a name")
        #expect((s.domain, s.code) == ("Horari.CalendarItemError", 1))
        let live = try LiveSchedule()
        try await live.add(CalendarItem(uid: "a", title: "Yoga", start: start))
        let twice = try #require(await #expect(throws: CalendarItemError.self) { try await live.add(CalendarItem(uid: "a", title: "Yoga", start: start)) })
        #expect(shown(twice) == "an item with the UID ‘a’ exists already; edit it instead" && shown(twice) == twice.description)
        #expect(seen(twice).code == 10)
        // The zone error of Schedule(items:) keeps what it was made from, as NSUnderlyingErrorKey.
        let zoned = CalendarItem(uid: "z", title: "Far", start: .zoned(try LocalDateTime(date: LocalDate(year: 2026, month: 11, day: 24), hour: 9, minute: 0), "Nowhere/Atlantis"))
        let unknown = try #require(#expect(throws: CalendarItemError.self) { _ = try Schedule(items: [zoned]) })
        #expect(shown(unknown) == unknown.description && seen(unknown).code == 11)
    }

    @Test("ICalendarError: a file that is not iCalendar, and a read-only calendar file")
    func iCalendar() throws {
        let error = try #require(#expect(throws: ICalendarError.self) { _ = try ICalendarImporter().importCalendar(from: "name,start\nYoga,2026-11-24\n") })
        let s = seen(error)
        #expect(shown(error) == error.description && s.text.contains("VCALENDAR"))
        #expect((s.domain, s.code) == ("Horari.ICalendarError", 1))
        // Caught by code, as before the shared pattern.
        do { _ = try ICalendarImporter().importCalendar(from: "") } catch ICalendarError.Code.notICalendar {} catch { Issue.record("not matched by code: \(error)") }
    }

    @Test("SchedulingError: a full class says what to do; an unknown class has nothing to suggest")
    func scheduling() throws {
        var book = try Gym.book()
        let monday = try Gym.day("2026-11-23")
        let now = try Gym.now("2026-11-20 10:00")
        for member in ["marta", "oriol", "nuria"] { try book.book(member: member, classID: "yoga", on: monday, now: now) }
        try book.addMember(Member(id: "xavi", name: "Xavi Mas"))
        let full = try #require(refusal { try book.book(member: "xavi", classID: "yoga", on: monday, now: now) })
        let s = seen(full)
        #expect(s.text == "Yoga on 2026-11-23 is full (3 of 3 places taken, 0 waiting)" && shown(full) == full.description)
        #expect(s.suggestion == "join the waitlist or pick another date")
        #expect((s.domain, s.code) == ("Horari.SchedulingError", 19))
        let unknown = try #require(refusal { try book.book(member: "xavi", classID: "pilates", on: monday, now: now) })
        #expect(seen(unknown).text == "there is no class ‘pilates’" && seen(unknown).suggestion == nil && seen(unknown).code == 7)
    }

    @Test("the store's errors: CalendarStoreError, CalendarStoreFailure and SchedulingStoreError keep the error inside")
    func store() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("horari-errors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let notes = folder.appendingPathComponent("notes.ics")
        try Data("name,start\nYoga,2026-11-24\n".utf8).write(to: notes)
        let location = try CalendarLocation(notes.path)

        let failure = try #require(await #expect(throws: CalendarStoreFailure<Never>.self) { _ = try await CalendarStore(location).load() })
        let s = seen(failure)
        #expect(shown(failure) == failure.description && s.text.contains("VCALENDAR"))
        #expect((s.domain, s.code) == ("Horari.CalendarStoreFailure", 2))
        let inside = try #require((failure as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)
        #expect((inside.domain, inside.code) == ("Horari.ICalendarError", 1))

        let desk = SchedulingStore(CalendarStore(location))
        let refused = try #require(await #expect(throws: SchedulingStoreError.self) { try await desk.change { try $0.addMember(Member(id: "m", name: "M")) } })
        #expect(shown(refused) == refused.description && seen(refused).domain == "Horari.SchedulingStoreError")
        #expect(seen(refused).code == 3)

        let nowhere = try #require(#expect(throws: CalendarStoreError.self) { _ = try CalendarLocation("ftp://example.com/cal") })
        #expect(shown(nowhere) == nowhere.description)
        #expect((seen(nowhere).domain, seen(nowhere).code) == ("Horari.CalendarStoreError", 1))
        do { _ = try CalendarLocation("ftp://example.com/cal") } catch CalendarStoreError.Code.invalidLocation {} catch { Issue.record("not matched by code: \(error)") }
    }

    @Test("the invitation errors (issue 32): ReplyError with its code and the book's error inside, IMIPError and FreeBusyError")
    func invitations() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let counter = try ICalendarImporter().importCalendar(from: try Data(contentsOf: root.appendingPathComponent("Examples/Samples/incoming/anna-counter.ics"))).calendar
        let notSupported = try #require(#expect(throws: ReplyError.self) { _ = try SchedulingReply(reading: counter) })
        let s = seen(notSupported)
        #expect(shown(notSupported) == "METHOD:COUNTER is not supported: the book sends invitations and takes answers (REPLY); answer a COUNTER by hand")
        #expect(s.suggestion == "answer a COUNTER by hand")
        #expect((s.domain, s.code) == ("Horari.ReplyError", 2))
        // A refusal keeps the book's error inside, with its own suggestion.
        let refused = ReplyError.refused(.classFull(title: "Yoga", date: try Gym.day("2026-11-23"), capacity: 3, waiting: 0))
        #expect(seen(refused).code == 14 && seen(refused).suggestion == "join the waitlist or pick another date")
        let inside = try #require((refused as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)
        #expect((inside.domain, inside.code) == ("Horari.SchedulingError", 19))

        let header = try #require(#expect(throws: IMIPError.self) { _ = try IMIPMessage.Mailbox(parsing: "Gym <desk@gym.example>\nBcc: x@y.z") })
        #expect(shown(header) == header.message && !header.message.isEmpty)
        #expect((seen(header).domain, seen(header).code) == ("Horari.IMIPError", 1))

        let backwards = try ICalendarImporter().importCalendar(from: [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", "BEGIN:VFREEBUSY", "UID:a", "DTSTAMP:20261120T090000Z",
            "FREEBUSY:20261126T100000Z/20261126T090000Z", "END:VFREEBUSY", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")).calendar
        let period = try #require(#expect(throws: FreeBusyError.self) { _ = try backwards.freeBusyPeriods() })
        #expect(shown(period) == period.message && seen(period).text.hasSuffix("ends before it starts (or where it starts)"))
        #expect((seen(period).domain, seen(period).code) == ("Horari.FreeBusyError", 1))
    }

    @Test("BookImportError (issue 43, 1): a message about the book, with its remedy and code")
    func bookImport() {
        let s = seen(BookImportError.messageAboutTheBook(record: "yoga", isClass: true, method: "REQUEST", instances: 1))
        #expect(s.text.hasPrefix("the file is a METHOD:REQUEST message about the book's class ‘yoga’"))
        #expect(s.suggestion == "bookings change through the book's own operations, and a person's answer is applied as it comes back (METHOD:REPLY)")
        #expect((s.domain, s.code) == ("Horari.BookImportError", 2))
        #expect((seen(BookImportError.unknownRules("x")).domain, seen(BookImportError.unknownRules("x")).code) == ("Horari.BookImportError", 1))
    }
}
