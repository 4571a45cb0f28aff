import CalendarCore
@testable import CalendarScheduling
import Foundation
import Testing
import _SchedulingTestSupport

/// Issue 44, 3: a training recorded after the fact, and the time a
/// session really ended, on the test gym (marc trains anna and pau with
/// a 0-minute buffer; laia, joan and rosa with 15).
@Suite("Trainings logged after the fact, and when a session really ended")
struct SessionLogTests {
    static func wall(_ text: String) throws -> LocalDateTime { try Gym.at(text) }
    static func date(_ text: String) throws -> Date { try Gym.now(text) }

    @Test("a past training is recorded completed, when it ended unless told otherwise; nobody is invited to it, and it reads back from the JSON form")
    func logged() throws {
        var book = try Gym.book()
        let now = try Self.date("2026-11-20 10:00")
        // Told with no time: nothing but the session's status keeps the invitation away.
        let told = try book.telling { book in
            try book.logSession(id: "l1", coach: "marc", client: "anna", start: try Self.wall("2026-11-17 19:00"), duration: .minutes(45),
                                notes: "5x5 squat 80 kg", workoutType: "Strength", now: now)
        }
        let s = told.result, ended = try Self.date("2026-11-17 19:45")
        #expect(s.status == .completed && s.completedAt == ended && s.notes == "5x5 squat 80 kg" && s.workoutType == "Strength")
        #expect(told.notices.notices.isEmpty && told.notices.untold.isEmpty, "\(told.notices)")
        #expect(try book.history(client: "anna", coach: "marc", limit: 10).map(\.id) == ["l1"])
        let at = try Self.date("2026-11-17 19:40")
        let early = try book.logSession(id: "l2", coach: "marc", client: "pau", start: try Self.wall("2026-11-16 10:00"), duration: .minutes(45), completedAt: at, now: now)
        #expect(early.completedAt == at)
        // Ending exactly now is over.
        _ = try book.logSession(id: "l3", coach: "marc", client: "pau", start: try Self.wall("2026-11-20 09:00"), duration: .minutes(60), now: now)
        let again = try JSONDecoder().decode(SchedulingBook.self, from: try JSONEncoder().encode(book))
        #expect(again == book && again.coachSessions.sessionsByID["l2"]?.completedAt == at)
    }

