import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit
import SchedulingICalendar
import Testing
import _SchedulingTestSupport

/// Issue 32, 1 and 2: a notice as an iTIP message (RFC 5546) and as iMIP
/// e-mail (RFC 6047); the sequences kept in the book's calendar.
@Suite("Invitations: iTIP and iMIP")
struct InvitationTests {
    let now = Date(timeIntervalSince1970: 1_795_165_200)  // 2026-11-20 10:00 in Madrid
    let gym = SchedulingNotice.Person(id: "gym", name: "Gym Sants", email: "desk@gym.example")
    let exporter = ICalendarExporter(options: .init(timestamp: Date(timeIntervalSince1970: 1_795_165_200)))

    func telling(_ book: inout SchedulingBook, _ change: (inout SchedulingBook) throws -> Void) rethrows -> ChangeNotices {
        let before = book
        try change(&book)
        return book.recordNotices(since: before)
    }

    /// The VEVENT's property names, and the text read back.
    func read(_ calendar: ICalendar) throws -> (calendar: ICalendar, text: String) {
        let text = exporter.export(calendar)
        return (try ICalendarImporter().importCalendar(from: text).calendar, text)
    }

    // RFC 5546 §3.2.2 (REQUEST) and §3.2.5 (CANCEL): the properties each
    // method's VEVENT must have ("1" and "1+" in its table).
    static let requestRequires = ["ATTENDEE", "DTSTAMP", "DTSTART", "ORGANIZER", "SEQUENCE", "SUMMARY", "UID"]
    static let cancelRequires = ["ATTENDEE", "DTSTAMP", "ORGANIZER", "SEQUENCE", "UID"]

