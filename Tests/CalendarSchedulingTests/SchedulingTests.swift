import CalendarCore
import CalendarScheduling
import Foundation
import Testing
import _SchedulingTestSupport

@Suite("Scheduling: coaches, clients and sessions")
struct SessionTests {
    @Test("a coach's scope never reaches another coach's clients or sessions")
    func scope() throws {
        var book = try Gym.book()
        let s = try book.addSession(id: "s1", coach: "laia", client: "joan", start: Gym.at("2026-11-26 10:00"), duration: .minutes(60))
        #expect(try book.clients(coach: "marc").map(\.id) == ["anna", "pau"])
        #expect(try book.sessions(coach: "marc").isEmpty)
        // Marc tries every way in to Laia's client and session.
        #expect(refusal { _ = try book.client("joan", coach: "marc") } == .unknownClient("joan", coach: "marc"))
        #expect(refusal { _ = try book.session("s1", coach: "marc") } == .unknownSession("s1", coach: "marc"))
        #expect(refusal { _ = try book.sessions(coach: "marc", client: "joan") } == .unknownClient("joan", coach: "marc"))
        #expect(refusal { try book.addSession(coach: "marc", client: "joan", start: Gym.at("2026-11-27 10:00"), duration: .minutes(60)) } == .unknownClient("joan", coach: "marc"))
        #expect(refusal { try book.moveSession("s1", coach: "marc", to: Gym.at("2026-11-27 10:00")) } == .unknownSession("s1", coach: "marc"))
        #expect(refusal { try book.setStatus(.cancelled, ofSession: "s1", coach: "marc", now: Gym.now("2026-11-22 12:00")) } == .unknownSession("s1", coach: "marc"))
        #expect(refusal { try book.editSession("s1", coach: "marc", location: "x", notes: nil) } == .unknownSession("s1", coach: "marc"))
        #expect(refusal { try book.updateClient(Client(id: "joan", coachID: "marc", name: "Mine now"), coach: "marc") } == .unknownClient("joan", coach: "marc"))
        #expect(refusal { _ = try book.upcomingSessions(coach: "nobody", after: Gym.now("2026-11-22 12:00")) } == .unknownCoach("nobody"))
        // Nothing changed, and the message does not say that joan exists elsewhere.
        #expect(try book.session("s1", coach: "laia") == s)
        #expect(try book.client("joan", coach: "laia").name == "Joan Serra")
        #expect(SchedulingError.unknownClient("joan", coach: "marc").description == "coach ‘marc’ has no client ‘joan’; add the client to this coach first")
        // Updating keeps the client with their coach, whatever coachID the caller wrote.
        try book.updateClient(Client(id: "anna", coachID: "laia", name: "Anna Puig i Soler"), coach: "marc")
        #expect(try book.client("anna", coach: "marc").name == "Anna Puig i Soler")
        #expect(try book.clients(coach: "laia").map(\.id) == ["joan", "rosa"])
    }

