import CalendarCore
import CalendarScheduling
import Foundation
import Testing
import _SchedulingTestSupport

/// Issue 32, 1: the messages a change owes people, found by comparing the
/// book before and after it, each raising the SEQUENCE of what it is about.
@Suite("Who is told what")
struct NoticeTests {
    let now = Date(timeIntervalSince1970: 1_795_165_200)  // 2026-11-20 10:00 in Madrid

    /// Makes a change and returns what it owes.
    func telling(_ book: inout SchedulingBook, _ change: (inout SchedulingBook) throws -> Void) rethrows -> ChangeNotices {
        let before = book
        try change(&book)
        return book.recordNotices(since: before)
    }

    func summary(_ told: ChangeNotices) -> [String] {
        told.notices.map { "\($0.method.rawValue) \($0.recipient.email) \($0.recordID) \($0.sequence)" }
    }

    @Test("a member who books, cancels and books again is told REQUEST, CANCEL, REQUEST with a higher SEQUENCE each time; the promoted member is told too")
    func classPlaces() throws {
        var book = try Gym.book()
        try book.addClass(ClassSeries(id: "pilates", title: "Pilates", weekdays: [.tuesday], time: TimeOfDay(hour: 19), duration: .minutes(50), capacity: 1,
                                      location: "Sala 1", firstDate: try Gym.day("2026-11-01")))
        let date = try Gym.day("2026-12-01")
        var told = try telling(&book) { try _ = $0.book(member: "marta", classID: "pilates", on: date, now: now) }
        #expect(summary(told) == ["REQUEST marta@example.com pilates 1"])
        guard case .classPlace(let place)? = told.notices.first?.subject else { Issue.record("not a class place"); return }
        let seven = try Gym.at("2026-12-01 19:00")
        #expect(place.occurrence.start == seven && place.originalStart == seven && place.location == "Sala 1")
        #expect(place.occurrence.booked == 0, "a member is not told how full the class is")

        // Waiting is not told; the promotion is, with the place given up.
        told = try telling(&book) { try _ = $0.book(member: "oriol", classID: "pilates", on: date, now: now, whenFull: .joinWaitlist) }
        #expect(told.notices.isEmpty)
        told = try telling(&book) { try _ = $0.cancelBooking(member: "marta", classID: "pilates", on: date, now: now) }
        #expect(summary(told) == ["REQUEST oriol@example.com pilates 2", "CANCEL marta@example.com pilates 2"])
        #expect(told.notices.map(\.reason) == [.promoted, .cancelled])

        told = try telling(&book) { try _ = $0.cancelBooking(member: "oriol", classID: "pilates", on: date, now: now) }
        #expect(summary(told) == ["CANCEL oriol@example.com pilates 3"])
        // No one is on the roster now; the occurrence's number is kept, and the next member is told a higher one.
        told = try telling(&book) { try _ = $0.book(member: "marta", classID: "pilates", on: date, now: now) }
        #expect(summary(told) == ["REQUEST marta@example.com pilates 4"])
    }

    @Test("a moved occurrence tells its members the new time; a closure tells them why the place is gone")
    func movedAndClosed() throws {
        var book = try Gym.book()
        let date = try Gym.day("2026-12-23")
        for m in ["marta", "oriol"] { _ = try book.book(member: m, classID: "yoga", on: date, now: now) }
        _ = book.recordNotices(since: try Gym.book())
        var told = try telling(&book) { try _ = $0.moveOccurrence(classID: "yoga", on: date, to: try Gym.at("2026-12-23 19:30")) }
        #expect(summary(told) == ["REQUEST marta@example.com yoga 2", "REQUEST oriol@example.com yoga 2"])
        guard case .classPlace(let place)? = told.notices.first?.subject else { Issue.record("not a class place"); return }
        let (moved, original) = (try Gym.at("2026-12-23 19:30"), try Gym.at("2026-12-23 18:30"))
        #expect(place.occurrence.start == moved && place.originalStart == original)
        #expect(told.notices.allSatisfy { $0.reason == .changed })

        told = try telling(&book) { try _ = $0.close(try GymClosure(first: date, last: date, reason: "Christmas")) }
        #expect(summary(told) == ["CANCEL marta@example.com yoga 3", "CANCEL oriol@example.com yoga 3"])
        #expect(told.notices.allSatisfy { $0.reason == .closed(reason: "Christmas") })
    }