    @Test("a session's REQUEST has what RFC 5546 §3.2.2 requires, the coach as ORGANIZER, the client with RSVP=TRUE, a VTIMEZONE, and not the coach's notes")
    func sessionRequest() throws {
        var book = try Gym.book()
        let told = try telling(&book) {
            try _ = $0.addSession(id: "s1", coach: "marc", client: "anna", startingAt: try Gym.now("2026-11-26 18:00"), duration: .minutes(45),
                                  location: "Sala 3", notes: "left knee", now: now)
        }
        let notice = try #require(told.notices.first)
        let (calendar, text) = try read(try #require(notice.iTIPCalendar(onClocks: book.timeZone, gym: gym)))
        #expect(calendar.method == "REQUEST")
        let event = try #require(calendar.items.first)
        #expect(calendar.items.count == 1 && event.uid == "s1" && event.sequence == 1 && event.location == "Sala 3")
        #expect(event.start == .zoned(try Gym.at("2026-11-26 18:00"), "Europe/Madrid"))
        for name in Self.requestRequires { #expect(text.contains("\n\(name)") || text.contains("\n\(name);") || text.contains("\n\(name):"), "\(name)") }
        #expect(text.contains("BEGIN:VTIMEZONE\r\nTZID:Europe/Madrid"))
        let organizer = event.properties.first { $0.name == "ORGANIZER" }
        #expect(organizer?.value == "mailto:marc@gym.example" && organizer?.parameter("CN") == "Marc Soler")
        let attendees = event.properties.filter { $0.name == "ATTENDEE" }
        #expect(attendees.count == 1 && attendees[0].value == "mailto:anna@example.com" && attendees[0].parameter("RSVP") == "TRUE")
        #expect(!text.contains("knee") && event.notes == nil)
    }

    @Test("a member's place is the occurrence's instance: its class's UID and RECURRENCE-ID, the gym as ORGANIZER, no other member named; a CANCEL has what §3.2.5 requires")
    func classPlace() throws {
        var book = try Gym.book()
        let date = try Gym.day("2026-12-02")
        _ = try telling(&book) { b in for m in ["oriol", "nuria"] { try _ = b.book(member: m, classID: "yoga", on: date, now: now) } }
        let told = try telling(&book) { try _ = $0.book(member: "marta", classID: "yoga", on: date, now: now) }
        let notice = try #require(told.notices.first)
        #expect(told.notices.count == 1)
        let (calendar, text) = try read(try #require(notice.iTIPCalendar(onClocks: book.timeZone, gym: gym)))
        let series = try #require(calendar.items.first)
        #expect(!series.hasMaster && series.overrides.count == 1)
        let instance = try #require(series.overrides.first)
        #expect(series.uid == "yoga" && instance.recurrenceID == .zoned(try Gym.at("2026-12-02 18:30"), "Europe/Madrid"))
        #expect(instance.item.sequence == 2 && instance.item.title == "Yoga" && instance.item.location == "Sala 2")
        let organizer = instance.item.properties.first { $0.name == "ORGANIZER" }
        #expect(organizer?.value == "mailto:desk@gym.example" && organizer?.parameter("CN") == "Gym Sants")
        #expect(!text.contains("oriol") && !text.contains("nuria") && !text.contains("Oriol"))
        #expect(notice.iTIPCalendar(onClocks: book.timeZone, gym: nil) == nil, "a class's message needs the gym to send it")

        let cancelled = try telling(&book) { try _ = $0.cancelBooking(member: "marta", classID: "yoga", on: date, now: now) }
        let (cancel, cancelText) = try read(try #require(cancelled.notices.first?.iTIPCalendar(onClocks: book.timeZone, gym: gym)))
        #expect(cancel.method == "CANCEL" && cancel.items.first?.overrides.first?.item.status == .cancelled)
        #expect(cancel.items.first?.overrides.first?.item.sequence == 3)
        for name in Self.cancelRequires { #expect(cancelText.contains("\n\(name)"), "\(name)") }
    }

    @Test("the sequences are kept in the book's calendar: an occurrence no one is on any more keeps its instance and number")
    func keptInCalendar() throws {
        var book = try Gym.book()
        let date = try Gym.day("2026-12-02")
        _ = try telling(&book) { try _ = $0.book(member: "marta", classID: "yoga", on: date, now: now) }
        _ = try telling(&book) { try _ = $0.cancelBooking(member: "marta", classID: "yoga", on: date, now: now) }
        _ = try telling(&book) { try _ = $0.addSession(id: "s1", coach: "marc", client: "anna", startingAt: try Gym.now("2026-11-26 18:00"), duration: .minutes(45), now: now) }
        var calendar = ICalendar(items: [])
        calendar.setScheduling(book)
        var reread = try ICalendarImporter().importCalendar(from: exporter.export(calendar)).calendar.schedulingBook()
        let told = try telling(&reread) { try _ = $0.book(member: "oriol", classID: "yoga", on: date, now: now) }
        #expect(told.notices.map(\.sequence) == [3])
        #expect(try reread.session("s1", coach: "marc").sequence == 1)
    }

    @Test("the e-mail: multipart/alternative of text and text/calendar;method, plus invite.ics; headers on one line whatever a name holds")
    func email() throws {
        var book = try Gym.book()
        let told = try telling(&book) {
            try _ = $0.addSession(id: "s1", coach: "marc", client: "anna", startingAt: try Gym.now("2026-11-26 18:00"), duration: .minutes(45), now: now)
        }
        let notice = try #require(told.notices.first)
        let ics = exporter.export(try #require(notice.iTIPCalendar(onClocks: book.timeZone, gym: gym)))
        let mail = try IMIPMessage(from: .init(name: "Marc Soler", email: "marc@gym.example"), to: .init(name: "Anna Puig", email: "anna@example.com"),
                                   subject: notice.emailSubject(onClocks: book.timeZone) + "\r\nBcc: everyone@example.com", text: notice.emailText(onClocks: book.timeZone, gym: gym),
                                   method: "REQUEST", calendar: ics, date: now)
        let text = String(decoding: mail.data(), as: UTF8.self)
        let headers = text.components(separatedBy: "\r\n\r\n")[0]
        #expect(!headers.contains("\r\nBcc:") && headers.contains("To: Anna Puig <anna@example.com>"))
        #expect(text.contains("Content-Type: multipart/alternative") && text.contains("Content-Type: text/calendar; charset=UTF-8; method=REQUEST"))
        #expect(text.contains("filename=\"invite.ics\"") && mail.fileName.hasPrefix("request-anna_example.com-") && mail.fileName.hasSuffix(".eml"))
        // The calendar part, decoded, is the iTIP text.
        let parts = text.components(separatedBy: "method=REQUEST\r\nContent-Transfer-Encoding: base64\r\n\r\n")
        let body = try #require(parts.last?.components(separatedBy: "\r\n--").first)
        #expect(String(decoding: try #require(Data(base64Encoded: body.replacingOccurrences(of: "\r\n", with: ""))), as: UTF8.self) == ics)

        // An address or a name with a line break in it is refused.
        for (name, address) in [("Anna", "anna@example.com\r\nBcc: x@example.com"), ("Anna\nBcc: x@example.com", "anna@example.com"), ("Anna", "anna"), ("Anna", "anna @example.com")] {
            #expect(throws: IMIPError.self) {
                _ = try IMIPMessage(from: .init(name: "Gym", email: "desk@gym.example"), to: .init(name: name, email: address), subject: "s", text: "t",
                                    method: "REQUEST", calendar: ics, date: now)
            }
        }
        #expect(throws: IMIPError.self) { _ = try IMIPMessage.Mailbox(parsing: "Gym <desk@gym.example>\nBcc: x@y.z") }
        #expect(try IMIPMessage.Mailbox(parsing: "\"Gym Sants\" <desk@gym.example>") == .init(name: "Gym Sants", email: "desk@gym.example"))
    }
}
