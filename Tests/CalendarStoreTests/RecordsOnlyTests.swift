import CalendarCore
import CalendarScheduling
import CalendarStore
import Foundation
import ICalendarKit
import Testing
import _SchedulingTestSupport

/// An app's own backend that keeps a book's records and nothing else: a
/// bare `BookStorage` (here, memory seen through the protocol alone, as a
/// REST API or a document database would be), under `SchedulingStore` and
/// `CalendarStore` unchanged (issue 40, 6).
@Suite("A backend of records only, under SchedulingStore and CalendarStore")
struct RecordsOnlyTests {
    /// Memory, through `BookStorage` alone: no calendar text to keep.
    struct Backend: BookStorage {
        let memory = MemoryBookStorage()
        func load() async throws -> BookSnapshot { try await memory.load() }
        func load(_ keys: Set<RecordKey>) async throws -> BookSnapshot { try await memory.load(keys) }
        func commit(_ commit: BookCommit) async throws -> Bool { try await memory.commit(commit) }
        func hasCommitted(_ commitID: String) async throws -> Bool { try await memory.hasCommitted(commitID) }
        func owedMessages() async throws -> [OwedMessage] { try await memory.owedMessages() }
        func markDelivered(_ messageIDs: [String]) async throws { try await memory.markDelivered(messageIDs) }
    }

    static let place = URL(string: "https://api.example.com/gym")

