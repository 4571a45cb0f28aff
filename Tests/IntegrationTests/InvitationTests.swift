import CalendarCore
import CalendarScheduling
import Foundation
import CalendarStore
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
        let (calendar, text) = try read(try #require(notice.iTIPCalendar(timeZone: book.timeZone, gym: gym)))
        #expect(calendar.method == "REQUEST")
        let event = try #require(calendar.items.first)
        #expect(calendar.items.count == 1 && event.uid == "s1@gym.example" && event.sequence == 1 && event.location == "Sala 3")
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
        let (calendar, text) = try read(try #require(notice.iTIPCalendar(timeZone: book.timeZone, gym: gym)))
        let series = try #require(calendar.items.first)
        #expect(!series.hasMaster && series.overrides.count == 1)
        let instance = try #require(series.overrides.first)
        #expect(series.uid == "yoga@gym.example" && instance.recurrenceID == .zoned(try Gym.at("2026-12-02 18:30"), "Europe/Madrid"))
        #expect(instance.item.sequence == 2 && instance.item.title == "Yoga" && instance.item.location == "Sala 2")
        let organizer = instance.item.properties.first { $0.name == "ORGANIZER" }
        #expect(organizer?.value == "mailto:desk@gym.example" && organizer?.parameter("CN") == "Gym Sants")
        #expect(!text.contains("oriol") && !text.contains("nuria") && !text.contains("Oriol"))
        #expect(notice.iTIPCalendar(timeZone: book.timeZone, gym: nil) == nil, "a class's message needs the gym to send it")

        let cancelled = try telling(&book) { try _ = $0.cancelBooking(member: "marta", classID: "yoga", on: date, now: now) }
        let (cancel, cancelText) = try read(try #require(cancelled.notices.first?.iTIPCalendar(timeZone: book.timeZone, gym: gym)))
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

    @Test("a closed date's number is the series' SEQUENCE in the calendar, with no instance on the excluded date; booked again after it opens, the REQUEST is numbered above the CANCEL")
    func closedDateInCalendar() throws {
        var book = try Gym.book()
        let date = try Gym.day("2026-12-23")
        _ = try telling(&book) { try _ = $0.book(member: "marta", classID: "yoga", on: date, now: now) }
        let closed = try telling(&book) { try _ = $0.close(try GymClosure(first: date, last: date, reason: "Flood")) }
        #expect(closed.notices.map(\.sequence) == [2])
        var calendar = ICalendar(items: [])
        calendar.setScheduling(book)
        let (read, text) = try read(calendar)
        let yoga = read.items.first { $0.uid == "yoga" }
        #expect(yoga?.sequence == 2)
        #expect(yoga?.overrides.isEmpty == true, "an instance of an excluded date is one RFC 5545 leaves undecided; calcurse shows it")
        #expect(text.contains("EXDATE;TZID=Europe/Madrid:20261223T183000"))
        var reread = try read.schedulingBook()
        #expect(reread == book)
        _ = try reread.open(from: date, through: date)
        let told = try telling(&reread) { try _ = $0.book(member: "marta", classID: "yoga", on: date, now: now) }
        #expect(told.notices.map(\.sequence) == [3])
    }

    @Test("the e-mail: multipart/alternative of text and text/calendar;method, plus invite.ics; headers on one line whatever a name holds")
    func email() throws {
        var book = try Gym.book()
        let told = try telling(&book) {
            try _ = $0.addSession(id: "s1", coach: "marc", client: "anna", startingAt: try Gym.now("2026-11-26 18:00"), duration: .minutes(45), now: now)
        }
        let notice = try #require(told.notices.first)
        let ics = exporter.export(try #require(notice.iTIPCalendar(timeZone: book.timeZone, gym: gym)))
        let mail = try IMIPMessage(from: .init(name: "Marc Soler", email: "marc@gym.example"), to: .init(name: "Anna Puig", email: "anna@example.com"),
                                   subject: notice.emailSubject(timeZone: book.timeZone) + "\r\nBcc: everyone@example.com", text: notice.emailText(timeZone: book.timeZone, gym: gym),
                                   method: "REQUEST", calendar: ics, date: now)
        let text = String(decoding: mail.data(), as: UTF8.self)
        let headers = text.components(separatedBy: "\r\n\r\n")[0]
        #expect(!headers.contains("\r\nBcc:") && headers.contains("To: Anna Puig <anna@example.com>"))
        // Issue 41, 12: text typed as an RFC 2047 word is written as words of our own, so a
        // reader shows it as typed; a name whose word stands for a line break is refused.
        let typed = try IMIPMessage(from: .init(name: "=?UTF-8?Q?Gym?=", email: "desk@gym.example"), to: .init(name: "Anna Puig", email: "anna@example.com"),
                                    subject: "Booked: =?UTF-8?Q?Yoga=0D=0ABcc:_everyone@example.com?=", text: "t", method: "REQUEST", calendar: ics, date: now)
        let typedHeaders = String(decoding: typed.data(), as: UTF8.self).components(separatedBy: "\r\n\r\n")[0]
        #expect(!typedHeaders.contains("Q?Yoga") && !typedHeaders.contains("Q?Gym") && !typedHeaders.contains("\r\nBcc:"), "\(typedHeaders)")
        let subjectLine = try #require(typedHeaders.components(separatedBy: "\r\nDate:").first?.components(separatedBy: "Subject: ").last)
        #expect(EncodedWords.decoded(subjectLine.replacingOccurrences(of: "?=\r\n =?", with: "?==?")) == "Booked: =?UTF-8?Q?Yoga=0D=0ABcc:_everyone@example.com?=")
        #expect(throws: IMIPError.self) {
            _ = try IMIPMessage.Mailbox(parsing: "=?UTF-8?Q?Gym=0D=0ABcc:_x@y.z?= <desk@gym.example>")
        }
        #expect(text.contains("Content-Type: multipart/alternative") && text.contains("Content-Type: text/calendar; charset=UTF-8; method=REQUEST"))
        #expect(text.contains("filename=\"invite.ics\"") && mail.fileName.hasPrefix("request-anna_example.com-") && mail.fileName.hasSuffix(".eml"))
        // A valid address of 247 characters (64 before the @): a file name a disk takes, and its own (issue 41, 13).
        let long = String(repeating: "a", count: 64) + "@" + String(repeating: "b", count: 60) + "." + String(repeating: "c", count: 60) + "." + String(repeating: "d", count: 52) + ".example"
        let longer = long.replacingOccurrences(of: ".example", with: ".exampl2")
        #expect(long.count == 247)
        let names = try [long, longer].map { address in
            try IMIPMessage(from: .init(name: "Marc Soler", email: "marc@gym.example"), to: .init(name: "A", email: address), subject: "s", text: "t",
                            method: "REQUEST", calendar: ics, date: now).fileName
        }
        #expect(names.allSatisfy { $0.utf8.count <= 140 } && names[0] != names[1], "\(names)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("horari-long-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try mail.data().write(to: folder.appendingPathComponent(names[0]))
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
        // A name with a comma, brackets or quotes stays one recipient.
        for (name, header) in [("Puig, Marta", "To: \"Puig, Marta\" <marta@example.com>"), ("Ann <ann@evil.example>", "To: \"Ann <ann@evil.example>\" <marta@example.com>"),
                               ("Say \"hi\"", "To: \"Say \\\"hi\\\"\" <marta@example.com>"), ("Núria, Pons", "To: =?UTF-8?B?TsO6cmlhLCBQb25z?= <marta@example.com>")] {
            let m = try IMIPMessage(from: .init(name: "Gym", email: "desk@gym.example"), to: .init(name: name, email: "marta@example.com"), subject: "s", text: "t",
                                    method: "REQUEST", calendar: ics, date: now)
            #expect(String(decoding: m.data(), as: UTF8.self).contains("\r\n" + header + "\r\n"), "\(name)")
        }
        #expect(try IMIPMessage.Mailbox(parsing: "\"Gym Sants\" <desk@gym.example>") == .init(name: "Gym Sants", email: "desk@gym.example"))
    }

    // MARK: Replies (issue 32, 3)

    /// The reply a calendar program sends to an invitation (RFC 5546 §4.2.3's
    /// shape: the method REPLY, the event's UID, RECURRENCE-ID and SEQUENCE,
    /// the organizer, the one attendee with their PARTSTAT), made from the
    /// invitation's own text as Thunderbird and Apple Calendar make theirs.
    func reply(to notice: SchedulingNotice, zone: ZoneRules, _ partstat: String, edit: (String) -> String = { $0 }) throws -> SchedulingReply {
        let text = exporter.export(try #require(notice.iTIPCalendar(timeZone: zone, gym: gym)))
            .replacingOccurrences(of: "METHOD:REQUEST", with: "METHOD:REPLY")
            .replacingOccurrences(of: "PARTSTAT=NEEDS-ACTION", with: "PARTSTAT=\(partstat)")
            .replacingOccurrences(of: ";RSVP=TRUE", with: "")
        return try SchedulingReply(reading: try ICalendarImporter().importCalendar(from: edit(text)).calendar)
    }

    @Test("a member's DECLINED gives up the place, and the first waiting is invited; a client's is recorded on the session and kept in the calendar")
    func declines() throws {
        var book = try Gym.book()
        let date = try Gym.day("2026-12-02")
        var invitations: [SchedulingNotice] = []
        for m in ["marta", "oriol", "nuria"] { invitations += try telling(&book) { try _ = $0.book(member: m, classID: "yoga", on: date, now: now) }.notices }
        _ = try telling(&book) { try $0.addMember(Member(id: "quim", name: "Quim Puig", email: "quim@example.com")) }
        _ = try telling(&book) { try _ = $0.book(member: "quim", classID: "yoga", on: date, now: now, whenFull: .joinWaitlist) }
        // Marta answers her invitation (sequence 1) after two others booked (the occurrence is at 3): her answer still counts.
        let answer = try reply(to: invitations[0], zone: book.timeZone, "DECLINED")
        #expect(answer.attendee == "marta@example.com" && answer.answer == .declined && answer.sequence == 1)
        let told = try book.telling { b throws(ReplyError) in try b.apply(answer, gym: gym, now: now) }
        #expect(told.result.gaveUpPlace && told.result.promoted == "quim" && told.result.personID == "marta")
        #expect(told.notices.notices.map { "\($0.method.rawValue) \($0.recipient.id)" }.contains("REQUEST quim"))
        #expect(try book.roster(classID: "yoga", on: date).confirmed == ["oriol", "nuria", "quim"])

        let session = try telling(&book) {
            try _ = $0.addSession(id: "s1", coach: "marc", client: "anna", startingAt: try Gym.now("2026-11-26 18:00"), duration: .minutes(45), now: now)
        }.notices[0]
        _ = try book.apply(try reply(to: session, zone: book.timeZone, "DECLINED"), gym: gym, now: now)
        #expect(try book.session("s1", coach: "marc").answer == .declined)
        var calendar = ICalendar(items: [])
        calendar.setScheduling(book)
        let reread = try ICalendarImporter().importCalendar(from: exporter.export(calendar)).calendar.schedulingBook()
        #expect(try reread.session("s1", coach: "marc").answer == .declined)
        // Moved, the client is asked again: the old answer no longer holds.
        _ = try telling(&book) { try _ = $0.moveSession("s1", coach: "marc", toInstant: try Gym.now("2026-11-27 10:00"), duration: nil, now: now) }
        #expect(try book.session("s1", coach: "marc").answer == nil)
    }

    @Test("two answers to one invitation read in the wrong order: the later one (DTSTAMP) stands, also after the calendar and the JSON; a new invitation takes any answer")
    func laterAnswerStands() throws {
        var book = try Gym.book()
        // The desk reads them on the 22nd, after both were made.
        let read = Date(timeIntervalSince1970: 1_795_338_000)
        let session = try telling(&book) {
            try _ = $0.addSession(id: "s1", coach: "marc", client: "anna", startingAt: try Gym.now("2026-11-26 18:00"), duration: .minutes(45), now: now)
        }.notices[0]
        // Anna accepted at 09:00, then declined at 11:00; the desk imports the decline first.
        func answer(_ partstat: String, at stamp: String) throws -> SchedulingReply {
            try reply(to: session, zone: book.timeZone, partstat) { text in
                text.replacingOccurrences(of: "DTSTAMP:20261120T090000Z", with: "DTSTAMP:\(stamp)")
            }
        }
        let declined = try answer("DECLINED", at: "20261121T110000Z"), accepted = try answer("ACCEPTED", at: "20261121T090000Z")
        #expect(declined.stamp == Date(timeIntervalSince1970: 1_795_258_800) && accepted.stamp == Date(timeIntervalSince1970: 1_795_251_600))
        _ = try book.apply(declined, gym: gym, now: read)
        var calendar = ICalendar(items: [])
        calendar.setScheduling(book)
        let fromCalendar = try ICalendarImporter().importCalendar(from: exporter.export(calendar)).calendar.schedulingBook()
        let fromJSON = try JSONDecoder().decode(SchedulingBook.self, from: try JSONEncoder().encode(book))
        for var b in [book, fromCalendar, fromJSON] {
            #expect(throws: ReplyError.olderAnswer(stamped: try #require(accepted.stamp), recorded: try #require(declined.stamp))) {
                _ = try b.apply(accepted, gym: gym, now: read)
            }
            #expect(try b.session("s1", coach: "marc").answer == .declined)
        }
        // Read in the order they were made, the later one replaces the earlier.
        var inOrder = try Gym.book()
        _ = try telling(&inOrder) {
            try _ = $0.addSession(id: "s1", coach: "marc", client: "anna", startingAt: try Gym.now("2026-11-26 18:00"), duration: .minutes(45), now: now)
        }
        _ = try inOrder.apply(accepted, gym: gym, now: read)
        _ = try inOrder.apply(declined, gym: gym, now: read)
        #expect(try inOrder.session("s1", coach: "marc").answer == .declined)
        // Moved, Anna is asked again: her answer to the new time is taken whatever it is stamped.
        _ = try telling(&book) { try _ = $0.moveSession("s1", coach: "marc", toInstant: try Gym.now("2026-11-27 10:00"), duration: nil, now: now) }
        #expect(try book.session("s1", coach: "marc").answeredAt == nil)
    }

    @Test("a reply stamped in the future, or with no readable DTSTAMP, is refused and changes nothing; a real later answer is still taken (issue 41, 10)")
    func stampsThatCannotBeTrusted() throws {
        var book = try Gym.book()
        let session = try telling(&book) {
            try _ = $0.addSession(id: "s1", coach: "marc", client: "anna", startingAt: try Gym.now("2026-11-26 18:00"), duration: .minutes(45), now: now)
        }.notices[0]
        func answer(_ partstat: String, stamp: String?) throws -> SchedulingReply {
            try reply(to: session, zone: book.timeZone, partstat) { text in
                text.replacingOccurrences(of: "DTSTAMP:20261120T090000Z\r\n", with: stamp.map { "DTSTAMP:\($0)\r\n" } ?? "")
            }
        }
        let before = book
        // The year 9999: it would outrank every real answer after it.
        let forged = try answer("DECLINED", stamp: "99991231T235959Z")
        #expect(throws: ReplyError.stampInFuture(stamped: try #require(forged.stamp), now: now)) { _ = try book.apply(forged, gym: gym, now: now) }
        #expect(book == before)
        // Within the skew (a phone's clock ten minutes fast) it is taken.
        let fast = try answer("ACCEPTED", stamp: "20261120T091000Z")
        _ = try book.apply(fast, gym: gym, now: now)
        #expect(try book.session("s1", coach: "marc").answer == .accepted)
        // No DTSTAMP, or one that is no date-time: refused when read.
        #expect(throws: ReplyError.noStamp) { try answer("DECLINED", stamp: nil) }
        #expect(throws: ReplyError.noStamp) { try answer("DECLINED", stamp: "garbage") }
        #expect(ReplyError.noStamp.errorCode == 16 && ReplyError.stampInFuture(stamped: now, now: now).errorCode == 17)
        #expect(try book.session("s1", coach: "marc").answer == .accepted)
    }

    @Test("a reply that is not one, names several, is forged, is older, or comes from someone not invited is refused with a line, and nothing changes")
    func refusedReplies() throws {
        var book = try Gym.book()
        let date = try Gym.day("2026-12-02")
        let invited = try telling(&book) { try _ = $0.book(member: "marta", classID: "yoga", on: date, now: now) }.notices[0]
        let session = try telling(&book) {
            try _ = $0.addSession(id: "s1", coach: "marc", client: "anna", startingAt: try Gym.now("2026-11-26 18:00"), duration: .minutes(45), now: now)
        }.notices[0]
        _ = try telling(&book) { try _ = $0.moveSession("s1", coach: "marc", toInstant: try Gym.now("2026-11-27 10:00"), duration: nil, now: now) }
        _ = try telling(&book) { try _ = $0.book(member: "oriol", classID: "yoga", on: date, now: now) }
        _ = try telling(&book) { try _ = $0.moveOccurrence(classID: "yoga", on: date, to: try Gym.at("2026-12-02 19:30")) }
        let before = book
        func refusal(_ make: () throws -> SchedulingReply, gym: SchedulingNotice.Person? = nil) -> ReplyError? {
            do {
                var b = book
                _ = try b.apply(try make(), gym: gym ?? self.gym, now: now)
            } catch let e as ReplyError { return e } catch { Issue.record("\(error)") }
            return nil
        }
        #expect(refusal { try reply(to: invited, zone: book.timeZone, "DECLINED") { $0.replacingOccurrences(of: "METHOD:REPLY", with: "METHOD:COUNTER") } } == .notSupported("COUNTER"))
        #expect(refusal { try reply(to: invited, zone: book.timeZone, "DECLINED") { $0.replacingOccurrences(of: "METHOD:REPLY", with: "METHOD:REFRESH") } } == .notSupported("REFRESH"))
        #expect(refusal { try reply(to: invited, zone: book.timeZone, "DECLINED") { $0.replacingOccurrences(of: "ATTENDEE;", with: "X-GONE;") } } == .attendees(0))
        #expect(refusal {
            try reply(to: invited, zone: book.timeZone, "DECLINED") { $0.replacingOccurrences(of: "ORGANIZER;", with: "ATTENDEE;PARTSTAT=ACCEPTED:mailto:oriol@example.com\r\nORGANIZER;") }
        } == .attendees(2))
        #expect(refusal { try reply(to: invited, zone: book.timeZone, "DECLINED") { $0.replacingOccurrences(of: "mailto:desk@gym.example", with: "mailto:desk@evil.example") } }
                == .otherOrganizer(named: "desk@evil.example", expected: "desk@gym.example"))
        #expect(refusal { try reply(to: invited, zone: book.timeZone, "DECLINED") { $0.replacingOccurrences(of: "mailto:marta@example.com", with: "mailto:stranger@example.com") } }
                == .notInvited("stranger@example.com", to: "Yoga on 2026-12-02"))
        #expect(refusal { try reply(to: session, zone: book.timeZone, "DECLINED") } == .olderSequence(1, current: 2))
        // Marta's answer to her booking, after the class moved: she was told 3 since.
        #expect(refusal { try reply(to: invited, zone: book.timeZone, "DECLINED") } == .olderSequence(1, current: 3))
        #expect(refusal { try reply(to: invited, zone: book.timeZone, "DECLINED") { $0.replacingOccurrences(of: "UID:yoga", with: "UID:boxing") } }?.description.hasPrefix("no class occurrence boxing") == true)
        #expect(refusal { try reply(to: invited, zone: book.timeZone, "NEEDS-ACTION") } == .noAnswer("NEEDS-ACTION"))
        #expect(throws: ReplyError.notAReply("REQUEST")) { _ = try reply(to: invited, zone: book.timeZone, "DECLINED") { $0.replacingOccurrences(of: "METHOD:REPLY", with: "METHOD:REQUEST") } }
        #expect(book.backupContent() == before.backupContent())
    }

    @Test("a reply about another instance (another time that day, a date, this and every later one), or about a session done or over, is refused; the invitation's own instance is taken (issue 41, 11)")
    func wrongInstances() throws {
        var book = try Gym.book()
        let date = try Gym.day("2026-12-02")
        let invited = try telling(&book) { try _ = $0.book(member: "marta", classID: "yoga", on: date, now: now) }.notices[0]
        let text = exporter.export(try #require(invited.iTIPCalendar(timeZone: book.timeZone, gym: gym)))
        let line = try #require(text.components(separatedBy: "\r\n").first { $0.hasPrefix("RECURRENCE-ID") })
        #expect(line.hasPrefix("RECURRENCE-ID;TZID=Europe/Madrid:20261202T"), "\(line)")
        func answer(_ recurrenceID: String) throws -> SchedulingReply {
            try reply(to: invited, zone: book.timeZone, "DECLINED") { $0.replacingOccurrences(of: line, with: recurrenceID) }
        }
        let before = book
        for other in ["RECURRENCE-ID;TZID=Europe/Madrid:20261202T120000", "RECURRENCE-ID;VALUE=DATE:20261202", "RECURRENCE-ID:20261202T235900Z"] {
            var b = book
            let wrong = try answer(other)
            do {
                _ = try b.apply(wrong, gym: gym, now: now)
                Issue.record("a reply with \(other) was taken")
            } catch {
                #expect(error.errorCode == 8, "\(other): \(error)")
            }
        }
        #expect(throws: ReplyError.thisAndFuture) { _ = try answer(line.replacingOccurrences(of: "RECURRENCE-ID;", with: "RECURRENCE-ID;RANGE=THISANDFUTURE;")) }
        #expect(ReplyError.thisAndFuture.errorCode == 18)
        #expect(book == before)
        // The same instant written in UTC is the same instance: taken.
        let wall = String(line.suffix(15))
        let instant = try CalendarTime(icalValue: wall, tzid: "Europe/Madrid").instant(floatingZone: .utc)
        let utc = CalendarTime.utc(LocalDateTime(localSeconds: Int64(instant.timeIntervalSince1970))).icalValue
        var b = book
        #expect(try b.apply(try answer("RECURRENCE-ID:\(utc)"), gym: gym, now: now).gaveUpPlace)

        // A session: answered while it is to come; done, or over, refused.
        let session = try telling(&book) {
            try _ = $0.addSession(id: "s1", coach: "marc", client: "anna", startingAt: try Gym.now("2026-11-26 18:00"), duration: .minutes(45), now: now)
        }.notices[0]
        let after = try Gym.now("2026-11-26 19:00")
        var over = book
        #expect(throws: ReplyError.self) { _ = try over.apply(try reply(to: session, zone: book.timeZone, "DECLINED"), gym: gym, now: after) }
        _ = try over.setStatus(.completed, ofSession: "s1", coach: "marc", now: after)
        #expect(throws: ReplyError.sessionOver("s1", status: "completed")) { _ = try over.apply(try reply(to: session, zone: book.timeZone, "DECLINED"), gym: gym, now: now) }
        #expect(try over.session("s1", coach: "marc").answer == nil)
        _ = try book.apply(try reply(to: session, zone: book.timeZone, "TENTATIVE"), gym: gym, now: now)
        #expect(try book.session("s1", coach: "marc").answer == .tentative)
        // A session added without telling anyone (its SEQUENCE 0): a reply about it comes from someone never invited.
        var untold = try Gym.book()
        try untold.addSession(id: "s1", coach: "marc", client: "anna", startingAt: try Gym.now("2026-11-26 18:00"), duration: .minutes(45), now: now)
        let forged = try reply(to: session, zone: book.timeZone, "DECLINED") { $0.replacingOccurrences(of: "SEQUENCE:1", with: "SEQUENCE:0") }
        #expect(throws: ReplyError.notInvited("anna@example.com", to: "session ‘s1’")) { _ = try untold.apply(forged, gym: gym, now: now) }
        #expect(try untold.session("s1", coach: "marc").answer == nil)
    }

    @Test("a class changed from a date on keeps its ID for every date: booked, cancelled and answered as yoga before the change too; its messages keep the UID yoga; the calendar keeps the part's class (issue 41, 1)")
    func classKeepsItsID() throws {
        var book = try Gym.book()
        let monday = try Gym.day("2026-11-23"), wednesday = try Gym.day("2026-11-25")
        let first = try telling(&book) { try _ = $0.book(member: "marta", classID: "yoga", on: monday, now: now) }.notices[0]
        let report = try book.changeClass("yoga", from: try Gym.day("2026-12-01"), ClassChange(time: TimeOfDay(hour: 19)))
        #expect(try report.earlierPart == "yoga-until-20261130" && book.classSeries("yoga-until-20261130").partOf == "yoga")
        // Booked by the class's own ID on a date before the change: the earlier part's occurrence.
        let booked = try telling(&book) { try _ = $0.book(member: "oriol", classID: "yoga", on: wednesday, now: now) }
        #expect(try book.roster(classID: "yoga", on: wednesday).confirmed == ["oriol"])
        #expect(try book.occurrence(classID: "yoga", on: wednesday).id.classID == "yoga-until-20261130")
        #expect(booked.notices.map(\.uid) == ["yoga@gym.example"])
        // A later message about an earlier booking has the UID its first invitation had.
        let cancelled = try telling(&book) { try _ = $0.cancelBooking(member: "marta", classID: "yoga", on: monday, now: now) }
        #expect(first.uid == "yoga@gym.example" && cancelled.notices.map(\.uid) == ["yoga@gym.example"])
        // Oriol's answer to his invitation (UID yoga) is his place's.
        let answer = try book.apply(try reply(to: booked.notices[0], zone: book.timeZone, "DECLINED"), gym: gym, now: now)
        #expect(try answer.gaveUpPlace && book.roster(classID: "yoga", on: wednesday).confirmed.isEmpty)
        // A date neither meets is still refused, naming the class.
        #expect(throws: SchedulingError.self) { _ = try book.occurrence(classID: "yoga", on: try Gym.day("2026-11-24")) }
        // The part's class is kept in the calendar and the JSON.
        var calendar = ICalendar(items: [])
        calendar.setScheduling(book)
        let reread = try ICalendarImporter().importCalendar(from: exporter.export(calendar)).calendar.schedulingBook()
        let fromJSON = try JSONDecoder().decode(SchedulingBook.self, from: try JSONEncoder().encode(book))
        #expect(try reread.classSeries("yoga-until-20261130").partOf == "yoga")
        #expect(try fromJSON.classSeries("yoga-until-20261130").partOf == "yoga")
    }

    /// The book written as `gym.ics` in `folder`, and a store on that file whose clock reads `now`.
    func fileStore(of book: SchedulingBook, in folder: URL, now: Date) throws -> (store: SchedulingStore, file: URL) {
        var calendar = ICalendar(items: [])
        calendar.setScheduling(book)
        let file = folder.appendingPathComponent("gym.ics")
        try Data(exporter.export(calendar).utf8).write(to: file)
        return (SchedulingStore(CalendarStore(try CalendarLocation(file.path)), settings: .init(now: { _ in now })), file)
    }

    @Test("a member's TENTATIVE, through a store, changes nothing in the calendar file: no record is written again with a new DTSTAMP (issue 41, 11)")
    func tentativeWritesNothing() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("horari-tentative-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var book = try Gym.book()
        let date = try Gym.day("2026-12-02")
        let invited = try telling(&book) { try _ = $0.book(member: "marta", classID: "yoga", on: date, now: now) }.notices[0]
        let (store, file) = try fileStore(of: book, in: folder, now: now.addingTimeInterval(3600))
        let written = try Data(contentsOf: file)
        let told = try await store.apply(try reply(to: invited, zone: book.timeZone, "TENTATIVE"), gym: gym)
        #expect(told.result.answer == .tentative && told.notices.notices.isEmpty)
        #expect(try Data(contentsOf: file) == written)
    }

    @Test("through a store, the one who declined is not sent a cancellation of their own answer; the promoted member is invited")
    func throughAStore() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("horari-reply-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var book = try Gym.book()
        try book.addClass(ClassSeries(id: "pilates", title: "Pilates", weekdays: [.tuesday], time: TimeOfDay(hour: 19), duration: .minutes(50), capacity: 1,
                                      firstDate: try Gym.day("2026-11-01")))
        let date = try Gym.day("2026-12-01")
        let invited = try telling(&book) { try _ = $0.book(member: "marta", classID: "pilates", on: date, now: now) }.notices[0]
        _ = try book.book(member: "oriol", classID: "pilates", on: date, now: now, whenFull: .joinWaitlist)
        let (store, _) = try fileStore(of: book, in: folder, now: now)
        let told = try await store.apply(try reply(to: invited, zone: book.timeZone, "DECLINED"), gym: gym)
        #expect(told.notices.notices.map { "\($0.method.rawValue) \($0.recipient.id) \($0.sequence)" } == ["REQUEST oriol 2"])
        #expect(try await store.load().roster(classID: "pilates", on: date).confirmed == ["oriol"])
    }

    // MARK: RFC 5546's own examples (§4.2)

    /// §4.2.1, "A Group Event Request" (its DTEND, 19970701T2100000Z in the
    /// RFC, has one 0 too many; corrected here, as the erratum-free copies have it).
    static let rfcRequest = [
        "BEGIN:VCALENDAR", "PRODID:-//Example/ExampleCalendarClient//EN", "METHOD:REQUEST", "VERSION:2.0", "BEGIN:VEVENT",
        "ORGANIZER:mailto:a@example.com", "ATTENDEE;ROLE=CHAIR;PARTSTAT=ACCEPTED;CN=A:mailto:a@example.com",
        "ATTENDEE;RSVP=TRUE;CUTYPE=INDIVIDUAL;CN=B:mailto:b@example.com", "ATTENDEE;RSVP=TRUE;CUTYPE=INDIVIDUAL;CN=C:mailto:c@example.com",
        "ATTENDEE;RSVP=TRUE;CUTYPE=INDIVIDUAL;CN=Hal:mailto:d@example.com", "ATTENDEE;RSVP=FALSE;CUTYPE=ROOM:conf_big@example.com",
        "ATTENDEE;ROLE=NON-PARTICIPANT;RSVP=FALSE:mailto:e@example.com", "DTSTAMP:19970611T190000Z", "DTSTART:19970701T200000Z",
        "DTEND:19970701T210000Z", "SUMMARY:Conference", "UID:calsrv.example.com-873970198738777@example.com", "SEQUENCE:0",
        "STATUS:CONFIRMED", "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\r\n")

    /// §4.2.2, "Reply to a Group Event Request".
    static let rfcReply = [
        "BEGIN:VCALENDAR", "PRODID:-//Example/ExampleCalendarClient//EN", "METHOD:REPLY", "VERSION:2.0", "BEGIN:VEVENT",
        "ATTENDEE;PARTSTAT=ACCEPTED:mailto:b@example.com", "ORGANIZER:mailto:a@example.com",
        "UID:calsrv.example.com-873970198738777@example.com", "SEQUENCE:0", "REQUEST-STATUS:2.0;Success", "DTSTAMP:19970612T190000Z",
        "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\r\n")

    /// The cancellation of that event (§4.2, "Cancel a Group Event").
    static let rfcCancel = [
        "BEGIN:VCALENDAR", "PRODID:-//Example/ExampleCalendarClient//EN", "METHOD:CANCEL", "VERSION:2.0", "BEGIN:VEVENT",
        "ORGANIZER:mailto:a@example.com", "ATTENDEE;CUTYPE=INDIVIDUAL:mailto:b@example.com", "COMMENT:Mr. Big cannot attend.",
        "UID:calsrv.example.com-873970198738777@example.com", "SEQUENCE:1", "STATUS:CANCELLED", "DTSTAMP:19970613T190000Z",
        "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\r\n")

    /// The property names of a message's one event, DURATION read as DTEND (either may end an event).
    func shape(_ text: String) throws -> (method: String?, names: Set<String>) {
        let calendar = try ICalendarImporter().importCalendar(from: text).calendar
        // An event with no DTSTART (the RFC's CANCEL, as an iTIP message may) is kept as written.
        if calendar.items.isEmpty, let kept = calendar.components.first(where: { $0.name == "VEVENT" }) {
            return (calendar.method, Set(kept.properties.map(\.name)).subtracting(["COMMENT", "REQUEST-STATUS"]))
        }
        let event = try #require(calendar.items.first.map { $0.hasMaster ? $0 : $0.overrides[0].item })
        var names = Set(event.properties.map(\.name)).union(["UID", "DTSTAMP", "DTSTART", "SEQUENCE"])
        if event.title.isEmpty == false { names.insert("SUMMARY") }
        if event.status != nil { names.insert("STATUS") }
        if event.end != nil { names.insert("DTEND") }
        // What the example says for the whole group or the meeting's record, not the message's shape.
        names.subtract(["COMMENT", "REQUEST-STATUS"])
        return (calendar.method, names)
    }

    @Test("a session's REQUEST and CANCEL have the shape of RFC 5546 §4.2's own examples, and its §4.2.2 REPLY is read and applied")
    func rfcExamples() throws {
        var book = SchedulingBook(timeZone: try .named("Europe/Madrid"))
        try book.addCoach(Coach(id: "a", name: "A", email: "a@example.com"))
        try book.addClient(Client(id: "b", coachID: "a", name: "B", email: "b@example.com"))
        let uid = "calsrv.example.com-873970198738777@example.com"
        let requested = try telling(&book) {
            try _ = $0.addSession(id: uid, coach: "a", client: "b", startingAt: Date(timeIntervalSince1970: 1_795_700_000), duration: .minutes(60), now: now)
        }
        let request = exporter.export(try #require(requested.notices.first?.iTIPCalendar(timeZone: book.timeZone, gym: nil)))
        let (ours, example) = (try shape(request), try shape(Self.rfcRequest))
        #expect(ours.method == example.method && example.names.isSubset(of: ours.names), "missing: \(example.names.subtracting(ours.names))")

        // The RFC's answer to that request: B accepts, at SEQUENCE 0 — older than the 1 B was sent here.
        let reply = try SchedulingReply(reading: try ICalendarImporter().importCalendar(from: Self.rfcReply).calendar)
        #expect(reply.uid == uid && reply.sequence == 0 && reply.attendee == "b@example.com" && reply.answer == .accepted && reply.organizer == "a@example.com")
        var b = book
        #expect(throws: ReplyError.olderSequence(0, current: 1)) { _ = try b.apply(reply, gym: nil, now: now) }
        var current = reply
        current.sequence = 1
        let outcome = try book.apply(current, gym: nil, now: now)
        let answered = try book.session(uid, coach: "a").answer
        #expect(outcome.personID == "b" && outcome.answer == .accepted && answered == .accepted)

        let cancelled = try telling(&book) { try _ = $0.setStatus(.cancelled, ofSession: uid, coach: "a", now: now) }
        let cancel = exporter.export(try #require(cancelled.notices.first?.iTIPCalendar(timeZone: book.timeZone, gym: nil)))
        let (ourCancel, exampleCancel) = (try shape(cancel), try shape(Self.rfcCancel))
        #expect(ourCancel.method == "CANCEL" && exampleCancel.names.isSubset(of: ourCancel.names), "missing: \(exampleCancel.names.subtracting(ourCancel.names))")
    }

    @Test("from the main actor, a store's change takes a @Sendable closure (an app's view model calls it there)")
    @MainActor
    func fromTheMainActor() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("horari-main-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var calendar = ICalendar(items: [])
        calendar.setScheduling(try Gym.book())
        let file = folder.appendingPathComponent("gym.ics")
        try Data(exporter.export(calendar).utf8).write(to: file)
        let clock = now
        let store = SchedulingStore(CalendarStore(try CalendarLocation(file.path)), settings: .init(now: { _ in clock }))
        let told = try await store.changeTelling { @Sendable book in
            try book.addSession(id: "s1", coach: "marc", client: "anna", startingAt: try Gym.now("2026-11-26 18:00"), duration: .minutes(45), now: clock)
        }
        #expect(told.result.id == "s1" && told.notices.notices.map(\.recipient.id) == ["anna"])
    }
}
