import CalendarCore
import CalendarScheduling
import Foundation
import Testing
import _SchedulingTestSupport

/// Issue 31, 3: closing the gym for a holiday, and its opening hours. The
/// gym (`Gym.book()`) has Yoga on Monday and Wednesday at 18:30 (3 places)
/// and Spinning on Friday at 07:00 until 2026-12-31.
@Suite("Closures and opening hours")
struct ClosureTests {
    /// 2026-11-20 10:00 in Madrid, when the bookings are made.
    let booked = Date(timeIntervalSince1970: 1_795_165_200)

    /// The gym with Yoga on Wednesday 2026-12-23 full and one waiting, and
    /// Spinning on Friday 2026-12-25 with one place taken.
    func bookedGym() throws -> SchedulingBook {
        var book = try Gym.book()
        try book.addMember(Member(id: "quim", name: "Quim Puig"))
        let wednesday = try Gym.day("2026-12-23")
        for m in ["marta", "oriol", "nuria"] { try book.book(member: m, classID: "yoga", on: wednesday, now: booked) }
        try book.book(member: "quim", classID: "yoga", on: wednesday, now: booked, whenFull: .joinWaitlist)
        try book.book(member: "oriol", classID: "spin", on: try Gym.day("2026-12-25"), now: booked)
        return book
    }

