import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit
import SchedulingICalendar
import Testing
import _SchedulingTestSupport

/// Issue 41, 2: one booking, one UID, unique to its gym — in invitations,
/// replies, the public and the member's exports and her reminders — and
/// books written before keep the bare UIDs their members' calendars hold.
extension InvitationTests {
    @Test("two new books draw different UID domains, kept by the JSON and the calendar; an empty calendar is not marked as a book")
    func newBooksDrawTheirOwnDomain() throws {
        let zone = try ZoneRules.named(Gym.zone)
        let a = SchedulingBook(timeZone: zone), b = SchedulingBook(timeZone: zone)
        let domain = try #require(a.uidDomain)
        #expect(domain != b.uidDomain && UUID(uuidString: domain) != nil)
        var book = a
        try book.addMember(Member(id: "marta", name: "Marta Roig"))
        #expect(try JSONDecoder().decode(SchedulingBook.self, from: JSONEncoder().encode(book)).uidDomain == domain)
        var calendar = ICalendar(items: [])
        calendar.setScheduling(book)
        let text = exporter.export(calendar)
        #expect(text.contains("\r\nX-HORARI-UID-DOMAIN:\(domain)\r\n"))
        #expect(try ICalendarImporter().importCalendar(from: Data(text.utf8)).calendar.schedulingBook().uidDomain == domain)
        var plain = ICalendar(items: [])
        plain.setScheduling(a)
        #expect(plain.properties.allSatisfy { $0.name != "X-HORARI-UID-DOMAIN" }, "a calendar that holds no book")
        #expect(throws: SchedulingError.self) { try book.setUIDDomain("two words") }
        #expect(throws: SchedulingError.self) { try book.setUIDDomain("desk@gym.example") }
    }

    @Test("two gyms with a class of one ID send it under different UIDs; each takes the answer to its own invitation, not the other's")
    func twoGymsTwoUIDs() throws {
        var sants = try Gym.book(), gracia = try Gym.book()
        try gracia.setUIDDomain("gracia.example")
        let date = try Gym.day("2026-12-02")
        let fromSants = try telling(&sants) { try _ = $0.book(member: "marta", classID: "yoga", on: date, now: now) }.notices[0]
        let fromGracia = try telling(&gracia) { try _ = $0.book(member: "marta", classID: "yoga", on: date, now: now) }.notices[0]
        #expect(fromSants.uid == "yoga@gym.example" && fromGracia.uid == "yoga@gracia.example")
        let answer = try reply(to: fromSants, zone: sants.timeZone, "DECLINED")
        #expect(answer.uid == "yoga@gym.example")
        var other = gracia
        #expect(throws: ReplyError.self) { _ = try other.apply(answer, gym: gym, now: now) }
        #expect(try other.roster(classID: "yoga", on: date).confirmed == ["marta"])
        #expect(try sants.apply(answer, gym: gym, now: now).gaveUpPlace)
        // The public timetable sends each class under the same UID.
        let timetable = try sants.content(for: .publicTimetable).items.map(\.uid)
        #expect(timetable.sorted() == ["spin@gym.example", "yoga@gym.example"])
    }

    @Test("a book written before books had a UID domain keeps its bare UIDs, and answers to them are taken")
    func earlierBooksKeepBareUIDs() throws {
        var book = try Gym.book()
        var calendar = ICalendar(items: [])
        calendar.setScheduling(book)
        // The calendar as the previous release wrote it: no X-HORARI-UID-DOMAIN.
        let earlier = exporter.export(calendar).replacingOccurrences(of: "X-HORARI-UID-DOMAIN:gym.example\r\n", with: "")
        #expect(!earlier.contains("UID-DOMAIN"))
        book = try ICalendarImporter().importCalendar(from: Data(earlier.utf8)).calendar.schedulingBook()
        #expect(book.uidDomain == nil)
        let date = try Gym.day("2026-12-02")
        let told = try telling(&book) { try _ = $0.book(member: "marta", classID: "yoga", on: date, now: now) }.notices[0]
        #expect(told.uid == "yoga")
        let member = try book.memberSchedule(member: "marta").occurrences(from: try Gym.now("2026-12-01 00:00"), to: try Gym.now("2026-12-03 00:00"))
        #expect(member.map(\.id.uid) == ["yoga"] && member.map(\.start) == [.zoned(try Gym.at("2026-12-02 18:30"), Gym.zone)])
        #expect(try book.apply(try reply(to: told, zone: book.timeZone, "DECLINED"), gym: gym, now: now).gaveUpPlace)
        // Written again, it stays as it was: no domain is added behind its members' backs.
        calendar = ICalendar(items: [])
        calendar.setScheduling(book)
        #expect(!exporter.export(calendar).contains("UID-DOMAIN"))
    }
}
