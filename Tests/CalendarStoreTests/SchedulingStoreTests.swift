import CalendarCore
import CalendarScheduling
@testable import CalendarStore
import Foundation
import ICalendarKit
import Testing
import _CalendarTestSupport
import _SchedulingTestSupport

/// Issue 29, 1: the gym's book on a store, through the library alone — the
/// same calls and the same guarantees on a file, a folder and a CalDAV
/// collection (Radicale): every desk's booking told "booked" is in the
/// calendar, capacity is never passed however many desks race for the last
/// places, a booking writes only the class's records, and a refusal is a
/// typed error that changes nothing.
@Suite("The gym's book on a file, a folder and a CalDAV collection (SchedulingStore)")
struct SchedulingStoreTests {
    /// The time every request is made at: Friday 20 November 2026, 10:00 in Madrid.
    static let now = { @Sendable (_: String) throws -> Date in try Gym.now("2026-11-20 10:00") }

    /// A place of each kind in a fresh scratch folder (and, for a
    /// collection, a server): where the calendar is, and what to clean up.
    struct Place {
        let store: CalendarStore
        let scratch: URL
        let server: TestServer?

        static func make(_ kind: String) throws -> Place {
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("horari-scheduling-store-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            switch kind {
            case "file":
                return Place(store: CalendarStore(.file(scratch.appendingPathComponent("gym.ics"))), scratch: scratch, server: nil)
            case "folder":
                let folder = scratch.appendingPathComponent("gym")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                return Place(store: CalendarStore(.folder(folder)), scratch: scratch, server: nil)
            default:
                let server = try TestServer.radicale()
                var store = CalendarStore(.collection(server.url("/\(TestServer.user)/gym/")),
                                          credentials: CalDAVCredentials(user: TestServer.user, password: TestServer.password))
                store.cacheFolder = scratch.appendingPathComponent("cache")
                return Place(store: store, scratch: scratch, server: server)
            }
        }

        /// A desk: a scheduling store of its own on the same calendar (a
        /// collection's with a cache of its own, as another machine's).
        func desk(_ name: String) -> SchedulingStore {
            var store = self.store
            if store.cacheFolder != nil { store.cacheFolder = scratch.appendingPathComponent("cache-\(name)") }
            return SchedulingStore(store, settings: SchedulingStore.Settings(now: SchedulingStoreTests.now, newCalendarZone: Gym.zone))
        }

        func stop() {
            server?.stop()
            try? FileManager.default.removeItem(at: scratch)
        }
    }

    /// The test gym with eight more members, written through `desk`; Yoga's
    /// 3 places on Monday 23 November.
    static func openGym(_ desk: SchedulingStore) async throws {
        try await desk.change { book in
            book = try Gym.book()
            for n in 1...8 { try book.addMember(Member(id: "m\(n)", name: "Member \(n)")) }
        }
    }