    @Test("closing cancels every occurrence in the range, lists who held or waited for a place, and releases those places")
    func closeCancelsAndReleases() throws {
        var book = try bookedGym()
        let closure = try GymClosure(first: Gym.day("2026-12-23"), last: Gym.day("2026-12-26"), reason: "Christmas")
        let report = try book.close(closure)
        #expect(report.cancelled == [.init(classID: "yoga", date: try Gym.day("2026-12-23")), .init(classID: "spin", date: try Gym.day("2026-12-25"))])
        #expect(report.affected == [
            AffectedBookings(occurrence: .init(classID: "yoga", date: try Gym.day("2026-12-23")), confirmed: ["marta", "oriol", "nuria"], waitlisted: ["quim"]),
            AffectedBookings(occurrence: .init(classID: "spin", date: try Gym.day("2026-12-25")), confirmed: ["oriol"], waitlisted: []),
        ])
        #expect(report.members == ["marta", "oriol", "nuria", "quim"])
        let yoga = try book.occurrence(classID: "yoga", on: try Gym.day("2026-12-23"))
        #expect(yoga.isCancelled && yoga.closure == closure && yoga.booked == 0 && yoga.waiting == 0)
        #expect(try book.bookings(member: "oriol").isEmpty && book.waitlists(member: "quim").isEmpty)
        // The days around it meet as before.
        #expect(try !book.occurrence(classID: "yoga", on: try Gym.day("2026-12-21")).isCancelled)
        #expect(try !book.occurrence(classID: "yoga", on: try Gym.day("2026-12-28")).isCancelled)
        let (saturday, sunday) = (try Gym.day("2026-12-26"), try Gym.day("2026-12-27"))
        #expect(book.closures == [closure] && book.closure(on: saturday) == closure && book.closure(on: sunday) == nil)
    }

    @Test("a closed date refuses a booking, a move there or of its occurrence, a cancel, and a new session, each naming the closure; nothing changes")
    func closedDateRefuses() throws {
        var book = try bookedGym()
        let closure = try GymClosure(first: Gym.day("2026-12-24"), last: Gym.day("2026-12-25"), reason: "Christmas")
        try book.close(closure)
        let before = book
        let friday = try Gym.day("2026-12-25")
        let booking = refusal { try book.book(member: "marta", classID: "spin", on: friday, now: booked) }
        #expect(booking == .gymClosed(what: "Spinning", date: friday, closure: closure))
        #expect(booking?.description == "Spinning cannot take place on 2026-12-25: the gym is closed 2026-12-24 to 2026-12-25 (Christmas); pick a date when it is open")
        #expect(booking?.errorCode == 26)
        #expect(refusal { try book.moveOccurrence(classID: "yoga", on: try Gym.day("2026-12-23"), to: try Gym.at("2026-12-24 18:30")) }
                == .gymClosed(what: "Yoga", date: try Gym.day("2026-12-24"), closure: closure))
        #expect(refusal { try book.cancelOccurrence(classID: "spin", on: friday) } == .gymClosed(what: "Spinning", date: friday, closure: closure))
        #expect(refusal { try book.updateClass({ var s = try book.classSeries("yoga"); s.changes[try Gym.day("2026-12-28")] = .moved(to: try Gym.at("2026-12-24 18:30"), duration: .minutes(60)); return s }()) }
                == .gymClosed(what: "Yoga", date: try Gym.day("2026-12-24"), closure: closure))
        let session = refusal { try book.addSession(coach: "marc", client: "anna", start: try Gym.at("2026-12-24 10:00"), duration: .minutes(60), now: booked) }
        #expect(session == .gymClosed(what: "a session", date: try Gym.day("2026-12-24"), closure: closure))
        #expect(book == before)
        // Moved out of the closure, to a day the gym is open, the occurrence meets there.
        try book.moveOccurrence(classID: "spin", on: friday, to: try Gym.at("2026-12-26 07:00"))
        let moved = try book.occurrence(classID: "spin", on: friday)
        let saturday = try Gym.at("2026-12-26 07:00")
        #expect(!moved.isCancelled && moved.closure == nil && moved.start == saturday)
        try book.book(member: "marta", classID: "spin", on: friday, now: booked)
    }

    @Test("opening again gives the timetable back but not the places; opening part of a closure splits it; opening an open date is refused")
    func openRestoresTimetableNotBookings() throws {
        var book = try bookedGym()
        try book.close(try GymClosure(first: Gym.day("2026-12-23"), last: Gym.day("2026-12-26"), reason: "Christmas"))
        let opened = try book.open(from: try Gym.day("2026-12-23"), through: try Gym.day("2026-12-23"))
        #expect(opened == [try GymClosure(first: Gym.day("2026-12-23"), last: Gym.day("2026-12-23"), reason: "Christmas")])
        #expect(book.closures == [try GymClosure(first: Gym.day("2026-12-24"), last: Gym.day("2026-12-26"), reason: "Christmas")])
        let yoga = try book.occurrence(classID: "yoga", on: try Gym.day("2026-12-23"))
        #expect(!yoga.isCancelled && yoga.closure == nil && yoga.booked == 0 && yoga.waiting == 0)
        #expect(try book.bookings(member: "marta").isEmpty)
        try book.book(member: "marta", classID: "yoga", on: try Gym.day("2026-12-23"), now: booked)
        // A closure split by opening its middle.
        try book.open(from: try Gym.day("2026-12-25"), through: try Gym.day("2026-12-25"))
        #expect(book.closures.map(\.datesText) == ["2026-12-24", "2026-12-26"])
        #expect(try !book.occurrence(classID: "spin", on: try Gym.day("2026-12-25")).isCancelled)
        #expect(refusal { try book.open(from: try Gym.day("2027-01-04"), through: try Gym.day("2027-01-10")) }
                == .invalid(field: .closure, reason: "the gym is not closed on any date from 2027-01-04 to 2027-01-10"))
        // An occurrence cancelled before the closure comes back with the timetable: the closure took its place.
        var other = try Gym.book()
        try other.cancelOccurrence(classID: "yoga", on: try Gym.day("2026-12-28"))
        try other.close(try GymClosure(first: Gym.day("2026-12-28"), last: Gym.day("2026-12-28"), reason: "Works"))
        try other.open(from: try Gym.day("2026-12-28"), through: try Gym.day("2026-12-28"))
        #expect(try !other.occurrence(classID: "yoga", on: try Gym.day("2026-12-28")).isCancelled)
    }

    @Test("an occurrence moved off a closed date still meets, with its places; one moved onto it is cancelled for good and its members listed")
    func movedOccurrences() throws {
        var off = try Gym.book()
        let wednesday = try Gym.day("2026-12-23")
        try off.book(member: "oriol", classID: "yoga", on: wednesday, now: booked)
        try off.moveOccurrence(classID: "yoga", on: wednesday, to: try Gym.at("2026-12-22 18:30"))
        let kept = try off.close(try GymClosure(first: wednesday, last: wednesday, reason: "Boiler"))
        #expect(kept.cancelled.isEmpty && kept.members.isEmpty)
        let o = try off.occurrence(classID: "yoga", on: wednesday)
        let tuesday = try Gym.at("2026-12-22 18:30")
        #expect(!o.isCancelled && o.booked == 1 && o.start == tuesday)

        var book = try Gym.book()
        let monday = try Gym.day("2026-12-21")
        try book.book(member: "marta", classID: "yoga", on: monday, now: booked)
        try book.moveOccurrence(classID: "yoga", on: monday, to: try Gym.at("2026-12-22 18:30"))
        let report = try book.close(try GymClosure(first: Gym.day("2026-12-22"), last: Gym.day("2026-12-22"), reason: "Boiler"))
        #expect(report.cancelled == [.init(classID: "yoga", date: monday)])
        #expect(report.members == ["marta"])
        let gone = try book.occurrence(classID: "yoga", on: monday)
        #expect(gone.isCancelled && gone.closure == nil)
        try book.open(from: try Gym.day("2026-12-22"), through: try Gym.day("2026-12-22"))
        #expect(try book.occurrence(classID: "yoga", on: monday).isCancelled)
    }

    @Test("bad closures: backwards, ten years, no reason, a reason of 10,000 characters or two lines, overlapping another; each a clear error, nothing changed")
    func badClosures() throws {
        let d = { (t: String) throws -> LocalDate in try Gym.day(t) }
        #expect(throws: SchedulingError.invalid(field: .closure, reason: "2026-12-26..2026-12-24 ends before it starts; write the earlier date first")) {
            try GymClosure(first: d("2026-12-26"), last: d("2026-12-24"), reason: "Christmas")
        }
        #expect(throws: SchedulingError.invalid(field: .closure, reason: "2026-01-01..2035-12-31 is 3652 days; close the gym for 366 days at most at a time")) {
            try GymClosure(first: d("2026-01-01"), last: d("2035-12-31"), reason: "Works")
        }
        _ = try GymClosure(first: d("2028-01-01"), last: d("2028-12-31"), reason: "A leap year")  // 366 days
        #expect(throws: SchedulingError.invalid(field: .reason, reason: "a closure needs a reason for the members, such as ‘Christmas’")) {
            try GymClosure(first: d("2026-12-24"), last: d("2026-12-24"), reason: "  ")
        }
        #expect(throws: SchedulingError.invalid(field: .reason, reason: "the reason is 10000 characters; say it in 255 at most")) {
            try GymClosure(first: d("2026-12-24"), last: d("2026-12-24"), reason: String(repeating: "x", count: 10_000))
        }
        #expect(throws: SchedulingError.self) { try GymClosure(first: d("2026-12-24"), last: d("2026-12-24"), reason: "Christmas\nX-INJECTED:1") }
        var book = try Gym.book()
        try book.close(try GymClosure(first: d("2026-12-24"), last: d("2026-12-26"), reason: "Christmas"))
        let before = book
        #expect(refusal { try book.close(try GymClosure(first: d("2026-12-26"), last: d("2026-12-31"), reason: "New Year")) }
                == .invalid(field: .closure, reason: "the gym is already closed 2026-12-24 to 2026-12-26 (Christmas); open those dates first, or close others"))
        #expect(book == before)
    }

    @Test("a closure and the opening hours survive the book's JSON; overlapping closures in JSON are refused")
    func json() throws {
        var book = try Gym.book()
        try book.close(try GymClosure(first: Gym.day("2026-12-24"), last: Gym.day("2026-12-26"), reason: "Christmas"))
        var hours = WorkingHours()
        try hours.set([TimeRange(parsing: "07:00-22:00")], on: [.monday, .tuesday, .wednesday, .thursday, .friday])
        book.openingHours = hours
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(book)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""closures":[{"first":"2026-12-24","last":"2026-12-26","reason":"Christmas"}]"#))
        let again = try JSONDecoder().decode(SchedulingBook.self, from: data)
        #expect(again == book)
        #expect(try again.occurrence(classID: "spin", on: try Gym.day("2026-12-25")).closure?.reason == "Christmas")
        // A roster on a closed date (JSON edited by hand) is not kept: the occurrence does not meet.
        let rostered = text.replacingOccurrences(of: #""rosters":[]"#, with: #""rosters":[{"booked":["marta"],"classID":"spin","date":"2026-12-25","waiting":[]}]"#)
        #expect(rostered != text)
        let restored = try JSONDecoder().decode(SchedulingBook.self, from: Data(rostered.utf8))
        #expect(try restored.bookings(member: "marta").isEmpty)
        let overlapping = text.replacingOccurrences(of: #"[{"first":"2026-12-24""#, with: #"[{"first":"2026-12-25","last":"2026-12-28","reason":"Works"},{"first":"2026-12-24""#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SchedulingBook.self, from: Data(overlapping.utf8)) }
    }

    @Test("opening hours: a new class, a changed one, a moved occurrence and a new or moved session must fit them, refused with the hours named; what the book holds stays")
    func openingHours() throws {
        var book = try Gym.book()
        var hours = WorkingHours()
        try hours.set([TimeRange(parsing: "07:00-14:00"), TimeRange(parsing: "16:00-22:00")], on: [.monday, .tuesday, .wednesday, .thursday, .friday])
        try hours.set([TimeRange(parsing: "09:00-14:00")], on: [.saturday])
        try hours.set([TimeRange(parsing: "09:00-12:00")], onDate: try Gym.day("2026-12-24"))
        book.openingHours = hours
        let before = book
        let late = ClassSeries(id: "late", title: "Late yoga", weekdays: [.tuesday, .saturday], time: try TimeOfDay(parsing: "13:30"), duration: .minutes(60),
                               capacity: 5, firstDate: try Gym.day("2026-12-01"))
        let refused = refusal { try book.addClass(late) }
        #expect(refused == .outsideOpeningHours(what: "Late yoga", when: "on Tuesdays", start: "13:30", end: "14:30",
                                                hours: [try TimeRange(parsing: "07:00-14:00"), try TimeRange(parsing: "16:00-22:00")]))
        #expect(refused?.description == "Late yoga on Tuesdays from 13:30 to 14:30 is outside the gym's opening hours (on Tuesdays: 07:00-14:00, 16:00-22:00); pick a time within them")
        #expect(refused?.errorCode == 27)
        var sunday = late
        sunday.weekdays = [.sunday]
        sunday.time = try TimeOfDay(parsing: "10:00")
        #expect(refusal { try book.addClass(sunday) }?.description == "Late yoga on Sundays from 10:00 to 11:00 is outside the gym's opening hours (on Sundays: closed); pick a day the gym is open")
        #expect(refusal { try book.changeClass("yoga", from: try Gym.day("2026-12-01"), ClassChange(time: try TimeOfDay(parsing: "21:30"))) }
                == .outsideOpeningHours(what: "Yoga", when: "on Mondays", start: "21:30", end: "22:30", hours: hours.weekly[.monday] ?? []))
        #expect(refusal { try book.moveOccurrence(classID: "yoga", on: try Gym.day("2026-12-07"), to: try Gym.at("2026-12-07 14:30")) } != nil)
        // A date's own hours decide that date.
        #expect(refusal { try book.addSession(coach: "marc", client: "anna", start: try Gym.at("2026-12-24 12:00"), duration: .minutes(60), now: booked) }
                == .outsideOpeningHours(what: "a session", when: "on 2026-12-24", start: "12:00", end: "13:00", hours: [try TimeRange(parsing: "09:00-12:00")]))
        #expect(book == before)
        // Inside them, all is taken; Spinning at 07:00 on Fridays, there before the hours, stays.
        try book.addSession(coach: "marc", client: "anna", start: try Gym.at("2026-12-24 10:00"), duration: .minutes(60), now: booked)
        var fits = late
        fits.time = try TimeOfDay(parsing: "09:00")
        try book.addClass(fits)
        try book.moveOccurrence(classID: "yoga", on: try Gym.day("2026-12-07"), to: try Gym.at("2026-12-07 17:00"))
        #expect(try book.classSeries("spin").time == TimeOfDay(parsing: "07:00"))
        // A change that leaves time, length and days alone is not held to the hours (Spinning at 07:00 stays bookable with fewer places).
        var spin = try book.classSeries("spin")
        spin.capacity = 12
        try book.updateClass(spin)
        // No hours at all is no limit, as nil is.
        book.openingHours = WorkingHours()
        #expect(book.openingHours == nil)
    }

    @Test("new opening hours that would leave a class, a moved occurrence or a session still to come outside them are refused, naming each; what took place before now never counts (issue 41, 5)")
    func hoursThatExcludeWhatIsBooked() throws {
        var book = try Gym.book()
        let late = ClassSeries(id: "late", title: "Late spin", weekdays: [.thursday], time: try TimeOfDay(parsing: "23:30"), duration: .minutes(60),
                               capacity: 8, firstDate: try Gym.day("2026-11-01"))
        try book.addClass(late)
        try book.moveOccurrence(classID: "yoga", on: try Gym.day("2026-12-07"), to: try Gym.at("2026-12-07 21:30"))
        let session = try book.addSession(coach: "marc", client: "anna", start: try Gym.at("2026-12-02 19:00"), duration: .minutes(60), now: booked)
        var hours = WorkingHours()
        try hours.set([TimeRange(parsing: "07:00-19:30")], on: [.monday, .tuesday, .wednesday, .thursday, .friday])
        let before = book
        let refused = refusal { try book.setOpeningHours(hours, now: try Gym.now("2026-11-25 10:00")) }
        #expect(refused == .invalid(field: .openingHours, reason: "these would fall outside the new hours: Late spin on Thursdays from 23:30 to 00:30 the next day; "
            + "Yoga (moved) on 2026-12-07 from 21:30 to 22:30; session ‘\(session.id)’ on 2026-12-02 from 19:00 to 20:00; move, end or cancel them first, or choose hours that hold them"))
        #expect(book == before)
        // Later, the move and the session are history; the late class still meets every Thursday.
        #expect(refusal { try book.setOpeningHours(hours, now: try Gym.now("2026-12-08 10:00")) }
                == .invalid(field: .openingHours, reason: "these would fall outside the new hours: Late spin on Thursdays from 23:30 to 00:30 the next day; move, end or cancel them first, or choose hours that hold them"))
        // Ended before now, it is history too, and the hours are set.
        var ended = try book.classSeries("late")
        ended.lastDate = try Gym.day("2026-11-30")
        try book.updateClass(ended)
        try book.setOpeningHours(hours, now: try Gym.now("2026-12-08 10:00"))
        #expect(book.openingHours == hours)
        // Hours that hold everything, and none, are always taken.
        var always = WorkingHours()
        try always.set([TimeRange(parsing: "00:00-24:00")], on: Weekday.allCases)
        var fresh = before
        try fresh.setOpeningHours(always, now: try Gym.now("2026-11-25 10:00"))
        #expect(fresh.openingHours == always)
        try fresh.setOpeningHours(nil, now: try Gym.now("2026-11-25 10:00"))
        #expect(fresh.openingHours == nil)
    }

    @Test("opening hours through midnight: a session may run into the next day where the gym is open from midnight; a day the clocks go back counts its hour")
    func hoursAcrossMidnightAndClockChanges() throws {
        var book = try Gym.book()
        var hours = WorkingHours()
        try hours.set([TimeRange(parsing: "00:00-24:00")], on: Weekday.allCases)
        book.openingHours = hours
        try book.addSession(coach: "marc", client: "anna", start: try Gym.at("2026-11-27 23:30"), duration: .minutes(60), now: booked)
        var late = WorkingHours()
        try late.set([TimeRange(parsing: "08:00-24:00")], on: Weekday.allCases)
        book.openingHours = late
        #expect(refusal { try book.addSession(coach: "marc", client: "pau", start: try Gym.at("2026-11-27 23:30"), duration: .minutes(60), now: booked) }
                == .outsideOpeningHours(what: "a session", when: "on 2026-11-27", start: "23:30", end: "00:30 the next day", hours: [try TimeRange(parsing: "08:00-24:00")]))
        // 2026-10-25 in Madrid: 02:00–03:00 happens twice. Open until 02:30, a session from 01:30 for 90 minutes ends at 02:00 on the clock (the second time), inside.
        var night = WorkingHours()
        try night.set([TimeRange(parsing: "00:00-02:30")], on: [.sunday])
        book.openingHours = night
        try book.addSession(coach: "laia", client: "joan", start: try Gym.at("2026-10-25 01:30"), duration: .minutes(90), now: try Gym.now("2026-10-01 10:00"))
    }

    @Test("with now, a closure over days gone by is refused and the classes that took place keep who came; one from today on is made")
    func notThePast() throws {
        var book = try bookedGym()
        let before = book
        let christmasEve = try Gym.now("2026-12-24 09:00")
        let past = try GymClosure(first: Gym.day("2026-12-23"), last: Gym.day("2026-12-26"), reason: "Oops")
        let refused = refusal { try book.close(past, now: christmasEve) }
        guard case .invalid(.closure, let why)? = refused else { Issue.record("not refused: \(String(describing: refused))"); return }
        #expect(why == "2026-12-23 has passed (today is 2026-12-24 on the gym's clocks): close from today on, so the classes that took place keep who came")
        #expect(book == before)
        let fromToday = try GymClosure(first: Gym.day("2026-12-24"), last: Gym.day("2026-12-26"), reason: "Christmas")
        #expect(try book.close(fromToday, now: christmasEve).cancelled == [.init(classID: "spin", date: try Gym.day("2026-12-25"))])
        // Today, once a class has met, is refused too: the closure takes the whole day.
        let monday = try GymClosure(first: Gym.day("2026-12-28"), last: Gym.day("2026-12-28"), reason: "Pipes")
        guard case .invalid(.closure, let met)? = refusal({ try book.close(monday, now: try Gym.now("2026-12-28 20:00")) }) else { Issue.record("closed after Yoga met"); return }
        #expect(met == "Yoga met today already at 18:30 and keeps who came: close from tomorrow, 2026-12-29, and cancel today's later classes one by one")
        #expect(try book.close(monday, now: try Gym.now("2026-12-28 09:00")).cancelled == [.init(classID: "yoga", date: try Gym.day("2026-12-28"))])
        #expect(try book.roster(classID: "yoga", on: Gym.day("2026-12-23")).confirmed == ["marta", "oriol", "nuria"])
    }

    @Test("a closure ending on the last date a date holds is made, and does not hang")
    func lastDate() throws {
        var book = try Gym.book()
        let last = LocalDate(dayNumber: Int.max / 2)
        let closure = try GymClosure(first: last.adding(days: -10), last: last, reason: "The end")
        try book.close(closure)
        #expect(book.closures == [closure])
    }
}