    @Test("a client is told of a session booked, moved and cancelled, never of one marked completed; a client with no address is listed, not told")
    func sessions() throws {
        var book = try Gym.book()
        var told = try telling(&book) {
            try _ = $0.addSession(id: "s1", coach: "marc", client: "anna", startingAt: try Gym.now("2026-11-26 18:00"), duration: .minutes(45), now: now)
        }
        #expect(summary(told) == ["REQUEST anna@example.com s1 1"])
        #expect(told.notices.first?.organizer == SchedulingNotice.Person(id: "marc", name: "Marc Soler", email: "marc@gym.example"))
        told = try telling(&book) { try _ = $0.moveSession("s1", coach: "marc", toInstant: try Gym.now("2026-11-27 10:00"), duration: nil, now: now) }
        #expect(summary(told) == ["REQUEST anna@example.com s1 2"] && told.notices.first?.reason == .changed)
        told = try telling(&book) { try _ = $0.editSession("s1", coach: "marc", location: nil, notes: "knee") }
        #expect(told.notices.isEmpty, "the coach's notes are the coach's")
        told = try telling(&book) { try _ = $0.setStatus(.cancelled, ofSession: "s1", coach: "marc", now: now) }
        #expect(summary(told) == ["CANCEL anna@example.com s1 3"])
        #expect(try book.session("s1", coach: "marc").sequence == 3)

        told = try telling(&book) {
            try _ = $0.addSession(id: "s2", coach: "laia", client: "rosa", startingAt: try Gym.now("2026-11-26 10:00"), duration: .minutes(45), now: now)
        }
        #expect(told.notices.isEmpty && told.untold == [UntoldChange(personID: "rosa", name: "Rosa Martí", method: .request, about: "s2")])
    }

    @Test("the sequences are kept in the book's JSON")
    func kept() throws {
        var book = try Gym.book()
        _ = try telling(&book) { try _ = $0.book(member: "marta", classID: "yoga", on: try Gym.day("2026-12-02"), now: now) }
        _ = try telling(&book) { try _ = $0.cancelBooking(member: "marta", classID: "yoga", on: try Gym.day("2026-12-02"), now: now) }
        _ = try telling(&book) {
            try _ = $0.addSession(id: "s1", coach: "marc", client: "anna", startingAt: try Gym.now("2026-11-26 18:00"), duration: .minutes(45), now: now)
        }
        let read = try JSONDecoder().decode(SchedulingBook.self, from: try JSONEncoder().encode(book))
        var again = read
        let told = try telling(&again) { try _ = $0.book(member: "oriol", classID: "yoga", on: try Gym.day("2026-12-02"), now: now) }
        #expect(summary(told) == ["REQUEST oriol@example.com yoga 3"])
        #expect(try read.session("s1", coach: "marc").sequence == 1)
    }

    @Test("a date closed and opened again, or a cancelled date: the class keeps the number its members were told, and one who books again is told a higher one, in the book and after its JSON")
    func closedAndOpenedAgain() throws {
        var book = try Gym.book()
        let date = try Gym.day("2026-12-23")
        _ = try telling(&book) { try _ = $0.book(member: "marta", classID: "yoga", on: date, now: now) }
        var told = try telling(&book) { try _ = $0.close(try GymClosure(first: date, last: date, reason: "Flood")) }
        #expect(summary(told) == ["CANCEL marta@example.com yoga 2"])
        // The closed date keeps no roster (its instance would be one of an
        // excluded date); the class holds its number.
        #expect(book.classTimetable.rosters.isEmpty && book.classTimetable.seriesSequence == ["yoga": 2])
        _ = try book.open(from: date, through: date)
        for var b in [book, try JSONDecoder().decode(SchedulingBook.self, from: try JSONEncoder().encode(book))] {
            told = try telling(&b) { try _ = $0.book(member: "marta", classID: "yoga", on: date, now: now) }
            #expect(summary(told) == ["REQUEST marta@example.com yoga 3"], "a SEQUENCE:1 after the CANCEL's 2 is out of date to her calendar")
        }

        // A cancelled occurrence: the same.
        let later = try Gym.day("2026-12-30")
        _ = try telling(&book) { try _ = $0.book(member: "oriol", classID: "yoga", on: later, now: now) }
        told = try telling(&book) { try _ = $0.cancelOccurrence(classID: "yoga", on: later) }
        #expect(summary(told) == ["CANCEL oriol@example.com yoga 4"] && book.classTimetable.seriesSequence == ["yoga": 4])
        // A class removed takes its number with it.
        _ = try book.deleteClass("yoga")
        #expect(book.classTimetable.seriesSequence.isEmpty)
    }

