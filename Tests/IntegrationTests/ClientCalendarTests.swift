import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit
import SchedulingICalendar
import Testing
import _SchedulingTestSupport

/// Issue 44, 2: a client's own calendar and reminders: her sessions with
/// her coach, as her invitations name them; nobody else's, never the
/// coach's notes.
@Suite("The client's own calendar")
struct ClientCalendarTests {
    /// The test gym with sessions: two of Anna's with Marc (one later
    /// cancelled), one of Pau's with Marc, and one of Joan's with Laia.
    static func book() throws -> (SchedulingBook, ChangeNotices) {
        var book = try Gym.book()
        let now = try Gym.now("2026-11-20 10:00")
        let told = try book.telling(now: now) { book in
            _ = try book.addSession(id: "a1", coach: "marc", client: "anna", start: try Gym.at("2026-11-24 18:00"), duration: .minutes(60),
                                    location: "Sala 3", notes: "Knee: go easy on squats.", workoutType: "Strength", now: now)
            _ = try book.addSession(id: "a2", coach: "marc", client: "anna", start: try Gym.at("2026-11-26 18:00"), duration: .minutes(45), now: now)
            _ = try book.addSession(id: "p1", coach: "marc", client: "pau", start: try Gym.at("2026-11-25 10:00"), duration: .minutes(60), notes: "Pau's plan", now: now)
            _ = try book.addSession(id: "j1", coach: "laia", client: "joan", start: try Gym.at("2026-11-25 11:00"), duration: .minutes(60), now: now)
            // A training logged after the fact, with the coach's notes: hers too, and still not in her calendar's text.
            _ = try book.logSession(id: "a0", coach: "marc", client: "anna", start: try Gym.at("2026-11-17 18:00"), duration: .minutes(45),
                                    notes: "Knee: logged, go easy.", now: now)
        }
        try book.setStatus(.cancelled, ofSession: "a2", coach: "marc", now: now)
        return (book, told.notices)
    }

    @Test("her sessions with her coach only, oldest first, under her invitations' UIDs, titles and organizer; a cancelled one struck, not gone; no notes, nobody else")
    func herCalendar() throws {
        let (book, notices) = try Self.book()
        let items = try book.clientSchedule(client: "anna", coach: "marc").items
        #expect(items.map(\.uid) == ["a0@gym.example", "a1@gym.example", "a2@gym.example"])
        #expect(items.map(\.status) == [.confirmed, .confirmed, .cancelled])
        #expect(notices.notices.allSatisfy { $0.recordID != "a0" }, "nobody is invited to a logged session")
        #expect(items.allSatisfy { $0.notes == nil && $0.title == "Training with Marc Soler" })
        #expect(items[1].categories == ["Strength"] && items[1].location == "Sala 3")
        let text = ICalendarExporter().export(try ICalendar(book, for: .client("anna", coach: "marc")))
        for secret in ["Knee", "Pau", "Joan", "Laia"] {
            #expect(!text.contains(secret), "\(secret) in her calendar")
        }
        // None of the book's own properties on her events (its records, the session's status and completion).
        let events = text.components(separatedBy: "BEGIN:VEVENT").dropFirst()
        #expect(events.count == 3 && events.allSatisfy { !$0.contains("\r\nX-HORARI-") }, "\(text)")
        #expect(text.contains("REFRESH-INTERVAL;VALUE=DURATION:PT1H\r\n"), "a feed to subscribe to")
        // Her invitation to a1 and her calendar's a1: one UID, one title, one organizer.
        let invitation = try #require(notices.notices.first { $0.recipient.id == "anna" && $0.recordID == "a1" })
        let itip = try #require(invitation.iTIPCalendar(timeZone: book.timeZone, gym: nil)?.items.first)
        #expect(itip.uid == items[1].uid && itip.title == items[1].title && itip.start == items[1].start)
        #expect(itip.properties.first { $0.name == "ORGANIZER" } == items[1].properties.first { $0.name == "ORGANIZER" })
        // A coach with no address: her invitation comes from the gym, and so does her calendar's organizer.
        var noAddress = book
        try noAddress.updateCoach(Coach(id: "marc", name: "Marc Soler", workingHours: try noAddress.coach("marc").workingHours))
        try noAddress.setGymAddress(name: "Gimnàs Sants", email: "desk@gym.example")
        let organizer = try noAddress.clientSchedule(client: "anna", coach: "marc").items[1].properties.first { $0.name == "ORGANIZER" }
        #expect(organizer?.text == "ORGANIZER;CN=Gimnàs Sants:mailto:desk@gym.example")
    }

    @Test("another coach's client is refused as an unknown one; her reminders ring only for sessions still to be held, with the app's defaults")
    func scopeAndReminders() throws {
        let (book, _) = try Self.book()
        #expect(throws: SchedulingError.unknownClient("anna", coach: "laia")) { try book.clientSchedule(client: "anna", coach: "laia") }
        #expect(throws: SchedulingError.unknownClient("joan", coach: "marc")) { try ICalendar(book, for: .client("joan", coach: "marc")) }
        let dayBefore = try Alarm(.before(.seconds(86_400)), message: "Training tomorrow")
        let report = try book.alarms(client: "anna", coach: "marc", from: try Gym.now("2026-11-20 00:00"), to: try Gym.now("2026-12-01 00:00"), defaults: [dayBefore])
        #expect(report.instants.map(\.time) == [try Gym.now("2026-11-23 18:00")], "a2 is cancelled: \(report.instants.map(\.time))")
        #expect(report.instants.allSatisfy { $0.title == "Training with Marc Soler" && $0.isDefault })
        let window = DateInterval(start: try Gym.now("2026-11-24 00:00"), end: try Gym.now("2026-12-01 00:00"))
        #expect(try book.alarms(client: "anna", coach: "marc", in: window, defaults: [dayBefore]).instants.isEmpty, "the one reminder is before the window")
    }
}