    @Test("refused, leaving the book as it was: not over by now, a clash with the coach or the client, a completion outside start to now, another coach's client")
    func refused() throws {
        var book = try Gym.book()
        let now = try Self.date("2026-11-20 10:00")
        try book.logSession(id: "held", coach: "marc", client: "anna", start: try Self.wall("2026-11-17 19:00"), duration: .minutes(45), now: now)
        _ = try book.addSession(id: "gone", coach: "marc", client: "pau", start: try Self.wall("2026-11-18 10:00"), duration: .minutes(60), now: try Self.date("2026-11-01 10:00"))
        try book.setStatus(.cancelled, ofSession: "gone", coach: "marc", now: now)
        let before = book
        let cases: [(String, String, String, Int, Date?, (SchedulingError) -> Bool)] = [
            ("marc", "pau", "2026-11-20 09:30", 45, nil, { if case .invalid(.start, let r) = $0 { r.contains("is still going on at 2026-11-20 10:00") } else { false } }),
            ("marc", "pau", "2026-11-21 09:30", 45, nil, { if case .invalid(.start, let r) = $0 { r.contains("has not started") } else { false } }),
            ("marc", "pau", "2026-11-17 19:30", 30, nil, { if case .clash(let c) = $0 { c.existing.id == "held" && c.reason == .coach } else { false } }),
            ("marc", "anna", "2026-11-16 19:00", 45, try Self.date("2026-11-16 18:59"), { if case .invalid(.completedAt, let r) = $0 { r.contains("cannot have been completed before that") } else { false } }),
            ("marc", "anna", "2026-11-16 19:00", 45, try Self.date("2026-11-20 10:01"), { if case .invalid(.completedAt, let r) = $0 { r.contains("still to come") } else { false } }),
            ("laia", "anna", "2026-11-16 19:00", 45, nil, { if case .unknownClient = $0 { true } else { false } }),
        ]
        for (coach, client, start, minutes, at, expected) in cases {
            let error = refusal { try book.logSession(coach: coach, client: client, start: try Self.wall(start), duration: .minutes(minutes), completedAt: at, now: now) }
            #expect(error.map(expected) == true, "\(coach) \(client) \(start): \(String(describing: error))")
            #expect(book == before)
        }
        // The client's own other session clashes too.
        let clash = refusal { try book.logSession(coach: "marc", client: "anna", start: try Self.wall("2026-11-17 19:40"), duration: .minutes(30), now: now) }
        guard case .clash(let c)? = clash else { Issue.record("\(String(describing: clash))"); return }
        #expect(c.existing.id == "held" && c.reason == .client)
        // Where a cancelled session was, and right after another: recorded.
        _ = try book.logSession(coach: "marc", client: "pau", start: try Self.wall("2026-11-18 10:00"), duration: .minutes(60), now: now)
        _ = try book.logSession(coach: "marc", client: "pau", start: try Self.wall("2026-11-17 19:45"), duration: .minutes(30), now: now)
        // Laia's 15-minute buffer is for booking time to come; back to back in the past is what happened.
        try book.logSession(coach: "laia", client: "joan", start: try Self.wall("2026-11-17 10:00"), duration: .minutes(60), now: now)
        try book.logSession(coach: "laia", client: "rosa", start: try Self.wall("2026-11-17 11:00"), duration: .minutes(60), now: now)
        #expect(refusal { try book.addSession(coach: "laia", client: "rosa", start: try Self.wall("2026-11-27 11:00"), duration: .minutes(60), now: now) } == nil)
        #expect(refusal { try book.addSession(coach: "laia", client: "joan", start: try Self.wall("2026-11-27 12:00"), duration: .minutes(60), now: now) } != nil,
                "the buffer still counts for booking")
    }

    @Test("marked completed at the time it really ended: from its start to now, only with completed, else as before")
    func completedAt() throws {
        var book = try Gym.book()
        _ = try book.addSession(id: "s1", coach: "marc", client: "anna", start: try Self.wall("2026-11-17 19:00"), duration: .minutes(60), now: try Self.date("2026-11-01 10:00"))
        let now = try Self.date("2026-11-18 08:00")
        let before = book
        for (status, at, field) in [(SessionStatus.completed, "2026-11-17 18:59", "before that"), (.completed, "2026-11-18 08:01", "still to come"), (.noShow, "2026-11-17 19:30", "only a completed session")] {
            let error = refusal { try book.setStatus(status, ofSession: "s1", coach: "marc", now: now, completedAt: try Self.date(at)) }
            guard case .invalid(.completedAt, let reason)? = error else { Issue.record("\(status) \(at): \(String(describing: error))"); continue }
            #expect(reason.contains(field), "\(reason)")
            #expect(book == before)
        }
        let at = try Self.date("2026-11-17 19:50")
        #expect(try book.setStatus(.completed, ofSession: "s1", coach: "marc", now: now, completedAt: at).completedAt == at)
        // A completed session's time corrected: only completedAt changes.
        let corrected = try Self.date("2026-11-17 19:55")
        #expect(try book.setStatus(.completed, ofSession: "s1", coach: "marc", now: now, completedAt: corrected).completedAt == corrected)
        // Undone and marked again with no time: now.
        try book.setStatus(.scheduled, ofSession: "s1", coach: "marc", now: now)
        #expect(try book.setStatus(.completed, ofSession: "s1", coach: "marc", now: now).completedAt == now)
    }

    @Test("the coach's busy time elsewhere does not refuse a log (their calendar holds that workout); a wall time the clocks skipped does")
    func elsewhereAndSkipped() throws {
        var book = try Gym.book()
        let now = try Self.date("2026-11-20 10:00")
        let busy = FreeBusyPeriod(start: Int64(try Self.date("2026-11-17 18:30").timeIntervalSince1970), end: Int64(try Self.date("2026-11-17 20:00").timeIntervalSince1970))
        try book.setBusyElsewhere([busy], coach: "marc")
        #expect(refusal { try book.addSession(coach: "marc", client: "anna", start: try Self.wall("2026-11-17 19:00"), duration: .minutes(45), now: try Self.date("2026-11-01 10:00")) } != nil,
                "booking that time is refused")
        #expect(refusal { try book.logSession(coach: "marc", client: "anna", start: try Self.wall("2026-11-17 19:00"), duration: .minutes(45), now: now) } == nil)
        let skipped = refusal { try book.logSession(coach: "marc", client: "pau", start: try Self.wall("2026-03-29 02:30"), duration: .minutes(60), now: now) }
        guard case .invalid(.start, let reason)? = skipped else { Issue.record("\(String(describing: skipped))"); return }
        #expect(reason.contains("does not exist in Europe/Madrid"), "\(reason)")
    }
}
