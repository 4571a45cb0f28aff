import CalendarCore
@testable import CalendarScheduling
import Foundation
import Testing
import _SchedulingTestSupport

/// Issue 44, 1: a member's standing booking of every date of a class in a
/// range, and its end from a date on, on the test gym (Yoga: Mondays and
/// Wednesdays at 18:30, 3 places).
@Suite("Standing bookings")
struct StandingBookingTests {
    static func now() throws -> Date { try Gym.now("2026-11-20 10:00") }

    @Test("every date the class meets in the range, booked as one booking is, each reported; a full or cancelled date never stops the others")
    func byDate() throws {
        var book = try Gym.book()
        let now = try Self.now()
        try book.cancelOccurrence(classID: "yoga", on: try Gym.day("2026-12-02"))
        for m in ["oriol", "nuria", "m1"] where m != "m1" { _ = try book.book(member: m, classID: "yoga", on: try Gym.day("2026-11-30"), now: now) }
        try book.addMember(Member(id: "m1", name: "M1"))
        _ = try book.book(member: "m1", classID: "yoga", on: try Gym.day("2026-11-30"), now: now)
        // The 23rd booked already; the 30th full; the 2nd cancelled.
        _ = try book.book(member: "marta", classID: "yoga", on: try Gym.day("2026-11-23"), now: now)
        let dates = try book.bookStanding(member: "marta", classID: "yoga", from: try Gym.day("2026-11-21"), through: try Gym.day("2026-12-07"), now: now)
        #expect(dates.map(\.date.description) == ["2026-11-23", "2026-11-25", "2026-11-30", "2026-12-02", "2026-12-07"])
        #expect(dates[0].outcome == .alreadyHeld && dates[1].outcome == .booked && dates[4].outcome == .booked)
        guard case .refused(.classFull) = dates[2].outcome, case .refused(.occurrenceCancelled) = dates[3].outcome else {
            Issue.record("\(dates.map(\.outcome))")
            return
        }
        #expect(try book.roster(classID: "yoga", on: try Gym.day("2026-12-07")).confirmed == ["marta"])
        // With the waitlist, the full date waits; again, nothing is booked twice.
        let again = try book.bookStanding(member: "marta", classID: "yoga", from: try Gym.day("2026-11-21"), through: try Gym.day("2026-12-07"), now: now, whenFull: .joinWaitlist)
        #expect(again[2].outcome == .waitlisted(position: 1) && again.filter { $0.outcome == .alreadyHeld }.count == 3)
    }

    @Test("the booking rules hold for each date: the weekly limit and the window refuse by date; a past date is refused")
    func rules() throws {
        var book = try Gym.book()
        book.classPolicy = ClassBookingPolicy(bookingWindowDays: 14, weeklyLimit: 1)
        let dates = try book.bookStanding(member: "marta", classID: "yoga", from: try Gym.day("2026-11-16"), through: try Gym.day("2026-12-09"), now: try Self.now())
        let said = dates.map { d -> String in
            switch d.outcome {
            case .booked: "booked"
            case .refused(.occurrenceInPast): "past"
            case .refused(.weeklyLimitReached): "limit"
            case .refused(.beyondBookingWindow): "window"
            default: "\(d.outcome)"
            }
        }
        // 16th and 18th past; 23rd booked, 25th over the limit; 30th booked, 2nd over; 7th and 9th beyond 14 days.
        #expect(said == ["past", "past", "booked", "limit", "booked", "limit", "window", "window"], "\(said)")
    }

