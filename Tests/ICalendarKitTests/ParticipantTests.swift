import CalendarCore
import Foundation
import ICalendarKit
import Testing

/// Attendees and organizer are writable (issue 43, 9), as in KCalendarCore:
/// an app adds, changes and removes them, and every parameter it did not
/// touch — `CUTYPE`, `X-…`, order — is written back as the file had it.
@Suite("Writable attendees and organizer")
struct ParticipantTests {
    /// RFC 5546 §4.2.1's group event request: an organizer who chairs, three
    /// attendees asked to reply.
    static let request = """
        BEGIN:VCALENDAR\r
        PRODID:-//Example/ExampleCalendarClient//EN\r
        METHOD:REQUEST\r
        VERSION:2.0\r
        BEGIN:VEVENT\r
        ORGANIZER;CN=A:mailto:a@example.com\r
        ATTENDEE;ROLE=CHAIR;PARTSTAT=ACCEPTED;CN=A:mailto:a@example.com\r
        ATTENDEE;RSVP=TRUE;CUTYPE=INDIVIDUAL;CN=B:mailto:b@example.com\r
        ATTENDEE;RSVP=TRUE;CUTYPE=INDIVIDUAL;CN=C:mailto:c@example.com\r
        ATTENDEE;RSVP=TRUE;CUTYPE=INDIVIDUAL;CN=Hal:mailto:d@example.com\r
        DTSTAMP:19970611T190000Z\r
        DTSTART:19970701T200000Z\r
        DTEND:19970701T210000Z\r
        SUMMARY:Conference\r
        UID:calsrv.example.com-873970198738777@example.com\r
        SEQUENCE:0\r
        STATUS:CONFIRMED\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    func conference() throws -> CalendarItem {
        let read = try ICalendarImporter().importCalendar(from: Self.request)
        #expect(read.diagnostics.isEmpty, "\(read.diagnostics)")
        return try #require(read.calendar.items.first)
    }

    func exported(_ item: CalendarItem) -> [String] {
        var calendar = ICalendar()
        calendar.items = [item]
        let text = ICalendarExporter().export(calendar)
        return text.components(separatedBy: "\r\n").filter { $0.hasPrefix("ORGANIZER") || $0.hasPrefix("ATTENDEE") }
    }

    @Test("read as the file has them: names, roles, replies asked for, statuses")
    func read() throws {
        let item = try conference()
        #expect(item.organizer?.address == "mailto:a@example.com")
        #expect(item.organizer?.name == "A")
        #expect(item.attendees.map(\.name) == ["A", "B", "C", "Hal"])
        #expect(item.attendees.map(\.rsvp) == [false, true, true, true])
        #expect(item.attendees.map(\.role) == ["CHAIR", nil, nil, nil])
        #expect(item.attendees.map(\.status) == ["ACCEPTED", nil, nil, nil])
        #expect(item.attendees[1].parameters.map(\.name) == ["RSVP", "CUTYPE", "CN"])
    }

    @Test("an answer recorded changes that one parameter and leaves every other line and parameter as written")
    func statusChanged() throws {
        var item = try conference()
        let before = exported(item), order = item.properties.map(\.name)
        item.attendees = item.attendees.map { var p = $0; if p.hasAddress("b@example.com") { p.status = "accepted"; p.rsvp = false }; return p }
        let after = exported(item)
        #expect(after[0] == before[0])
        #expect(after[1] == before[1])
        #expect(after[2] == "ATTENDEE;CUTYPE=INDIVIDUAL;CN=B;PARTSTAT=ACCEPTED:mailto:b@example.com")
        #expect(Array(after[3...]) == Array(before[3...]))
        #expect(item.properties.map(\.name) == order)
    }

    @Test("an attendee added goes after the others, once per address; one removed is found by address in any case")
    func addAndRemove() throws {
        var item = try conference()
        item.addAttendee(Participant(address: "e@example.com", name: "E", role: "OPT-PARTICIPANT", rsvp: true))
        #expect(item.attendees.map(\.address).last == "mailto:e@example.com")
        item.addAttendee(Participant(address: "MAILTO:E@example.com", name: "Eve"))
        #expect(item.attendees.count == 5)
        #expect(item.attendees.last?.name == "Eve")
        #expect(item.attendees.last?.rsvp == false)
        let gone = item.removeAttendee(address: "C@EXAMPLE.COM")
        #expect(gone?.name == "C")
        #expect(item.removeAttendee(address: "nobody@example.com") == nil)
        #expect(item.attendees.map(\.name) == ["A", "B", "Hal", "Eve"])
        #expect(exported(item).last == "ATTENDEE;CN=Eve:MAILTO:E@example.com")

        // What was written reads back as it was set.
        var calendar = ICalendar()
        calendar.items = [item]
        let back = try ICalendarImporter().importCalendar(from: ICalendarExporter().export(calendar))
        #expect(back.diagnostics.isEmpty, "\(back.diagnostics)")
        #expect(back.calendar.items.first?.attendees == item.attendees)
        #expect(back.calendar.items.first?.organizer == item.organizer)
    }

    @Test("an organizer set replaces the line where it stood; nil removes it; a new item gains one")
    func organizer() throws {
        var item = try conference()
        item.organizer = Participant(address: "mailto:chair@example.com", name: "Chair")
        #expect(item.properties.first?.text == "ORGANIZER;CN=Chair:mailto:chair@example.com")
        #expect(item.properties.count { $0.name == "ORGANIZER" } == 1)
        item.organizer = nil
        #expect(item.organizer == nil)
        #expect(item.attendees.count == 4)

        let start = CalendarTime.utc(try LocalDateTime(year: 2026, month: 11, day: 26, hour: 17))
        var session = CalendarItem(uid: "s1@gym.example", title: "Strength", start: start, properties: [ContentLine(name: "URL", value: "https://gym.example/s1")])
        session.organizer = Participant(address: "marc@gym.example", name: "Marc Soler")
        session.addAttendee(Participant(address: "anna@example.com", name: "Anna Puig", rsvp: true))
        #expect(exported(session) == ["ORGANIZER;CN=Marc Soler:mailto:marc@gym.example",
                                      "ATTENDEE;CN=Anna Puig;RSVP=TRUE:mailto:anna@example.com"])
        #expect(session.properties.first?.name == "URL")
    }
}