    static func store(_ backend: Backend, now: Date) throws -> SchedulingStore {
        SchedulingStore(books: backend, at: try #require(place), settings: .init(now: { _ in now }, newCalendarZone: Gym.zone))
    }

    @Test("the gym's day on a backend of records only: the book made by the first change, a booking, the waitlist, a cancellation that moves it up, the messages owed and delivered; every change a commit of records")
    func gymDay() async throws {
        let backend = Backend()
        let now = try Gym.now("2026-11-20 10:00")
        let gym = try Self.store(backend, now: now)
        let monday = try Gym.day("2026-11-30")
        let empty = try await gym.load()
        #expect(empty.timeZone.identifier == Gym.zone && empty.members.isEmpty)

        let made = try Gym.book()
        try await gym.change { $0 = made }
        #expect(try await backend.load().revision == 1)
        for member in ["marta", "oriol"] { _ = try await gym.book(member: member, classID: "yoga", on: monday) }
        let before = try await backend.load()
        let told = try await gym.changeOccurrenceTelling(of: "yoga", on: monday, members: ["nuria"], gym: nil) { book in
            try book.book(member: "nuria", classID: "yoga", on: monday, now: now)
        }
        #expect(told.notices.notices.map(\.recipient.email) == ["nuria@example.com"])
        let after = try await backend.load()
        let changed = after.records.filter { record in !before.records.contains(record) }.map(\.key)
        #expect(changed == [RecordKey(kind: "roster", id: "yoga 2026-11-30")], "\(changed)")

        try await gym.change { try $0.addMember(Member(id: "pere", name: "Pere Vila", email: "pere@example.com")) }
        let waiting = try await gym.book(member: "pere", classID: "yoga", on: monday, whenFull: .joinWaitlist)
        #expect(waiting == .waitlisted(position: 1))
        let tuesday = try Gym.day("2026-12-02")
        for member in ["marta", "oriol", "nuria"] { _ = try await gym.book(member: member, classID: "yoga", on: tuesday) }
        do {
            _ = try await gym.book(member: "pere", classID: "yoga", on: tuesday)
            Issue.record("a fourth booking of three places was made")
        } catch {
            guard case .refused(.classFull) = error else { throw error }
        }

        let cancelled = try await gym.changeOccurrenceTelling(of: "yoga", on: monday, members: ["oriol"], gym: nil) { book in
            try book.cancelBooking(member: "oriol", classID: "yoga", on: monday, now: now)
        }
        #expect(cancelled.result.promoted == "pere")
        let book = try await gym.load()
        #expect(try book.roster(classID: "yoga", on: monday).confirmed.sorted() == ["marta", "nuria", "pere"])

        let owed = try await gym.owedMessages()
        #expect(owed.count == 1 + cancelled.notices.notices.count && owed.count >= 3, "\(owed.map(\.notice.recipient.email))")
        var sent: [String] = []
        #expect(try await gym.deliver { sent.append($0.notice.recipient.email) } == owed.count)
        #expect(sent == owed.map(\.notice.recipient.email))
        #expect(try await gym.owedMessages().isEmpty)

        // Another desk, another store value on the same backend, reads the same book.
        let other = try Self.store(backend, now: now)
        #expect(try await other.load() == book)
    }

    @Test("twelve desks of their own on one backend race for the last three places: three booked, the rest told full")
    func race() async throws {
        let backend = Backend()
        let now = try Gym.now("2026-11-20 10:00")
        var book = try Gym.book()
        let members = (1...12).map { "m\($0)" }
        for id in members { try book.addMember(Member(id: id, name: "Member \(id)", email: "\(id)@example.com")) }
        let made = book
        try await Self.store(backend, now: now).change { $0 = made }
        let monday = try Gym.day("2026-11-30")
        let answers = await withTaskGroup(of: String.self) { group in
            for id in members {
                group.addTask {
                    do {
                        let gym = try Self.store(backend, now: now)
                        _ = try await gym.book(member: id, classID: "yoga", on: monday)
                        return "booked"
                    } catch {
                        if case SchedulingStoreError.refused(.classFull)? = error as? SchedulingStoreError { return "full" }
                        return "\(error)"
                    }
                }
            }
            var all: [String] = []
            for await answer in group { all.append(answer) }
            return all
        }
        #expect(answers.filter { $0 == "booked" }.count == 3, "\(answers)")
        #expect(answers.filter { $0 == "full" }.count == 9, "\(answers)")
        let held = try await Self.store(backend, now: now).load().roster(classID: "yoga", on: monday)
        #expect(held.confirmed.count == 3)
    }

    @Test("its calendar is the book's own: classes as events; a change of the calendar that keeps only what the book holds is made, one that would keep an event, a calendar's name or another program's reminder is refused (recordsOnly) and nothing written")
    func calendarOfTheBook() async throws {
        let backend = Backend()
        let now = try Gym.now("2026-11-20 10:00")
        let made = try Gym.book()
        try await Self.store(backend, now: now).change { $0 = made }
        let store = CalendarStore(.server(try #require(Self.place)), database: RecordsOnlyDatabase(backend))
        let calendar = try await store.load().calendar
        var expected = ICalendar()
        expected.setScheduling(made)
        #expect(Set(calendar.items.map(\.uid)) == Set(expected.items.map(\.uid)))
        #expect(calendar.items.contains { $0.title == "Yoga" && !$0.recurrenceRules.isEmpty })

        // The book changed through the calendar: made, as a commit of records.
        let revision = try await backend.load().revision
        try await store.update { (calendar: inout ICalendar) in
            var book = try calendar.schedulingBook(defaultTimeZone: Gym.zone)
            try book.addMember(Member(id: "pere", name: "Pere Vila", email: "pere@example.com"))
            calendar.setScheduling(book)
        }
        #expect(try await backend.load().revision == revision + 1)
        #expect(try await Self.store(backend, now: now).load().member("pere").email == "pere@example.com")

        // A class's title edited through its event, as a calendar app edits
        // it (with a LAST-MODIFIED the record does not keep), is the book's change.
        try await store.update { (calendar: inout ICalendar) in
            let yoga = try #require(calendar.items.firstIndex { $0.title == "Yoga" })
            calendar.items[yoga].title = "Yoga flow"
            calendar.items[yoga].lastModified = CalendarTime.utc(try Gym.at("2026-11-20 09:00"))
        }
        #expect(try await Self.store(backend, now: now).load().classSeries("yoga").title == "Yoga flow")
        // The same calendar in another order is no change.
        let held = try await backend.load()
        try await store.update { (calendar: inout ICalendar) in calendar.items.reverse() }
        #expect(try await backend.load().revision == held.revision)

        let refusals: [(String, @Sendable (inout ICalendar) throws -> Void)] = [
            ("an event of its own", { calendar in
                let start = CalendarTime.zoned(try Gym.at("2026-12-01 10:00"), Gym.zone)
                calendar.items.append(CalendarItem(uid: "party@example.com", title: "Party", start: start))
            }),
            ("a calendar's name", { calendar in calendar.name = "Gym" }),
            ("a reminder on a class", { calendar in
                let yoga = try #require(calendar.items.firstIndex { $0.title.hasPrefix("Yoga") })
                calendar.items[yoga].alarms = [try Alarm(.before(.minutes(30)))]
            }),
        ]
        for (what, body) in refusals {
            let held = try await backend.load()
            do {
                try await store.update(body)
                Issue.record("\(what): made")
            } catch {
                guard case .store(let refused) = error else { Issue.record("\(what): \(error)"); continue }
                #expect(refused.code == .recordsOnly, "\(what): \(refused)")
                #expect(refused.message.contains("nothing was changed"), "\(what): \(refused.message)")
                if what == "an event of its own" { #expect(refused.message.contains("party@example.com"), "\(refused.message)") }
            }
            let now = try await backend.load()
            #expect(now.revision == held.revision && now.records == held.records, "\(what)")
        }
    }

    /// A backend whose first commit is made and its answer lost.
    struct LosingBackend: BookStorage {
        let base = Backend()
        let lost = Locked(false)
        func load() async throws -> BookSnapshot { try await base.load() }
        func commit(_ commit: BookCommit) async throws -> Bool {
            let made = try await base.commit(commit)
            if lost.withLock({ done in defer { done = true }; return !done }) { throw URLError(.networkConnectionLost) }
            return made
        }
        func hasCommitted(_ commitID: String) async throws -> Bool { try await base.hasCommitted(commitID) }
        func owedMessages() async throws -> [OwedMessage] { try await base.owedMessages() }
        func markDelivered(_ messageIDs: [String]) async throws { try await base.markDelivered(messageIDs) }
    }

    @Test("a change through the calendar whose answer was lost after the backend made it is made once, not twice, nor said failed")
    func lostAnswer() async throws {
        let backend = LosingBackend()
        let store = CalendarStore(.server(try #require(Self.place)), database: RecordsOnlyDatabase(backend))
        let made = try Gym.book()
        try await store.update { (calendar: inout ICalendar) in
            calendar.setScheduling(made)
        }
        #expect(try await backend.load().revision == 1)
        #expect(try await SchedulingStore(books: backend, at: try #require(Self.place)).load().members.count == made.members.count)
    }

    @Test("a storage that keeps a calendar's text too is used as one: its events are kept")
    func calendarDatabaseAsOne() async throws {
        let memory = MemoryBookStorage()
        let gym = SchedulingStore(books: memory, at: try #require(Self.place), settings: .init(newCalendarZone: Gym.zone))
        let made = try Gym.book()
        try await gym.change { $0 = made }
        try await gym.store.update { (calendar: inout ICalendar) in
            calendar.items.append(CalendarItem(uid: "party@example.com", title: "Party", start: CalendarTime.zoned(try Gym.at("2026-12-01 10:00"), Gym.zone)))
        }
        #expect(try await gym.store.load().calendar.items.contains { $0.uid == "party@example.com" })
    }

    @Test("RecordsOnlyDatabase refuses a calendar text handed to it directly, and writes nothing")
    func textRefused() async throws {
        let backend = Backend()
        let database = RecordsOnlyDatabase(backend)
        let commit = BookCommit(id: "c1", basedOn: 0, writes: [], owed: [])
        let refused = await #expect(throws: CalendarStoreError.self) {
            _ = try await database.commit(commit, calendar: CalendarText(header: Data("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8), components: []))
        }
        #expect(refused?.code == .recordsOnly)
        #expect(try await backend.load().revision == 0)
        #expect(try await database.hasCommitted("c1") == false)
    }
}