    func scenario(_ kind: String) async throws {
        let place = try Place.make(kind)
        defer { place.stop() }
        let monday = try Gym.day("2026-11-23")
        try await Self.openGym(place.desk("setup"))

        // Ten desks race for Yoga's three places: three are booked, seven refused as full.
        let outcomes = await withTaskGroup(of: (String, Result<BookingOutcome, any Error>).self) { group in
            for (i, member) in (["marta", "oriol"] + (1...8).map { "m\($0)" }).enumerated() {
                let desk = place.desk("d\(i)")
                group.addTask {
                    do {
                        return (member, .success(try await desk.book(member: member, classID: "yoga", on: monday)))
                    } catch {
                        return (member, .failure(error))
                    }
                }
            }
            var all: [(String, Result<BookingOutcome, any Error>)] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        let booked = outcomes.filter { if case .success(.confirmed) = $0.1 { true } else { false } }.map { $0.0 }
        #expect(booked.count == 3, "\(kind): \(outcomes)")
        for (member, outcome) in outcomes where !booked.contains(member) {
            guard case .failure(let error) = outcome, case .refused(.classFull(let title, _, let capacity, _))? = error as? SchedulingStoreError else {
                Issue.record("\(kind): \(member) was told \(outcome), not that the class is full")
                continue
            }
            #expect(title == "Yoga" && capacity == 3)
        }

        // Every member told "booked" is on the roster a fresh reader sees, and no one else.
        let fresh = place.desk("fresh")
        let roster = try await fresh.load().roster(classID: "yoga", on: monday)
        #expect(Set(roster.confirmed) == Set(booked), "\(kind)")
        let agenda = try await fresh.load().agenda(member: booked[0])
        #expect(agenda.map { $0.occurrence.id } == [ClassOccurrence.ID(classID: "yoga", date: monday)])

        // A cancellation moves the first waiting up; a refusal is typed and changes nothing.
        let waiting = booked.count == 3 ? outcomes.first { !booked.contains($0.0) }?.0 : nil
        if let waiting {
            #expect(try await fresh.book(member: waiting, classID: "yoga", on: monday, whenFull: .joinWaitlist) == .waitlisted(position: 1))
            let cancellation = try await fresh.cancelBooking(member: booked[0], classID: "yoga", on: monday)
            #expect(cancellation.promoted == waiting)
        }
        let unknown = await failure { () async throws(SchedulingStoreError) in try await fresh.book(member: "nobody", classID: "yoga", on: monday) }
        #expect(unknown?.description == SchedulingError.unknownMember("nobody").description, "\(kind)")
        let after = try await place.desk("last").load().roster(classID: "yoga", on: monday)
        #expect(after.confirmed.count == 3 && !after.confirmed.contains(booked[0]), "\(kind): \(after)")
    }

    @Test("on a file: ten desks for three places, three booked and seven told full; the roster holds exactly those told booked")
    func onAFile() async throws { try await scenario("file") }

    @Test("on a folder of one .ics per UID: the same")
    func onAFolder() async throws { try await scenario("folder") }

    @Test(
        "on a CalDAV collection (Radicale), each desk with a cache of its own: the same",
        .enabled(if: TestServer.radicalePython != nil, "set HORARI_RADICALE_PYTHON to a Python with Radicale 3 to test against a real CalDAV server")
    )
    func onACollection() async throws { try await scenario("collection") }

    @Test("a weekly limit holds across desks on a file and a folder: six desks book one member into six classes of a week, two are booked", arguments: ["file", "folder"])
    func weeklyLimitAcrossDesks(_ kind: String) async throws {
        let place = try Place.make(kind)
        defer { place.stop() }
        try await Self.openGym(place.desk("setup"))
        // The gym's rule, recorded in its calendar: every desk reads it there.
        try await place.desk("setup").change { $0.classPolicy = ClassBookingPolicy(weeklyLimit: 2) }
        // Yoga on Monday and Wednesday, Spinning on Friday, for two weeks.
        let dates = [("yoga", "2026-11-23"), ("yoga", "2026-11-25"), ("spin", "2026-11-27"), ("yoga", "2026-11-30"), ("yoga", "2026-12-02"), ("spin", "2026-12-04")]
        let results = await withTaskGroup(of: (Int, Bool).self) { group in
            for (i, (classID, day)) in dates.enumerated() {
                let desk = place.desk("d\(i)")
                group.addTask {
                    do {
                        _ = try await desk.changeOccurrence(of: classID, on: try Gym.day(day), members: ["marta"]) { book in
                            try book.book(member: "marta", classID: classID, on: try Gym.day(day), now: try Gym.now("2026-11-20 10:00"))
                        }
                        return (i, true)
                    } catch { return (i, false) }
                }
            }
            var ok: [Int: Bool] = [:]
            for await (i, r) in group { ok[i] = r }
            return ok
        }
        #expect(results.filter { $0.key < 3 && $0.value }.count == 2)
        #expect(results.filter { $0.key >= 3 && $0.value }.count == 2)
        let book = try await place.desk("check").load()
        #expect(try book.bookings(member: "marta").count == 4)
        // On a collection the changes took the book's lease in turn, and each gave it back.
        #expect(try await place.store.load().calendar.bookLease == nil)
        if kind == "collection" {
            // A lease left by a desk that stopped (its time passed) does not block the next booking.
            _ = try await place.store.update { (calendar: inout ICalendar) in calendar.setBookLease(("gone", Date(timeIntervalSinceNow: -5))) }
            #expect(try await place.desk("late").changeOccurrence(of: "yoga", on: try Gym.day("2026-12-07"), members: ["oriol"]) { book in
                try book.book(member: "oriol", classID: "yoga", on: try Gym.day("2026-12-07"), now: try Gym.now("2026-11-20 10:00"))
            } == .confirmed)
            #expect(try await place.store.load().calendar.bookLease == nil)
        }
    }

    @Test(
        "a weekly limit holds across desks on a CalDAV collection (Radicale), each desk with a cache of its own",
        .enabled(if: TestServer.radicalePython != nil, "set HORARI_RADICALE_PYTHON to a Python with Radicale 3 to test against a real CalDAV server")
    )
    func weeklyLimitOnACollection() async throws { try await weeklyLimitAcrossDesks("collection") }

    @Test("a closure made at one desk is kept at another, on the class's own resource too: its booking of a closed date is refused as closed; opened, it books", arguments: ["file", "folder"])
    func closureAcrossDesks(_ kind: String) async throws {
        let place = try Place.make(kind)
        defer { place.stop() }
        try await Self.openGym(place.desk("setup"))
        let monday = try Gym.day("2026-11-30")
        _ = try await place.desk("front").book(member: "m1", classID: "yoga", on: monday)
        let front = place.desk("front")
        let report = try await front.change { book in try book.close(try GymClosure(first: monday, last: monday, reason: "Works"), now: try front.now(for: book)) }
        #expect(report.members == ["m1"])
        let refused = await #expect(throws: SchedulingStoreError.self) { try await place.desk("other").book(member: "marta", classID: "yoga", on: monday) }
        guard case .refused(.gymClosed(_, _, let closure))? = refused else {
            Issue.record("not refused as closed: \(String(describing: refused))")
            return
        }
        #expect(closure.reason == "Works")
        _ = try await place.desk("other").change { try $0.open(from: monday, through: monday) }
        #expect(try await place.desk("front").book(member: "marta", classID: "yoga", on: monday) == .confirmed)
        #expect(try await place.desk("check").load().roster(classID: "yoga", on: monday).confirmed == ["marta"])
    }

    @Test(
        "a closure is kept across desks on a CalDAV collection (Radicale), each desk with a cache of its own",
        .enabled(if: TestServer.radicalePython != nil, "set HORARI_RADICALE_PYTHON to a Python with Radicale 3 to test against a real CalDAV server")
    )
    func closureOnACollection() async throws { try await closureAcrossDesks("collection") }

    @Test(
        "a change's messages are kept in the calendar with it: another desk lists them, oldest first; each delivered once is gone, one a sender keeps stays; never imported or exported",
        arguments: ["file", "folder"])
    func owedMessagesLiveWithTheBook(_ kind: String) async throws {
        let place = try Place.make(kind)
        defer { place.stop() }
        let desk = place.desk("a")
        try await Self.openGym(desk)
        let now = try Self.now("")
        let added = try await desk.changeTelling { book in
            try book.addSession(id: "s1", coach: "marc", client: "anna", startingAt: try Gym.now("2026-11-26 18:00"), duration: .minutes(45), now: now)
        }
        let cancelled = try await desk.changeTelling { book in try book.setStatus(.cancelled, ofSession: "s1", coach: "marc", now: now) }
        let owed = try await place.desk("b").owedMessages()
        #expect(owed.map(\.notice) == added.notices.notices + cancelled.notices.notices && owed.map(\.notice.method) == [.request, .cancel], "\(owed.map(\.notice.method))")
        #expect(Set(owed.map(\.commitID)).count == 2 && owed.allSatisfy { $0.madeAt == now && $0.timeZone == Gym.zone })

        // The store's own: an export leaves them out, an import takes none, into a book or into an empty calendar.
        let calendar = try await place.store.load().calendar
        #expect(calendar.components.count - calendar.withoutOwedMessages.components.count == 2)
        var other = ICalendar(items: [])
        other.setScheduling(try Gym.book())
        let (_, left) = other.importMerging(calendar)
        #expect(Set(left.filter(\.isOwedMessage).map(\.uid)) == Set(owed.map { "owed:" + $0.id }) && other == other.withoutOwedMessages)
        var empty = ICalendar(items: [])
        _ = empty.importMerging(calendar)
        #expect(empty == empty.withoutOwedMessages && empty.components.count == calendar.withoutOwedMessages.components.count)

        // Delivered one at a time: a message the sender keeps stays owed, the other is gone.
        var sent: [OwedMessage] = []
        let first = try await desk.deliver { message in
            if message.notice.method == .cancel { throw StaysOwed("not now") }
            sent.append(message)
        }
        #expect(first == 1 && sent == [owed[0]])
        #expect(try await place.desk("c").owedMessages() == [owed[1]])
        try await desk.deliver { sent.append($0) }
        #expect(sent == owed)
        #expect(try await desk.owedMessages().isEmpty)
        #expect(try await desk.load().session("s1", coach: "marc").status == .cancelled)
    }

    @Test(
        "on a CalDAV collection (Radicale): the same, the messages in resources of their own",
        .enabled(if: TestServer.radicalePython != nil, "set HORARI_RADICALE_PYTHON to a Python with Radicale 3 to test against a real CalDAV server")
    )
    func owedMessagesOnACollection() async throws { try await owedMessagesLiveWithTheBook("collection") }

    @Test("a booking in a folder writes the class's file alone: no member's, coach's or other class's file is touched")
    func bookingWritesOnlyTheClass() async throws {
        let place = try Place.make("folder")
        defer { place.stop() }
        let desk = place.desk("a")
        try await Self.openGym(desk)
        guard case .folder(let folder) = place.store.location else { return }
        func contents() throws -> [String: Data] {
            var out: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".ics") {
                out[name] = try Data(contentsOf: folder.appendingPathComponent(name))
            }
            return out
        }
        let before = try contents()
        #expect(try await desk.book(member: "marta", classID: "yoga", on: try Gym.day("2026-11-23")) == .confirmed)
        let after = try contents()
        #expect(Set(after.keys) == Set(before.keys))
        #expect(after.keys.filter { after[$0] != before[$0] } == ["yoga.ics"])
    }

    @Test("a calendar that does not exist yet reads as an empty book on the new calendar's zone; the first change creates it on that zone")
    func newCalendar() async throws {
        let place = try Place.make("file")
        defer { place.stop() }
        let desk = place.desk("a")
        #expect(try await desk.load().timeZone.identifier == Gym.zone)
        try await desk.change { try $0.addMember(Member(id: "marta", name: "Marta Roig")) }
        let calendar = try await place.store.load().calendar
        #expect(calendar.calendarZone == Gym.zone)
        #expect(try await place.desk("b").load().members.map(\.id) == ["marta"])
    }

    @Test("a record the book cannot read is named with its line in a file, and nothing is written")
    func unreadableRecord() async throws {
        let place = try Place.make("file")
        defer { place.stop() }
        try await Self.openGym(place.desk("a"))
        guard case .file(let url) = place.store.location else { return }
        try await place.desk("b").change { book in _ = try book.book(member: "marta", classID: "yoga", on: try Gym.day("2026-11-23"), now: try Gym.now("2026-11-20 10:00")) }
        // A roster that books someone who is not a member.
        let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "X-HORARI-MEMBER=marta", with: "X-HORARI-MEMBER=ghost")
        try Data(text.utf8).write(to: url)
        let line = text.components(separatedBy: "\r\n").firstIndex { $0.contains("RECURRENCE-ID") }
        let monday = try Gym.day("2026-11-23")
        let error = await failure { () async throws(SchedulingStoreError) in try await place.desk("c").book(member: "oriol", classID: "yoga", on: monday) }
        guard case .unreadableBook(let problems, let firstLine)? = error else {
            Issue.record("a book that cannot be read was changed: \(String(describing: error))")
            return
        }
        #expect(problems.first?.message.contains("ghost") == true, "\(problems)")
        #expect(firstLine != nil && line != nil)
        #expect(try String(contentsOf: url, encoding: .utf8) == text)
    }
}

/// What a call threw, or `nil` when it did not throw.
private func failure<T>(_ body: () async throws(SchedulingStoreError) -> T) async -> SchedulingStoreError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}