    /// Issue 43, 1: the check horari made of a typed --email is the book's.
    @Test("an e-mail address is one a message can go to, on every new or changed record; a record read back is taken as it is")
    func emailAddresses() throws {
        var book = try Gym.book()
        for bad in ["marta", "Marta Roig <marta@example.com>", "marta@example.com, eve@example.org", "marta@localhost", "marta@@example.com"] {
            #expect(throws: SchedulingError.self, "\(bad)") { try book.addMember(Member(id: "m", name: "M", email: bad)) }
            #expect(throws: SchedulingError.self, "\(bad)") { try book.updateCoach(Coach(id: "marc", name: "Marc", email: bad)) }
            #expect(throws: SchedulingError.self, "\(bad)") { try SchedulingBook.checkEmail(bad, of: "member") }
        }
        #expect(throws: SchedulingError.invalid(field: .email, reason: "the member's e-mail address ‘Marta Roig <marta@example.com>’ is not one address a message can go to; write it as name@example.com (the name goes in the record's name)")) {
            try SchedulingBook.checkEmail("Marta Roig <marta@example.com>", of: "member")
        }
        for good in ["marta@example.com", "marta.roig+gym@mail.example.cat", "", nil] as [String?] {
            try SchedulingBook.checkEmail(good, of: "member")
        }
        try book.addMember(Member(id: "m", name: "M", email: "m@example.com"))
        // Saved before the book checked addresses: read back as it is, refused on the next change.
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(book)) as? [String: Any])
        object["members"] = [["id": "old", "name": "Old", "email": "Old Member <old@example.com>"]]
        let read = try JSONDecoder().decode(SchedulingBook.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(try read.member("old").email == "Old Member <old@example.com>")
    }

    @Test("unknown and taken IDs are refused with messages that say what to do")
    func unknownAndTaken() throws {
        var book = try Gym.book()
        let now = try Gym.now("2026-11-22 12:00")
        let cases: [(SchedulingError?, String)] = [
            (refusal { _ = try book.clients(coach: "ghost") }, "there is no coach ‘ghost’; add the coach first"),
            (refusal { _ = try book.session("s9", coach: "marc") }, "coach ‘marc’ has no session ‘s9’"),
            (refusal { try book.book(member: "ghost", classID: "yoga", on: Gym.day("2026-11-23"), now: now) }, "there is no member ‘ghost’; add the member first"),
            (refusal { try book.deleteClass("pilates") }, "there is no class ‘pilates’"),
            // The coach's own client's ID is taken; another coach's (joan is Laia's) is not: IDs are each coach's own (issue 28, 9).
            (refusal { try book.addClient(Client(id: "anna", coachID: "marc", name: "Another Anna")) }, "a client with ID ‘anna’ already exists; choose another ID"),
            (refusal { try book.addMember(Member(id: "new one", name: "Spaced")) }, "‘new one’ is not a usable member ID; use letters, digits and dashes, without spaces"),
            // Written in a parameter value, a double quote came back as ' and the book did not read again.
            (refusal { try book.addMember(Member(id: "<i>\"q'&", name: "Quoted")) }, "‘<i>\"q'&’ is not a usable member ID: it holds a double quote or a control character; use letters, digits and dashes"),
            (refusal { try book.addCoach(Coach(id: "a\u{7}b", name: "Bell")) }, "‘a\u{7}b’ is not a usable coach ID: it holds a double quote or a control character; use letters, digits and dashes"),
            (refusal { try book.addCoach(Coach(id: "x", name: " ")) }, "the coach has no name"),
            (refusal { try book.addCoach(Coach(id: "x", name: "X", buffer: .minutes(-5))) }, "a buffer is whole minutes from 0 to 24 hours, not -PT5M"),
        ]
        for (error, message) in cases { #expect(error?.description == message) }
        // A book takes its zone as `ZoneRules`, so an unknown zone is the zone's own error, matched by code.
        var matched = false
        do { _ = SchedulingBook(timeZone: try .named("Mars/Olympus")) } catch TimeValueError.Code.unknownTimeZone { matched = true } catch {}
        #expect(matched)
        #expect(try book.clients(coach: "marc").count == 2, "nothing was added")
    }

    @Test("the desks of the actor carry the same scope")
    func desks() async throws {
        let scheduler = FrontDesk(book: try Gym.book())
        let laia = try await scheduler.coach("laia"), marc = try await scheduler.coach("marc")
        try await laia.addSession(id: "s1", client: "joan", start: Gym.at("2026-11-26 10:00"), duration: .minutes(60))
        #expect(try await marc.sessions().isEmpty)
        #expect(try await marc.clients().map(\.id) == ["anna", "pau"])
        let noon = try Gym.at("2026-11-26 12:00")
        do {
            try await marc.moveSession("s1", to: noon)
            Issue.record("Marc moved Laia's session")
        } catch {
            #expect(error == .unknownSession("s1", coach: "marc"))
        }
        do {
            _ = try await scheduler.coach("ghost")
            Issue.record("a desk for an unknown coach")
        } catch {
            #expect(error == .unknownCoach("ghost"))
        }
    }

    @Test("a clash names the wall time the session in the way ends, across the nights the clocks go forward and back too, and says so (issue 43, 12)")
    func clashAcrossTheClockChange() throws {
        var book = SchedulingBook(timeZone: try .named("Europe/Madrid"), policy: nil)
        try book.addCoach(Coach(id: "marc", name: "Marc Soler"))
        try book.addClient(Client(id: "anna", coachID: "marc", name: "Anna Puig"))
        let now = try Gym.now("2026-03-01 10:00")
        // 2026-03-29 in Madrid: 02:00 is 03:00, so an hour from 01:30 ends at 03:30 on the wall (not 02:30, which never shows).
        try book.addSession(id: "n1", coach: "marc", client: "anna", start: "2026-03-29T01:30", duration: .seconds(3600), now: now)
        let clash = refusal { try book.addSession(coach: "marc", client: "anna", start: "2026-03-29T03:00", duration: .seconds(1800), now: now) }
        #expect(clash?.description == "the time clashes with session ‘n1’ of client ‘anna’, Sun 2026-03-29 01:30–03:30 (60 minutes: the clocks go forward in between); pick another time")
        // 2026-10-25: 03:00 is 02:00 again, so an hour from the first 02:30 ends at the second 02:30.
        try book.addSession(id: "b1", coach: "marc", client: "anna", start: "2026-10-25T02:30", duration: .seconds(3600), now: now)
        let back = refusal { try book.addSession(coach: "marc", client: "anna", start: "2026-10-25T02:45", duration: .seconds(1800), now: now) }
        #expect(back?.description == "the time clashes with session ‘b1’ of client ‘anna’, Sun 2026-10-25 02:30–02:30 (60 minutes: the clocks go back in between); pick another time")
    }

    @Test("a clash with the same coach or client is refused and names the session; the buffer counts")
    func clashes() throws {
        var book = try Gym.book()
        let first = try book.addSession(id: "s1", coach: "marc", client: "anna", start: Gym.at("2026-11-26 10:00"), duration: .minutes(60), location: "Sants")
        // The same client overlapping.
        let sameClient = refusal { try book.addSession(coach: "marc", client: "anna", start: Gym.at("2026-11-26 10:30"), duration: .minutes(60)) }
        #expect(sameClient == .clash(SessionClash(existing: first, reason: .client, buffer: .minutes(0))))
        #expect(sameClient?.description == "the time clashes with session ‘s1’ of client ‘anna’, Thu 2026-11-26 10:00–11:00; pick another time")
        // The same coach with another client, overlapping by one minute at either end.
        #expect(refusal { try book.addSession(coach: "marc", client: "pau", start: Gym.at("2026-11-26 09:01"), duration: .minutes(60)) } == .clash(SessionClash(existing: first, reason: .coach, buffer: .minutes(0))))
        #expect(refusal { try book.addSession(coach: "marc", client: "pau", start: Gym.at("2026-11-26 10:59"), duration: .minutes(30)) } == .clash(SessionClash(existing: first, reason: .coach, buffer: .minutes(0))))
        // Back to back is fine without a buffer; another coach at the same time too.
        try book.addSession(id: "s2", coach: "marc", client: "pau", start: Gym.at("2026-11-26 11:00"), duration: .minutes(60))
        try book.addSession(id: "s3", coach: "marc", client: "pau", start: Gym.at("2026-11-26 09:00"), duration: .minutes(60))
        try book.addSession(id: "l1", coach: "laia", client: "joan", start: Gym.at("2026-11-26 10:00"), duration: .minutes(60))
        // Laia keeps 15 minutes between sessions.
        let buffered = refusal { try book.addSession(coach: "laia", client: "rosa", start: Gym.at("2026-11-26 11:10"), duration: .minutes(30)) }
        #expect(buffered?.description == "the time clashes (with the coach's 15-minute buffer) with session ‘l1’ of coach ‘laia’, Thu 2026-11-26 10:00–11:00; pick another time")
        try book.addSession(id: "l2", coach: "laia", client: "rosa", start: Gym.at("2026-11-26 11:15"), duration: .minutes(30))
        // Moving: onto its own old time is fine, onto another's is refused, and a refusal changes nothing.
        try book.moveSession("s1", coach: "marc", to: Gym.at("2026-11-26 10:15"), duration: .minutes(45))
        #expect(refusal { try book.moveSession("s2", coach: "marc", to: Gym.at("2026-11-26 10:30")) } != nil)
        #expect(try book.session("s2", coach: "marc").start == Gym.at("2026-11-26 11:00"))
        // A cancelled session frees its time and cannot be moved.
        try book.setStatus(.cancelled, ofSession: "s2", coach: "marc", now: Gym.now("2026-11-22 12:00"))
        try book.addSession(id: "s4", coach: "marc", client: "anna", start: Gym.at("2026-11-26 11:00"), duration: .minutes(60))
        #expect(refusal { try book.moveSession("s2", coach: "marc", to: Gym.at("2026-11-27 10:00")) } == .sessionNotScheduled("s2", status: .cancelled))
        #expect(refusal { try book.setStatus(.completed, ofSession: "s2", coach: "marc", now: Gym.now("2026-11-30 12:00")) }?.description == "session ‘s2’ is cancelled; only a scheduled session can change (book a new one for that time)")
        // Impossible requests.
        #expect(refusal { try book.addSession(id: "s4", coach: "marc", client: "anna", start: Gym.at("2026-12-01 10:00"), duration: .minutes(60)) } == .duplicateID("s4", kind: "session"))
        #expect(refusal { try book.addSession(coach: "marc", client: "anna", start: Gym.at("2026-12-01 10:00"), duration: .minutes(0)) } == .invalid(field: .duration, reason: "a session lasts whole minutes from 1 minute to 24 hours, not PT0S"))
    }

    @Test("a session is completed or a no-show only once it has started, and a mark can be undone (issue 28, 6)")
    func marksAfterTheStart() throws {
        var book = try Gym.book()
        try book.addSession(id: "soon", coach: "marc", client: "anna", start: Gym.at("2026-11-26 17:00"), duration: .minutes(60))
        let threeDaysAhead = try Gym.now("2026-11-23 12:00")
        for status in [SessionStatus.completed, .noShow] {
            #expect(refusal { try book.setStatus(status, ofSession: "soon", coach: "marc", now: threeDaysAhead) }
                    == .sessionNotStarted("soon", start: try Gym.at("2026-11-26 17:00")))
        }
        #expect(refusal { try book.setStatus(.completed, ofSession: "soon", coach: "marc", now: threeDaysAhead) }?.description
                == "session ‘soon’ starts Thu 2026-11-26 17:00; it can be marked completed or no-show once it has started")
        #expect(try book.session("soon", coach: "marc").status == .scheduled)
        #expect(try book.upcomingSessions(coach: "marc", after: threeDaysAhead).map(\.id) == ["soon"])
        // From its start on, it can be marked; then undone, and it is upcoming again.
        let started = try Gym.now("2026-11-26 17:00")
        try book.setStatus(.completed, ofSession: "soon", coach: "marc", now: started)
        #expect(try book.upcomingSessions(coach: "marc", after: threeDaysAhead).isEmpty)
        try book.setStatus(.scheduled, ofSession: "soon", coach: "marc", now: started)
        #expect(try book.session("soon", coach: "marc").status == .scheduled)
        #expect(try book.upcomingSessions(coach: "marc", after: threeDaysAhead).map(\.id) == ["soon"])
        try book.setStatus(.noShow, ofSession: "soon", coach: "marc", now: started)
        // A cancelled session freed its time: it is booked again, not undone.
        try book.addSession(id: "later", coach: "marc", client: "anna", start: Gym.at("2026-11-27 17:00"), duration: .minutes(60))
        try book.setStatus(.cancelled, ofSession: "later", coach: "marc", now: threeDaysAhead)
        #expect(refusal { try book.setStatus(.scheduled, ofSession: "later", coach: "marc", now: threeDaysAhead) } == .sessionNotScheduled("later", status: .cancelled))
    }

    @Test("an occurrence is not moved onto another occurrence of its class, nor onto one moved there (issue 28, 16)")
    func moveOntoItself() throws {
        var book = try Gym.book()
        // Yoga meets Mondays and Wednesdays at 18:30 for an hour.
        let onto = refusal { try book.moveOccurrence(classID: "yoga", on: Gym.day("2026-11-23"), to: Gym.at("2026-11-25 19:00")) }
        #expect(onto == .occurrenceOverlaps(classID: "yoga", title: "Yoga", date: try Gym.day("2026-11-23"), other: try Gym.day("2026-11-25"),
                                            otherStart: try Gym.at("2026-11-25 18:30"), otherDuration: .minutes(60)))
        #expect(onto?.description == "Yoga of 2026-11-23 cannot move there: the Yoga of 2026-11-25 is on then (Wed 2026-11-25 18:30–19:30), and a member booked on both would hold two places at one time; pick another time")
        #expect(try book.occurrence(classID: "yoga", on: Gym.day("2026-11-23")).isMoved == false)
        // Just before it, it fits; and a third occurrence moved onto that moved one is refused too.
        try book.moveOccurrence(classID: "yoga", on: Gym.day("2026-11-23"), to: Gym.at("2026-11-25 17:00"), duration: .minutes(90))
        #expect(refusal { try book.moveOccurrence(classID: "yoga", on: Gym.day("2026-11-30"), to: Gym.at("2026-11-25 16:00"), duration: .minutes(90)) }
                != nil)
        // A cancelled occurrence holds no time, and an occurrence may move within its own time.
        try book.cancelOccurrence(classID: "yoga", on: Gym.day("2026-12-02"))
        try book.moveOccurrence(classID: "yoga", on: Gym.day("2026-11-30"), to: Gym.at("2026-12-02 18:30"))
        try book.moveOccurrence(classID: "yoga", on: Gym.day("2026-11-30"), to: Gym.at("2026-12-02 18:45"))
    }

    @Test("a class changed from a date on keeps its earlier dates and bookings; later bookings kept when they fit, else released and listed (issue 28, 19)")
    func classChangedFromADate() throws {
        var book = try Gym.book()
        let now = try Gym.now("2026-11-01 09:00")
        for m in ["marta", "oriol", "nuria"] {
            try book.book(member: m, classID: "yoga", on: Gym.day("2026-11-23"), now: now)   // a Monday, before the change
            try book.book(member: m, classID: "yoga", on: Gym.day("2026-12-07"), now: now)   // a Monday, after it
        }
        try book.book(member: "marta", classID: "yoga", on: Gym.day("2026-12-09"), now: now)  // a Wednesday, after it
        try book.moveOccurrence(classID: "yoga", on: Gym.day("2026-12-14"), to: Gym.at("2026-12-14 17:00"))
        // From 1 December: Mondays only, at 19:00, for two.
        let report = try book.changeClass("yoga", from: Gym.day("2026-12-01"), ClassChange(time: TimeOfDay(hour: 19), capacity: 2, weekdays: [.monday]))
        #expect(report.earlierPart == "yoga-until-20261130")
        #expect(report.released == [
            AffectedBookings(occurrence: .init(classID: "yoga", date: try Gym.day("2026-12-07")), confirmed: ["nuria"], waitlisted: []),
            AffectedBookings(occurrence: .init(classID: "yoga", date: try Gym.day("2026-12-09")), confirmed: ["marta"], waitlisted: []),
        ])
        let earlier = try book.classSeries("yoga-until-20261130"), later = try book.classSeries("yoga")
        let (lastEarlier, firstLater) = (try Gym.day("2026-11-30"), try Gym.day("2026-12-07"))
        let (halfPastSix, seven) = (try TimeOfDay(hour: 18, minute: 30), try TimeOfDay(hour: 19))
        #expect(earlier.time == halfPastSix && earlier.weekdays == [.monday, .wednesday] && earlier.lastDate == lastEarlier)
        #expect(later.firstDate == firstLater && later.time == seven && later.capacity == 2)
        // The earlier booking moved with its date; the later ones that fit stay; the moved occurrence keeps its time.
        #expect(try book.roster(classID: "yoga-until-20261130", on: Gym.day("2026-11-23")).confirmed == ["marta", "oriol", "nuria"])
        #expect(try book.roster(classID: "yoga", on: Gym.day("2026-12-07")).confirmed == ["marta", "oriol"])
        #expect(try book.occurrence(classID: "yoga", on: Gym.day("2026-12-14")).start == (try Gym.at("2026-12-14 17:00")))
        #expect(try book.occurrence(classID: "yoga", on: Gym.day("2026-12-21")).start == (try Gym.at("2026-12-21 19:00")))
        #expect(try book.bookings(member: "marta").map(\.id.classID) == ["yoga-until-20261130", "yoga"])
        // More places move the first waiting up, as a cancellation does (review of issue 28).
        try book.book(member: "nuria", classID: "yoga", on: Gym.day("2026-12-21"), now: now)
        try book.book(member: "marta", classID: "yoga", on: Gym.day("2026-12-21"), now: now)
        #expect(try book.book(member: "oriol", classID: "yoga", on: Gym.day("2026-12-21"), now: now, whenFull: .joinWaitlist) == .waitlisted(position: 1))
        let more = try book.changeClass("yoga", from: Gym.day("2026-12-21"), ClassChange(capacity: 3))
        #expect(more.promoted == [AffectedBookings(occurrence: .init(classID: "yoga", date: try Gym.day("2026-12-21")), confirmed: ["oriol"], waitlisted: [])])
        #expect(try book.roster(classID: "yoga", on: Gym.day("2026-12-21")) == (confirmed: ["nuria", "marta", "oriol"], waitlist: []))
        // Ended on a date: the later bookings are released and listed.
        try book.book(member: "oriol", classID: "spin", on: Gym.day("2026-12-18"), now: now)
        let ended = try book.endClass("spin", on: Gym.day("2026-12-11"))
        #expect(ended == [AffectedBookings(occurrence: .init(classID: "spin", date: try Gym.day("2026-12-18")), confirmed: ["oriol"], waitlisted: [])])
        #expect(refusal { try book.endClass("spin", on: Gym.day("2026-01-01")) } != nil)
        #expect(refusal { try book.changeClass("ghost", from: Gym.day("2026-12-01"), ClassChange(capacity: 1)) } == .unknownClass("ghost"))
    }

    @Test("upcoming sessions from now, soonest first; history newest first with every status")
    func upcomingAndHistory() throws {
        var book = try Gym.book()
        for (id, start) in [("a", "2026-11-20 10:00"), ("b", "2026-11-21 10:00"), ("c", "2026-11-23 10:00"), ("d", "2026-11-24 10:00"), ("e", "2026-11-25 10:00")] {
            try book.addSession(id: id, coach: "marc", client: "anna", start: Gym.at(start), duration: .minutes(60))
        }
        let now = try Gym.now("2026-11-22 12:00")
        try book.setStatus(.completed, ofSession: "a", coach: "marc", now: now)
        try book.setStatus(.noShow, ofSession: "b", coach: "marc", now: now)
        try book.setStatus(.cancelled, ofSession: "d", coach: "marc", now: now)
        #expect(try book.upcomingSessions(coach: "marc", after: now, limit: 5).map(\.id) == ["c", "e"])
        #expect(try book.upcomingSessions(coach: "marc", after: now, limit: 1).map(\.id) == ["c"])
        #expect(try book.pastSessions(coach: "marc", before: now).map(\.id) == ["b", "a"])
        #expect(try book.pastSessions(coach: "marc", before: now).map(\.status) == [.noShow, .completed])
        #expect(try book.upcomingSessions(coach: "laia", after: now).isEmpty)
    }

    @Test("free slots: working hours minus sessions and buffers, days off and one-off hours")
    func freeSlots() throws {
        var book = try Gym.book()
        var laia = try book.coach("laia")
        try laia.workingHours.set([], onDate: Gym.day("2026-11-25"))  // a day off
        try laia.workingHours.set([TimeRange(parsing: "10:00-12:00")], onDate: Gym.day("2026-11-27"))  // a short Friday
        try book.updateCoach(laia)
        try book.addSession(id: "l1", coach: "laia", client: "joan", start: Gym.at("2026-11-23 10:15"), duration: .minutes(60))
        try book.addSession(id: "l2", coach: "laia", client: "rosa", start: Gym.at("2026-11-23 17:00"), duration: .minutes(30))
        let slots = try book.freeSlots(coach: "laia", from: Gym.day("2026-11-23"), through: Gym.day("2026-11-29"), length: .minutes(60))
        let text = slots.map { "\($0.start.date) \($0.start.hour):\($0.start.minute)-\($0.end.hour):\($0.end.minute)" }
        // Monday, with the 15-minute buffer either side of 10:15–11:15 and 17:00–17:30, is free
        // 09:00–10:00, 11:30–13:00, 16:00–16:45 (too short) and 17:45–20:00.
        #expect(text.filter { $0.hasPrefix("2026-11-23") } == [
            "2026-11-23 9:0-10:0", "2026-11-23 11:30-12:30", "2026-11-23 17:45-18:45", "2026-11-23 18:45-19:45",
        ])
        #expect(!text.contains { $0.hasPrefix("2026-11-25") }, "a day off has no slots")
        #expect(text.filter { $0.hasPrefix("2026-11-27") } == ["2026-11-27 10:0-11:0", "2026-11-27 11:0-12:0"])
        #expect(!text.contains { $0.hasPrefix("2026-11-28") || $0.hasPrefix("2026-11-29") }, "no hours at weekends")
        // A step of 30 minutes, and nothing before now.
        let stepped = try book.freeSlots(coach: "laia", from: Gym.day("2026-11-23"), through: Gym.day("2026-11-23"), length: .minutes(60), step: .minutes(30), notBefore: Gym.now("2026-11-23 12:00"))
        #expect(stepped.map(\.start) == [try Gym.at("2026-11-23 12:00"), try Gym.at("2026-11-23 17:45"), try Gym.at("2026-11-23 18:15"), try Gym.at("2026-11-23 18:45")])
        #expect(slots.allSatisfy { $0.endSeconds - $0.startSeconds == 3600 })
    }

    @Test("free slots on a daylight-saving day follow the wall clock")
    func freeSlotsAcrossDST() throws {
        var book = SchedulingBook(timeZone: try .named(Gym.zone))
        var hours = WorkingHours()
        try hours.set([TimeRange(parsing: "00:00-06:00")], on: [.sunday])
        try book.addCoach(Coach(id: "night", name: "Night Owl", workingHours: hours))
        // 29 March 2026: 02:00 becomes 03:00 in Madrid, so 00:00–06:00 is five hours.
        let slots = try book.freeSlots(coach: "night", from: Gym.day("2026-03-29"), through: Gym.day("2026-03-29"), length: .minutes(60))
        #expect(slots.count == 5)
        #expect(slots.map(\.start.hour) == [0, 1, 3, 4, 5])
    }
}