    @Test("an address or a name with a line break is refused when it is given, so no message's header can carry it")
    func addressesOnOneLine() throws {
        var book = try Gym.book()
        func field(_ e: SchedulingError?) -> SchedulingError.Field? {
            if case .invalid(let field, _)? = e { return field }
            return nil
        }
        #expect(field(refusal { try book.addMember(Member(id: "eve", name: "Eve", email: "eve@example.com\r\nBcc: all@example.com")) }) == .email)
        #expect(field(refusal { try book.addClient(Client(id: "eve", coachID: "marc", name: "Eve\nBcc: all@example.com")) }) == .name)
        var marc = try book.coach("marc")
        marc.email = "marc@gym.example\u{0B}"
        #expect(field(refusal { try book.updateCoach(marc) }) == .email)
        #expect(try book.member("marta").email == "marta@example.com")
        // A name whose RFC 2047 word stands for a line break, which a mail program decodes (issue 41, 12).
        #expect(field(refusal { try book.addMember(Member(id: "eve", name: "=?UTF-8?Q?Eve=0D=0ABcc:_all@example.com?=", email: "eve@example.com")) }) == .name)
        #expect(field(refusal { try book.addMember(Member(id: "eve", name: "=?utf-8?b?RXZlDQpCY2M6IGFsbEBleGFtcGxlLmNvbQ==?=", email: "eve@example.com")) }) == .name)
        // One that stands for plain text, or only looks like one, is a name like any other.
        try book.addMember(Member(id: "joan", name: "=?UTF-8?Q?Joan_Mir=C3=B3?=", email: "joan@example.com"))
        try book.addMember(Member(id: "q", name: "What =? is ?= this", email: "q@example.com"))
    }

    @Test("a class changed from a date on: its members there are told the new time; those of its earlier dates, kept as a class of their own, are told nothing")
    func classChangedFromADate() throws {
        var book = try Gym.book()
        _ = try book.book(member: "marta", classID: "yoga", on: try Gym.day("2026-11-25"), now: now)
        _ = try book.book(member: "oriol", classID: "yoga", on: try Gym.day("2026-12-02"), now: now)
        _ = book.recordNotices(since: try Gym.book())
        let told = try telling(&book) { try _ = $0.changeClass("yoga", from: try Gym.day("2026-11-30"), ClassChange(time: TimeOfDay(hour: 19))) }
        // The instance Oriol holds is named by its old time: it is cancelled, and the one at the new time sent.
        #expect(summary(told) == ["CANCEL oriol@example.com yoga 2", "REQUEST oriol@example.com yoga 2"])
        let starts = told.notices.compactMap { n -> String? in
            guard case .classPlace(let p) = n.subject else { return nil }
            return "\(p.originalStart.hour):\(p.occurrence.start.hour)"
        }
        #expect(starts == ["18:18", "19:19"] && told.notices.allSatisfy { $0.reason == .changed })
    }

    @Test("a class ended with members on later dates tells them, and the book keeps no number on a date the class no longer has")
    func classEnded() throws {
        var book = try Gym.book()
        _ = try telling(&book) { try _ = $0.book(member: "marta", classID: "yoga", on: try Gym.day("2026-12-09"), now: now) }
        let told = try telling(&book) { try _ = $0.endClass("yoga", on: try Gym.day("2026-12-02")) }
        #expect(summary(told) == ["CANCEL marta@example.com yoga 2"] && told.notices.first?.reason == .ended)
        #expect(book.classTimetable.rosters.isEmpty)
        let read = try JSONDecoder().decode(SchedulingBook.self, from: try JSONEncoder().encode(book))
        #expect(read.classTimetable.rosters.isEmpty)
    }

    @Test("with now, what ended before it is not told of: a member removed is told of the places to come, not of those gone by")
    func notThePast() throws {
        var book = try Gym.book()
        for d in ["2026-11-04", "2026-11-11", "2026-12-02"] { _ = try book.book(member: "marta", classID: "yoga", on: try Gym.day(d), now: try Gym.now("2026-11-01 10:00")) }
        _ = book.recordNotices(since: try Gym.book())
        let later = try Gym.now("2026-11-20 10:00")
        let told = try book.telling(now: later) { b in try _ = b.removeMember("marta", now: try Gym.now("2026-11-01 10:00")) }
        #expect(told.notices.notices.count <= 1)
        #expect(told.notices.notices.allSatisfy { n in
            if case .classPlace(let p) = n.subject { return p.occurrence.id.date == (try? Gym.day("2026-12-02")) }
            return false
        })
    }
}
