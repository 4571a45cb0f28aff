import CalendarCore
@testable import CalendarScheduling
import Foundation
import Testing
import _SchedulingTestSupport

/// Issue 44, 1: a client who trains every Tuesday (Gorilla Coach, Remote
/// Trainer). On the test gym: marc trains anna and pau (hours 09–13 and
/// 16–20 on weekdays, no buffer); Madrid's clocks, which go back on
/// 2026-10-25 and forward on 2027-03-28.
@Suite("Repeating sessions: every date booked or refused alone, this and following")
struct RepeatingSessionTests {
    static func wall(_ text: String) throws -> LocalDateTime { try Gym.at(text) }
    static func date(_ text: String) throws -> Date { try Gym.now(text) }
    static func rule(_ text: String) throws -> RecurrenceRule { try RecurrenceRule(parsing: text) }

    @Test("each date a session of its own, named by its date, one invitation each; a clash or a closed day refuses that date alone")
    func booked() throws {
        var book = try Gym.book()
        let now = try Self.date("2026-11-20 10:00")
        _ = try book.addSession(id: "pau-1215", coach: "marc", client: "pau", start: try Self.wall("2026-12-15 18:30"), duration: .minutes(45), now: now)
        _ = try book.close(try GymClosure(first: try Gym.day("2026-12-29"), last: try Gym.day("2026-12-29"), reason: "Maintenance"), now: now)
        let told = try book.telling(now: now) { book in
            try book.addRepeatingSession(series: "anna-tue", coach: "marc", client: "anna", start: try Self.wall("2026-12-01 18:00"),
                                         duration: .minutes(60), repeating: try Self.rule("FREQ=WEEKLY;COUNT=6"), location: "Gimnàs Sants", now: now)
        }
        let dates = told.result
        #expect(dates.map(\.start.description) == ["2026-12-01T18:00:00", "2026-12-08T18:00:00", "2026-12-15T18:00:00",
                                                  "2026-12-22T18:00:00", "2026-12-29T18:00:00", "2027-01-05T18:00:00"])
        #expect(dates.compactMap(\.session).map(\.id) == ["anna-tue-20261201", "anna-tue-20261208", "anna-tue-20261222", "anna-tue-20270105"])
        guard case .refused(.clash(let clash)) = dates[2].outcome else { Issue.record("\(dates[2])"); return }
        #expect(clash.existing.id == "pau-1215")
        guard case .refused(.gymClosed) = dates[4].outcome else { Issue.record("\(dates[4])"); return }
        #expect(try book.sessions(series: "anna-tue", coach: "marc").allSatisfy { $0.series == "anna-tue" && $0.location == "Gimnàs Sants" })
        #expect(told.notices.notices.filter { $0.method == .request }.count == 4, "one invitation per session booked: \(told.notices.notices.count)")

        // The JSON form keeps the series.
        let again = try JSONDecoder().decode(SchedulingBook.self, from: try JSONEncoder().encode(book))
        #expect(again == book && again.coachSessions.sessionsByID["anna-tue-20261208"]?.series == "anna-tue")
    }

    @Test("the wall time holds across a change of the clocks; a time the clocks skip meets an hour on; twice a day, the ID has the time")
    func clocks() throws {
        var book = try Gym.book()
        book.policy = nil
        var hours = WorkingHours()
        try hours.set([TimeRange(parsing: "00:00-23:59")], on: Weekday.allCases)
        var marc = try book.coach("marc")
        marc.workingHours = hours
        try book.updateCoach(marc)
        let now = try Self.date("2026-10-01 10:00")
        let weekly = try book.addRepeatingSession(series: "w", coach: "marc", client: "anna", start: try Self.wall("2026-10-18 18:00"),
                                                  duration: .minutes(60), repeating: try Self.rule("FREQ=WEEKLY;COUNT=2"), now: now)
        #expect(weekly.compactMap(\.session).map { book.instant(of: $0) - book.instant(try! Self.wall("2026-10-18 18:00")) } == [0, 7 * 86_400 + 3600],
                "18:00 both weeks: one hour more between them, the clocks went back")
        // With no policy, a time the clocks skip is kept as the rule gives it and meets an hour on
        // (RFC 5545 §3.3.5: read with the offset before the gap, 03:30 CEST, 24 hours after 02:30 CET).
        let gap = try book.addRepeatingSession(series: "g", coach: "marc", client: "pau", start: try Self.wall("2027-03-27 02:30"),
                                               duration: .minutes(30), repeating: try Self.rule("FREQ=DAILY;COUNT=2"), now: now).compactMap(\.session)
        #expect(gap.map(\.start.description) == ["2027-03-27T02:30:00", "2027-03-28T02:30:00"])
        #expect(book.instant(of: gap[1]) - book.instant(of: gap[0]) == 86_400)
        // The night the clocks go back: the later 02:30 typed, the first of the later dates.
        let fold = try book.addRepeatingSession(series: "f", coach: "marc", client: "pau", start: try Self.wall("2026-10-25 02:30"), isLaterOfRepeatedTime: true,
                                                duration: .minutes(20), repeating: try Self.rule("FREQ=WEEKLY;COUNT=2"), now: now).compactMap(\.session)
        #expect(fold.map(\.isLaterOfRepeatedTime) == [true, false])
        let twice = try book.addRepeatingSession(series: "t", coach: "marc", client: "pau", start: try Self.wall("2026-11-02 09:00"),
                                                 duration: .minutes(30), repeating: try Self.rule("FREQ=DAILY;BYHOUR=9,17;COUNT=3"), now: now)
        #expect(twice.compactMap(\.session).map(\.id) == ["t-20261102T0900", "t-20261102T1700", "t-20261103"])
    }

    @Test("a time the clocks skip is refused on that date as the policy says; UNTIL as a date is through that day; a year by dates")
    func ends() throws {
        var book = try Gym.book()
        book.policy = SchedulingPolicy(withinWorkingHours: false, notInPast: false, refuseSkippedTimes: true)
        let now = try Self.date("2026-11-20 10:00")
        let dst = try book.addRepeatingSession(series: "dst", coach: "marc", client: "pau", start: try Self.wall("2027-03-21 02:30"),
                                               duration: .minutes(30), repeating: try Self.rule("FREQ=WEEKLY;COUNT=2"), now: now)
        #expect(dst.map(\.id) == ["dst-20270321", "dst-20270328"] && dst[0].session != nil)
        guard case .refused(.refusedByPolicy(.skippedTime)) = dst[1].outcome else { Issue.record("\(dst[1])"); return }
        let until = try book.addRepeatingSession(series: "u", coach: "marc", client: "anna", start: try Self.wall("2026-12-01 18:00"),
                                                 duration: .minutes(60), repeating: try Self.rule("FREQ=WEEKLY;UNTIL=20261215"), now: now)
        #expect(until.compactMap(\.session).map(\.id) == ["u-20261201", "u-20261208", "u-20261215"])
        // The same day a year on (366 days across a 29 February) is within a year; a month more is not.
        let year = try book.addRepeatingSession(series: "m", coach: "marc", client: "anna", start: try Self.wall("2027-03-01 10:00"),
                                                duration: .minutes(60), repeating: try Self.rule("FREQ=MONTHLY;COUNT=13"), now: now)
        #expect(year.last?.id == "m-20280301")
        let long = refusal { _ = try book.addRepeatingSession(series: "m2", coach: "marc", client: "anna", start: try Self.wall("2027-03-01 11:00"),
                                                              duration: .minutes(60), repeating: try Self.rule("FREQ=MONTHLY;COUNT=14"), now: now) }
        #expect({ if case .invalid(.rule, let r)? = long { r.contains("runs to 2028-04-01, more than a year after") } else { false } }(), "\(String(describing: long))")
    }

    @Test("refused whole, nothing booked: a rule with no end or past a year, a series ID in use, another coach's client")
    func refusedWhole() throws {
        var book = try Gym.book()
        let now = try Self.date("2026-11-20 10:00")
        _ = try book.addRepeatingSession(series: "anna-tue", coach: "marc", client: "anna", start: try Self.wall("2026-12-01 18:00"),
                                         duration: .minutes(60), repeating: try Self.rule("FREQ=WEEKLY;COUNT=2"), now: now)
        let before = book
        let cases: [(String, String, String, (SchedulingError) -> Bool)] = [
            ("x", "anna", "FREQ=WEEKLY", { if case .invalid(.rule, let r) = $0 { r.contains("needs an end") } else { false } }),
            ("x", "anna", "FREQ=WEEKLY;UNTIL=20280301T000000Z", { if case .invalid(.rule, let r) = $0 { r.contains("a year after the first") } else { false } }),
            ("x", "anna", "FREQ=HOURLY;COUNT=400", { if case .invalid(.rule, let r) = $0 { r.contains("more than 366") } else { false } }),
            ("x", "anna", "FREQ=WEEKLY;UNTIL=20261231", { if case .invalid(.rule, let r) = $0 { r.contains("ends before the first session") } else { false } }),
            ("x", "anna", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;COUNT=3", { if case .invalid(.rule, let r) = $0 { r.contains("gives no date after the first") } else { false } }),
            ("x", "anna", "FREQ=SECONDLY;COUNT=3", { if case .invalid(.rule, let r) = $0 { r.contains("every minute at most") } else { false } }),
            ("anna-tue", "anna", "FREQ=WEEKLY;COUNT=2", { if case .duplicateID("anna-tue", "series") = $0 { true } else { false } }),
            ("x", "joan", "FREQ=WEEKLY;COUNT=2", { if case .unknownClient = $0 { true } else { false } }),
        ]
        for (series, client, rule, expected) in cases {
            let error = refusal {
                _ = try book.addRepeatingSession(series: series, coach: "marc", client: client, start: try Self.wall("2027-01-05 18:00"),
                                                 duration: .minutes(60), repeating: try Self.rule(rule), now: now)
            }
            #expect(error.map(expected) == true, "\(rule): \(String(describing: error))")
            #expect(book == before)
        }
    }

    @Test("this and following: moved by the same shift or cancelled from a date on; the earlier stay; a date that cannot move stays, said why")
    func following() throws {
        var book = try Gym.book()
        let now = try Self.date("2026-11-20 10:00")
        _ = try book.addRepeatingSession(series: "anna-tue", coach: "marc", client: "anna", start: try Self.wall("2026-12-01 18:00"),
                                         duration: .minutes(60), repeating: try Self.rule("FREQ=WEEKLY;COUNT=5"), now: now)
        _ = try book.addSession(id: "pau-1223", coach: "marc", client: "pau", start: try Self.wall("2026-12-23 19:00"), duration: .minutes(45), now: now)
        // One date alone first: the 8th moves to Thursday; the series stays.
        _ = try book.moveSession("anna-tue-20261208", coach: "marc", to: try Self.wall("2026-12-10 17:00"), now: now)
        let moved = try book.moveSessions(from: "anna-tue-20261215", coach: "marc", to: try Self.wall("2026-12-16 19:00"), now: now)
        #expect(moved.map(\.start.description) == ["2026-12-16T19:00:00", "2026-12-23T19:00:00", "2026-12-30T19:00:00"])
        guard case .refused(.clash) = moved[1].outcome else { Issue.record("\(moved[1])"); return }
        let sessions = try book.sessions(series: "anna-tue", coach: "marc")
        #expect(sessions.map(\.start.description) == ["2026-12-01T18:00:00", "2026-12-10T17:00:00", "2026-12-16T19:00:00",
                                                      "2026-12-22T18:00:00", "2026-12-30T19:00:00"], "the refused date kept its time")

        // A week on, by the series' own step: each date freed by the one before it.
        let week = try book.moveSessions(from: "anna-tue-20261222", coach: "marc", to: try Self.wall("2026-12-29 18:00"), now: now)
        #expect(week.map { $0.session?.start.description } == ["2026-12-29T18:00:00", "2027-01-06T19:00:00"], "\(week)")
        _ = try book.moveSessions(from: "anna-tue-20261222", coach: "marc", to: try Self.wall("2026-12-22 18:00"), now: now)
        let cancelled = try book.cancelSessions(from: "anna-tue-20261222", coach: "marc", now: now)
        #expect(cancelled.map(\.id) == ["anna-tue-20261222", "anna-tue-20261229"])
        #expect(try book.sessions(series: "anna-tue", coach: "marc").map(\.status) == [.scheduled, .scheduled, .scheduled, .cancelled, .cancelled])

        let before = book
        let alone = refusal { _ = try book.cancelSessions(from: "pau-1223", coach: "marc", now: now) }
        #expect({ if case .invalid(.id, let r)? = alone { r.contains("booked alone") } else { false } }(), "\(String(describing: alone))")
        let done = refusal { _ = try book.moveSessions(from: "anna-tue-20261229", coach: "marc", to: try Self.wall("2026-12-31 10:00"), now: now) }
        #expect({ if case .sessionNotScheduled? = done { true } else { false } }(), "\(String(describing: done))")
        #expect(book == before)
    }
}