@Suite("Scheduling: classes and bookings")
struct BookingTests {
    let now: Date

    init() throws { now = try Gym.now("2026-11-22 12:00") }

    @Test("the timetable by weekday; series dates narrow to the first and last meetings")
    func timetable() throws {
        let book = try Gym.book()
        let table = book.timetable
        #expect(table.map(\.weekday) == Weekday.allCases)
        #expect(table[0].classes.map(\.id) == ["yoga"] && table[2].classes.map(\.id) == ["yoga"] && table[4].classes.map(\.id) == ["spin"])
        #expect(table[1].classes.isEmpty && table[6].classes.isEmpty)
        // Yoga from Saturday 5 September meets first on Monday 7; Spinning until Thursday 31 December last meets on Friday 25.
        #expect(try book.classSeries("yoga").firstDate == Gym.day("2026-09-07"))
        #expect(try book.classSeries("spin").lastDate == Gym.day("2026-12-25"))
    }

    @Test("every refusal of a booking, with its message")
    func refusals() throws {
        var book = try Gym.book()
        let monday = try Gym.day("2026-11-23")
        #expect(refusal { try book.book(member: "marta", classID: "yoga", on: Gym.day("2026-11-24"), now: now) }
            == .notAnOccurrence(classID: "yoga", title: "Yoga", date: try Gym.day("2026-11-24"), meets: "Mondays and Wednesdays at 18:30 from 2026-09-07"))
        #expect(refusal { try book.book(member: "marta", classID: "yoga", on: Gym.day("2026-11-24"), now: now) }?.description
            == "Yoga does not meet on Tuesday 2026-11-24; it meets Mondays and Wednesdays at 18:30 from 2026-09-07")
        #expect(refusal { try book.book(member: "marta", classID: "spin", on: Gym.day("2027-01-01"), now: now) }?.description
            == "Spinning does not meet on Friday 2027-01-01; it meets Fridays at 07:00 from 2026-09-04 until 2026-12-25")
        #expect(refusal { try book.book(member: "marta", classID: "yoga", on: Gym.day("2026-11-18"), now: now) }?.description
            == "Yoga on 2026-11-18 started at 18:30; book a later date")
        // Today at 18:30 is bookable until it starts.
        try book.book(member: "marta", classID: "yoga", on: Gym.day("2026-11-23"), now: Gym.now("2026-11-23 18:29"))
        #expect(refusal { try book.book(member: "oriol", classID: "yoga", on: monday, now: Gym.now("2026-11-23 18:30")) }
            == .occurrenceInPast(classID: "yoga", title: "Yoga", date: monday, start: try Gym.at("2026-11-23 18:30")))
        #expect(refusal { try book.book(member: "marta", classID: "yoga", on: monday, now: now) }?.description
            == "member ‘marta’ already has a place in Yoga on 2026-11-23")
        try book.book(member: "oriol", classID: "yoga", on: monday, now: now)
        try book.book(member: "nuria", classID: "yoga", on: monday, now: now)
        try book.addMember(Member(id: "xavi", name: "Xavi Mas"))
        let full = refusal { try book.book(member: "xavi", classID: "yoga", on: monday, now: now) }
        #expect(full == .classFull(title: "Yoga", date: monday, capacity: 3, waiting: 0))
        #expect(full?.description == "Yoga on 2026-11-23 is full (3 of 3 places taken, 0 waiting); join the waitlist or pick another date")
        #expect(try book.book(member: "xavi", classID: "yoga", on: monday, now: now, whenFull: .joinWaitlist) == .waitlisted(position: 1))
        #expect(refusal { try book.book(member: "xavi", classID: "yoga", on: monday, now: now, whenFull: .joinWaitlist) }?.description
            == "member ‘xavi’ is already number 1 on the waitlist for Yoga on 2026-11-23")
        try book.cancelOccurrence(classID: "yoga", on: Gym.day("2026-11-30"))
        #expect(refusal { try book.book(member: "xavi", classID: "yoga", on: Gym.day("2026-11-30"), now: now) }?.description == "Yoga on 2026-11-30 is cancelled")
        #expect(refusal { try book.book(member: "ghost", classID: "yoga", on: monday, now: now) } == .unknownMember("ghost"))
        #expect(refusal { try book.book(member: "xavi", classID: "pilates", on: monday, now: now) } == .unknownClass("pilates"))
        #expect(refusal { try book.cancelBooking(member: "xavi", classID: "yoga", on: Gym.day("2026-11-25"), now: now) }?.description
            == "member ‘xavi’ has no place in Yoga on 2026-11-25 and is not waiting for one")
        // None of the refusals changed the roster.
        #expect(try book.roster(classID: "yoga", on: monday).confirmed == ["marta", "oriol", "nuria"])
        #expect(try book.roster(classID: "yoga", on: monday).waitlist == ["xavi"])
    }

    @Test("cancelling frees the place for the first on the waitlist")
    func promotion() throws {
        var book = try Gym.book()
        let monday = try Gym.day("2026-11-23")
        try book.addMember(Member(id: "xavi", name: "Xavi Mas"))
        try book.addMember(Member(id: "eva", name: "Eva Gil"))
        for m in ["marta", "oriol", "nuria", "xavi", "eva"] { try book.book(member: m, classID: "yoga", on: monday, now: now, whenFull: .joinWaitlist) }
        #expect(try book.occurrence(classID: "yoga", on: monday).placesLeft == 0)
        // Leaving the queue promotes no one.
        #expect(try book.cancelBooking(member: "eva", classID: "yoga", on: monday, now: now) == Cancellation(heldPlace: false, promoted: nil))
        try book.book(member: "eva", classID: "yoga", on: monday, now: now, whenFull: .joinWaitlist)
        #expect(try book.cancelBooking(member: "oriol", classID: "yoga", on: monday, now: now) == Cancellation(heldPlace: true, promoted: "xavi"))
        #expect(try book.roster(classID: "yoga", on: monday).confirmed == ["marta", "nuria", "xavi"])
        #expect(try book.roster(classID: "yoga", on: monday).waitlist == ["eva"])
        #expect(try book.bookings(member: "xavi").map(\.id) == [ClassOccurrence.ID(classID: "yoga", date: monday)])
        #expect(try book.waitlists(member: "eva").map(\.position) == [1])
        #expect(try book.bookings(member: "oriol").isEmpty)
        #expect(refusal { try book.cancelBooking(member: "marta", classID: "yoga", on: monday, now: Gym.now("2026-11-23 19:00")) } != nil, "no cancelling once it started")
    }

    @Test("bookings follow the occurrence through a new time; removed dates are reported")
    func seriesEdits() throws {
        var book = try Gym.book()
        let monday = try Gym.day("2026-11-23"), wednesday = try Gym.day("2026-11-25")
        try book.book(member: "marta", classID: "yoga", on: monday, now: now)
        try book.book(member: "oriol", classID: "yoga", on: wednesday, now: now)
        try book.moveOccurrence(classID: "yoga", on: monday, to: Gym.at("2026-11-24 20:00"))
        var yoga = try book.classSeries("yoga")
        yoga.time = try TimeOfDay(hour: 19)
        #expect(try book.updateClass(yoga).isEmpty)
        #expect(try book.bookings(member: "marta").map(\.start) == [try Gym.at("2026-11-24 20:00")], "the moved occurrence keeps its booking and its move")
        #expect(try book.bookings(member: "oriol").map(\.start) == [try Gym.at("2026-11-25 19:00")], "the new series time applies")
        // Wednesdays dropped: Oriol's booking goes and is reported; Marta's Monday stays.
        yoga.weekdays = [.monday]
        let affected = try book.updateClass(yoga)
        #expect(affected == [AffectedBookings(occurrence: .init(classID: "yoga", date: wednesday), confirmed: ["oriol"], waitlisted: [])])
        #expect(try book.bookings(member: "oriol").isEmpty)
        #expect(try book.bookings(member: "marta").count == 1)
        // Cancelling an occurrence and deleting the series report theirs.
        try book.book(member: "nuria", classID: "yoga", on: Gym.day("2026-11-30"), now: now)
        #expect(try book.cancelOccurrence(classID: "yoga", on: Gym.day("2026-11-30")).confirmed == ["nuria"])
        #expect(try book.deleteClass("yoga").map(\.confirmed) == [["marta"]])
        #expect(try book.bookings(member: "marta").isEmpty)
        #expect(book.timetable[0].classes.isEmpty)
    }

    @Test("series that cannot be: no day, no places, never meets, a taken ID")
    func invalidSeries() throws {
        var book = try Gym.book()
        let base = ClassSeries(id: "box", title: "Boxing", weekdays: [.tuesday], time: try TimeOfDay(hour: 20), duration: .minutes(60), capacity: 10, firstDate: try Gym.day("2026-11-24"))
        var noDay = base
        noDay.weekdays = []
        var noPlaces = base
        noPlaces.capacity = 0
        var never = base
        never.lastDate = try Gym.day("2026-11-23")
        #expect(refusal { try book.addClass(noDay) }?.description == "the class meets on no day; give at least one weekday")
        #expect(refusal { try book.addClass(noPlaces) }?.description == "a class takes at least one member, not 0")
        #expect(refusal { try book.addClass(never) }?.description == "the last date 2026-11-23 is before the first, 2026-11-24")
        var yoga = base
        yoga.id = "yoga"
        #expect(refusal { try book.addClass(yoga) } == .duplicateID("yoga", kind: "class"))
        #expect(refusal { _ = try TimeOfDay(parsing: "25:00") }?.description == "25:00 is not a time of day; use 00:00 to 24:00")
        #expect(refusal { _ = try TimeRange(parsing: "13:00-09:00") }?.description == "13:00-09:00 ends before it starts; write the earlier time first")
    }
}

