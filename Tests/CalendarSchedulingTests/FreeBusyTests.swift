import CalendarCore
import CalendarScheduling
import Foundation
import Testing
import _SchedulingTestSupport

/// Issue 32, 4 and 5: a coach's free/busy time out, and their own
/// calendar's busy time in, honoured by free slots and clash checks.
@Suite("Free and busy")
struct FreeBusyTests {
    let now = Date(timeIntervalSince1970: 1_795_165_200)  // 2026-11-20 10:00 in Madrid

    func utc(_ text: String) throws -> Int64 {
        try CalendarTime(icalValue: text).epochSeconds(floatingZone: .utc)
    }

    @Test("sessions with the buffer are BUSY, the hours not worked BUSY-UNAVAILABLE, each instant said once; a cancelled session holds no time")
    func out() throws {
        var book = try Gym.book()
        try book.addSession(id: "s1", coach: "laia", client: "joan", startingAt: try Gym.now("2026-11-26 10:00"), duration: .minutes(60), now: now)
        try book.addSession(id: "s2", coach: "laia", client: "joan", startingAt: try Gym.now("2026-11-26 12:45"), duration: .minutes(30), now: now)
        try book.addSession(id: "s3", coach: "laia", client: "joan", startingAt: try Gym.now("2026-11-26 17:00"), duration: .minutes(30), now: now)
        try book.setStatus(.cancelled, ofSession: "s3", coach: "laia", now: now)
        let day = DateInterval(start: try Gym.now("2026-11-26 00:00"), end: try Gym.now("2026-11-27 00:00"))
        let periods = try book.freeBusy(coach: "laia", in: day)
        // Laia works 09:00-13:00 and 16:00-20:00 with a 15-minute buffer; Madrid is UTC+1.
        #expect(periods == [
            FreeBusyPeriod(start: try utc("20261125T230000Z"), end: try utc("20261126T080000Z"), kind: .busyUnavailable),
            FreeBusyPeriod(start: try utc("20261126T084500Z"), end: try utc("20261126T101500Z"), kind: .busy),
            FreeBusyPeriod(start: try utc("20261126T113000Z"), end: try utc("20261126T123000Z"), kind: .busy),
            FreeBusyPeriod(start: try utc("20261126T123000Z"), end: try utc("20261126T150000Z"), kind: .busyUnavailable),
            FreeBusyPeriod(start: try utc("20261126T190000Z"), end: try utc("20261126T230000Z"), kind: .busyUnavailable),
        ])
        #expect(throws: SchedulingError.unknownCoach("nobody")) { _ = try book.freeBusy(coach: "nobody", in: day) }
    }

    @Test("time busy elsewhere is left out of the free slots, and a session that touches it (with the buffer) is refused, code 28")
    func elsewhere() throws {
        var book = try Gym.book()
        let dentist = FreeBusyPeriod(start: try utc("20261126T090000Z"), end: try utc("20261126T100000Z"))  // 10:00-11:00 in Madrid
        try book.setBusyElsewhere([dentist, FreeBusyPeriod(start: try utc("20261126T150000Z"), end: try utc("20261126T190000Z"), kind: .free)], coach: "marc")
        #expect(book.busyElsewhere(coach: "marc") == [dentist])
        let slots = try book.freeSlots(coach: "marc", from: try Gym.day("2026-11-26"), through: try Gym.day("2026-11-26"), length: .minutes(60))
        #expect(slots.map { String(format: "%02d:%02d", $0.start.hour, $0.start.minute) } == ["09:00", "11:00", "12:00", "16:00", "17:00", "18:00", "19:00"])
        let refused = refusal {
            try book.addSession(coach: "marc", client: "anna", startingAt: try Gym.now("2026-11-26 10:30"), duration: .minutes(45), now: now)
        }
        #expect(refused == .busyElsewhere(coach: "marc", start: try Gym.at("2026-11-26 10:00"), end: try Gym.at("2026-11-26 11:00"), buffer: .zero))
        #expect(refused?.errorCode == 28)
        #expect(refused?.description == "coach ‘marc’ is busy elsewhere Thu 2026-11-26 10:00–11:00 (their own calendar); pick a time when they are free (sessions free lists them)")
        // The busy time is not the book's: a saved book does not keep it.
        let saved = try JSONDecoder().decode(SchedulingBook.self, from: try JSONEncoder().encode(book))
        #expect(saved.busyElsewhere(coach: "marc").isEmpty)
        #expect(try book.freeBusy(coach: "marc", in: DateInterval(start: try Gym.now("2026-11-26 09:00"), end: try Gym.now("2026-11-26 13:00")))
                == [FreeBusyPeriod(start: try utc("20261126T090000Z"), end: try utc("20261126T100000Z"))])
    }
}