    @Test("a range the wrong way round, or over a year, an unknown member or class: refused, nothing booked")
    func refusedWhole() throws {
        var book = try Gym.book()
        let before = book
        let now = try Self.now()
        for (member, classID, first, last) in [("marta", "yoga", "2026-12-07", "2026-11-30"), ("marta", "yoga", "2026-11-30", "2027-12-01"),
                                                ("nobody", "yoga", "2026-11-30", "2026-12-07"), ("marta", "boxing", "2026-11-30", "2026-12-07")] {
            #expect(refusal { _ = try book.bookStanding(member: member, classID: classID, from: try Gym.day(first), through: try Gym.day(last), now: now) } != nil)
            #expect(book == before)
        }
        // A year exactly is taken.
        #expect(try book.bookStanding(member: "marta", classID: "spin", from: try Gym.day("2026-11-21"), through: try Gym.day("2027-11-21"), now: now).count == 5,
                "spin ends on 2026-12-31: five Fridays from the 27th")
    }

    @Test("ended from a date on: each place given up (the waitlist moves up), the waiting places too, earlier dates kept; one within the cut-off is kept and said")
    func endedFromADate() throws {
        var book = try Gym.book()
        let now = try Self.now()
        _ = try book.bookStanding(member: "marta", classID: "yoga", from: try Gym.day("2026-11-23"), through: try Gym.day("2026-12-09"), now: now)
        for m in ["oriol", "nuria"] { _ = try book.book(member: m, classID: "yoga", on: try Gym.day("2026-12-07"), now: now) }
        try book.addMember(Member(id: "m1", name: "M1"))
        _ = try book.book(member: "m1", classID: "yoga", on: try Gym.day("2026-12-07"), now: now, whenFull: .joinWaitlist)
        book.classPolicy = ClassBookingPolicy(cancellationCutoff: .seconds(12 * 3600))
        // At 10:00 on the 30th: that evening's class is within the 12-hour cut-off.
        let later = try Gym.now("2026-11-30 10:00")
        let dates = try book.cancelStanding(member: "marta", classID: "yoga", from: try Gym.day("2026-11-30"), now: later)
        #expect(dates.map(\.date.description) == ["2026-11-30", "2026-12-02", "2026-12-07", "2026-12-09"])
        guard case .refused(.cancellationTooLate) = dates[0].outcome else { Issue.record("\(dates[0].outcome)"); return }
        #expect(dates[2].outcome == .cancelled(Cancellation(heldPlace: true, promoted: "m1")))
        #expect(try book.bookings(member: "marta").map(\.id.date.description) == ["2026-11-23", "2026-11-25", "2026-11-30"])
        #expect(try book.cancelStanding(member: "marta", classID: "yoga", from: try Gym.day("2026-12-01"), now: later).isEmpty, "nothing left to give up")
    }

    @Test("a date is chosen by the day the class meets: a moved occurrence by its new day, in order; one held or waited for already is said so, even in the past")
    func movedAndHeld() throws {
        var book = try Gym.book()
        let now = try Self.now()
        // Wednesday 2 December's class moved to Sunday 29 November; Monday 7 December's to Saturday 12 December, past the range.
        try book.moveOccurrence(classID: "yoga", on: try Gym.day("2026-12-02"), to: try Gym.at("2026-11-29 10:00"))
        try book.moveOccurrence(classID: "yoga", on: try Gym.day("2026-12-07"), to: try Gym.at("2026-12-12 10:00"))
        _ = try book.book(member: "marta", classID: "yoga", on: try Gym.day("2026-11-18"), now: try Gym.now("2026-11-10 10:00"))
        for m in ["oriol", "nuria"] { _ = try book.book(member: m, classID: "yoga", on: try Gym.day("2026-11-23"), now: now) }
        try book.addMember(Member(id: "m1", name: "M1"))
        _ = try book.book(member: "m1", classID: "yoga", on: try Gym.day("2026-11-23"), now: now)
        _ = try book.book(member: "marta", classID: "yoga", on: try Gym.day("2026-11-23"), now: now, whenFull: .joinWaitlist)
        let dates = try book.bookStanding(member: "marta", classID: "yoga", from: try Gym.day("2026-11-18"), through: try Gym.day("2026-12-09"), now: now)
        #expect(dates.map(\.date.description) == ["2026-11-18", "2026-11-23", "2026-11-25", "2026-12-02", "2026-11-30", "2026-12-09"], "by the day each meets")
        #expect(dates.map { $0.occurrence?.start.date.description ?? "" } == ["2026-11-18", "2026-11-23", "2026-11-25", "2026-11-29", "2026-11-30", "2026-12-09"])
        #expect(dates[0].outcome == .alreadyHeld, "a past date she holds is hers, not refused")
        #expect(dates[1].outcome == .alreadyWaiting(position: 1))
        // Given up from the 29th on, by the day it meets: the moved class too.
        let ended = try book.cancelStanding(member: "marta", classID: "yoga", from: try Gym.day("2026-11-29"), now: now)
        #expect(ended.map { $0.occurrence?.start.date.description ?? "" } == ["2026-11-29", "2026-11-30", "2026-12-09"])
    }
}