@Suite("Scheduling: concurrency")
struct ConcurrencyTests {
    @Test("1,000 tasks book a 20-place class at once: 20 confirmed, 980 waitlisted, every answer matches the book")
    func thousandBookings() async throws {
        var book = try Gym.book()
        try book.addClass(ClassSeries(id: "hiit", title: "HIIT", weekdays: [.saturday], time: TimeOfDay(hour: 10), duration: .minutes(45), capacity: 20, firstDate: try Gym.day("2026-11-28")))
        for i in 0..<1000 { try book.addMember(Member(id: "m\(i)", name: "Member \(i)")) }
        let scheduler = FrontDesk(book: book)
        let now = try Gym.now("2026-11-22 12:00"), saturday = try Gym.day("2026-11-28")
        let outcomes = try await withThrowingTaskGroup(of: (String, BookingOutcome).self) { group in
            for i in 0..<1000 {
                group.addTask {
                    let desk = try await scheduler.member("m\(i)")
                    return ("m\(i)", try await desk.book(classID: "hiit", on: saturday, now: now, whenFull: .joinWaitlist))
                }
            }
            var all: [String: BookingOutcome] = [:]
            for try await (member, outcome) in group { all[member] = outcome }
            return all
        }
        let final = await scheduler.book
        let roster = try final.roster(classID: "hiit", on: saturday)
        #expect(roster.confirmed.count == 20)
        #expect(roster.waitlist.count == 980)
        #expect(Set(roster.confirmed + roster.waitlist).count == 1000, "everyone once")
        // The order is the one the actor served: each task was told its place in it.
        for member in roster.confirmed { #expect(outcomes[member] == .confirmed) }
        for (i, member) in roster.waitlist.enumerated() { #expect(outcomes[member] == .waitlisted(position: i + 1)) }
        // Cancelling concurrently promotes in queue order, and capacity still holds.
        let leaving = Array(roster.confirmed.prefix(5))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for m in leaving {
                group.addTask { _ = try await scheduler.member(m).cancel(classID: "hiit", on: saturday, now: now) }
            }
            try await group.waitForAll()
        }
        let after = try await scheduler.book.roster(classID: "hiit", on: saturday)
        #expect(after.confirmed.count == 20)
        #expect(Array(after.confirmed.suffix(5)) == Array(roster.waitlist.prefix(5)))
        #expect(after.waitlist == Array(roster.waitlist.dropFirst(5)))
    }
}
