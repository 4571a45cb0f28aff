import CalendarCore
import Foundation
import Testing
import _CalendarTestSupport

/// Expansion across daylight-saving changes and awkward calendar dates.
@Suite("Time zones and calendar edges")
struct TimeZoneExpansionTests {
    func wall(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0) throws -> LocalDateTime {
        try LocalDateTime(year: y, month: m, day: d, hour: h, minute: mi)
    }

    func utc(_ instance: RecurrenceSet.Instance) -> String {
        LocalDateTime(localSeconds: instance.epochSeconds).basicISO + "Z"
    }

    @Test("a weekly 02:30 class in Madrid across the March gap and the October fold")
    func madridGapAndFold() throws {
        let start = CalendarTime.zoned(try wall(2025, 3, 16, 2, 30), "Europe/Madrid")
        let set = RecurrenceSet(start: start, rules: [try RecurrenceRule(parsing: "FREQ=WEEKLY;UNTIL=20251102T000000Z")])
        let all = try set.instances()
        let byID = Dictionary(uniqueKeysWithValues: all.map { ($0.recurrenceID.wallTime.date.description, $0) })
        // 30 March 2025: 02:00 CET jumps to 03:00 CEST. 02:30 does not exist; RFC 5545
        // §3.3.5 reads it with the offset before the gap (+01:00): 01:30Z, shown 03:30.
        let gap = try #require(byID["2025-03-30"])
        #expect(utc(gap) == "20250330T013000Z")
        #expect(gap.start == .zoned(try wall(2025, 3, 30, 3, 30), "Europe/Madrid"))
        #expect(gap.recurrenceID == .zoned(try wall(2025, 3, 30, 2, 30), "Europe/Madrid"), "identity keeps the nominal time")
        // 26 October 2025: 03:00 CEST falls back to 02:00 CET; 02:30 happens twice.
        // The first instant is 00:30Z (+02:00).
        let fold = try #require(byID["2025-10-26"])
        #expect(utc(fold) == "20251026T003000Z")
        #expect(fold.start.wallTime == (try wall(2025, 10, 26, 2, 30)))
        // The gap week is still counted: every Sunday from 16 March to 26 October is there.
        #expect(all.count == 33)
        #expect(utc(try #require(byID["2025-03-23"])) == "20250323T013000Z")
        #expect(utc(try #require(byID["2025-04-06"])) == "20250406T003000Z")
    }

    @Test("daily 09:00 in New York for a year keeps 09:00 on the wall, offsets from Foundation")
    func newYorkYear() throws {
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        let start = CalendarTime.zoned(try wall(2026, 1, 1, 9), "America/New_York")
        let set = RecurrenceSet(start: start, rules: [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=365")])
        let all = try set.instances()
        #expect(all.count == 365)
        for instance in all {
            #expect(instance.start.wallTime.hour == 9 && instance.start.wallTime.minute == 0)
            let offset = zone.secondsFromGMT(for: instance.instant)
            #expect(instance.epochSeconds + Int64(offset) == instance.start.wallTime.localSeconds)
        }
        #expect(Set(all.map { zone.secondsFromGMT(for: $0.instant) }) == [-5 * 3600, -4 * 3600])
    }

    @Test("Lord Howe's half-hour shift: the gap moves 30 minutes, the fold takes the first instant")
    func lordHowe() throws {
        // 2026-10-04 02:00 (+10:30) becomes 02:30 (+11:00); 2026-04-05 02:00 (+11:00) becomes 01:30 (+10:30).
        let gapStart = CalendarTime.zoned(try wall(2026, 10, 2, 2, 15), "Australia/Lord_Howe")
        let gapSet = RecurrenceSet(start: gapStart, rules: [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=4")])
        let gap = try gapSet.instances()
        #expect(gap.map(\.start.wallTime.description) == [
            "2026-10-02T02:15:00", "2026-10-03T02:15:00", "2026-10-04T02:45:00", "2026-10-05T02:15:00",
        ])
        #expect(utc(gap[2]) == "20261003T154500Z")  // 02:15 read at +10:30
        let foldStart = CalendarTime.zoned(try wall(2026, 4, 4, 1, 45), "Australia/Lord_Howe")
        let fold = try RecurrenceSet(start: foldStart, rules: [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=3")]).instances()
        #expect(utc(fold[1]) == "20260404T144500Z")  // 01:45 at +11:00, the first of its two instants
        #expect(fold[1].start.wallTime == (try wall(2026, 4, 5, 1, 45)))
    }

    @Test("ZoneRules' table agrees with Foundation at random instants", arguments: [
        "Europe/Madrid", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "America/Sao_Paulo", "Pacific/Apia",
    ])
    func tableMatchesFoundation(_ id: String) throws {
        let rules = try ZoneRules.named(id)
        let zone = try #require(TimeZone(identifier: id))
        var rng = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let t = Int64.random(in: -1_500_000_000...4_000_000_000, using: &rng)
            #expect(rules.offset(atInstant: t) == zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t))))
        }
    }

    @Test("an unknown zone is a typed error")
    func unknownZone() {
        do {
            _ = try ZoneRules.named("Mars/Olympus_Mons")
            Issue.record("no error")
        } catch {
            #expect(error.code == .unknownTimeZone)
        }
    }

    @Test("yearly on 29 February: leap years only, not counted in between (errata 4271)")
    func leapDay() throws {
        let set = RecurrenceSet(start: .date(try LocalDate(year: 2024, month: 2, day: 29)), rules: [try RecurrenceRule(parsing: "FREQ=YEARLY;COUNT=4")])
        #expect(try set.instances().map(\.start.icalValue) == ["20240229", "20280229", "20320229", "20360229"])
    }

    @Test("monthly on the 31st skips the short months")
    func thirtyFirst() throws {
        let set = RecurrenceSet(start: .floating(try wall(2026, 1, 31, 18)), rules: [try RecurrenceRule(parsing: "FREQ=MONTHLY;COUNT=7")])
        #expect(try set.instances().map { $0.start.localDate.description } == [
            "2026-01-31", "2026-03-31", "2026-05-31", "2026-07-31", "2026-08-31", "2026-10-31", "2026-12-31",
        ])
    }

    @Test("BYSETPOS=-1 gives the last weekday of each month")
    func lastWeekday() throws {
        let set = RecurrenceSet(start: .floating(try wall(2026, 1, 30, 17)),
                                rules: [try RecurrenceRule(parsing: "FREQ=MONTHLY;COUNT=6;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1")])
        #expect(try set.instances().map { $0.start.localDate.description } == [
            "2026-01-30", "2026-02-27", "2026-03-31", "2026-04-30", "2026-05-29", "2026-06-30",
        ])
    }

    @Test("BYWEEKNO=53 only in years that have a week 53")
    func weekFiftyThree() throws {
        let set = RecurrenceSet(start: .date(try LocalDate(year: 2020, month: 12, day: 28)),
                                rules: [try RecurrenceRule(parsing: "FREQ=YEARLY;COUNT=3;BYWEEKNO=53;BYDAY=MO")])
        // ISO years with 53 weeks after 2020: 2026, 2032 (Monday of week 53: 28 Dec 2026, 27 Dec 2032).
        #expect(try set.instances().map(\.start.icalValue) == ["20201228", "20261228", "20321227"])
    }

    @Test("FREQ=SECONDLY with no end over a year window with a limit returns at once")
    func secondlyBounded() throws {
        let set = RecurrenceSet(start: .utc(try wall(2026, 1, 1)), rules: [try RecurrenceRule(parsing: "FREQ=SECONDLY")])
        let from = Date(timeIntervalSince1970: 1_780_000_000)
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            let some = try set.instances(from: from, to: from.addingTimeInterval(365 * 86_400), limit: 1000)
            #expect(some.count == 1000)
            #expect(some.first?.epochSeconds == 1_780_000_000)
        }
        #expect(elapsed < .seconds(5), "bounded work, not a year of seconds")
    }

    @Test("an endless rule without a window end or a limit is refused")
    func unboundedRefused() throws {
        let set = RecurrenceSet(start: .utc(try wall(2026, 1, 1)), rules: [try RecurrenceRule(parsing: "FREQ=DAILY")])
        do {
            _ = try set.instances(from: Date())
            Issue.record("no error")
        } catch {
            #expect(error.code == .unbounded)
        }
    }

    @Test("a window far from the start gives what full expansion gives", arguments: [
        "FREQ=DAILY", "FREQ=WEEKLY;INTERVAL=3;BYDAY=MO,TH;WKST=SU", "FREQ=MONTHLY;BYDAY=-1FR", "FREQ=YEARLY;BYWEEKNO=10;BYDAY=TU",
        "FREQ=HOURLY;INTERVAL=7;BYHOUR=1,8,15", "FREQ=MONTHLY;INTERVAL=5;BYMONTHDAY=-1,15;BYSETPOS=1",
    ])
    func seekAgreesWithFullWalk(_ text: String) throws {
        let start = CalendarTime.zoned(try wall(2016, 3, 27, 2, 30), "Europe/Madrid")
        let set = RecurrenceSet(start: start, rules: [try RecurrenceRule(parsing: text)])
        let from = try CalendarTime.utc(try wall(2026, 3, 1)).instant(floatingZone: .utc)
        let to = from.addingTimeInterval(60 * 86_400)
        let windowed = try set.instances(from: from, to: to)
        var full: [RecurrenceSet.Instance] = []
        var iterator = try set.makeIterator()
        while let next = iterator.next(), next.instant < to.addingTimeInterval(86_400) {
            if next.instant >= from && next.instant < to { full.append(next) }
        }
        #expect(!windowed.isEmpty)
        #expect(windowed == full)
    }

    @Test("RDATE adds, EXDATE removes (by instant across zones, by date for all-day exclusions)")
    func additionsAndExclusions() throws {
        let start = CalendarTime.zoned(try wall(2026, 3, 2, 9), "Europe/Madrid")
        var set = RecurrenceSet(start: start, rules: [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=5")])
        set.additions = [.zoned(try wall(2026, 3, 10, 18), "Europe/Madrid"), .zoned(try wall(2026, 3, 3, 9), "Europe/Madrid")]
        set.exclusions = [.utc(try wall(2026, 3, 4, 8)), .date(try LocalDate(year: 2026, month: 3, day: 5))]
        #expect(try set.instances().map(\.start.wallTime.description) == [
            "2026-03-02T09:00:00", "2026-03-03T09:00:00", "2026-03-06T09:00:00", "2026-03-10T18:00:00",
        ])
    }

    @Test("an excluded DTSTART is not an occurrence, but still counts toward COUNT")
    func excludedStart() throws {
        let start = CalendarTime.floating(try wall(2026, 3, 2, 9))
        var set = RecurrenceSet(start: start, rules: [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=3")])
        set.exclusions = [start]
        #expect(try set.instances().map { $0.start.localDate.day } == [3, 4])
    }

    @Test("DTSTART not matching the rule is the first occurrence and counts (§3.8.5.3)")
    func unsynchronisedStart() throws {
        let set = RecurrenceSet(start: .floating(try wall(2026, 3, 4, 9)), rules: [try RecurrenceRule(parsing: "FREQ=WEEKLY;COUNT=3;BYDAY=MO")])
        #expect(try set.instances().map { $0.start.localDate.description } == ["2026-03-04", "2026-03-09", "2026-03-16"])
    }
}

@Suite("Hostile values do not trap")
struct HostileValueTests {
    @Test func hugeIntervalAndInfiniteDates() throws {
        let start = CalendarTime.utc(try LocalDateTime(year: 2026, month: 1, day: 1))
        for text in ["FREQ=YEARLY;INTERVAL=9223372036854775807", "FREQ=SECONDLY;INTERVAL=9223372036854775807",
                     "FREQ=WEEKLY;INTERVAL=999999999999;BYDAY=MO,TU", "FREQ=DAILY;COUNT=9223372036854775807"] {
            let set = RecurrenceSet(start: start, rules: [try RecurrenceRule(parsing: text)])
            #expect(try set.instances(limit: 3).first?.start == start)
        }
        let daily = RecurrenceSet(start: start, rules: [try RecurrenceRule(parsing: "FREQ=DAILY")])
        #expect(try daily.instances(from: Date(timeIntervalSince1970: -.infinity), limit: 2).count == 2)
        #expect(try daily.instances(from: Date(timeIntervalSince1970: .infinity), limit: 2).isEmpty)
        #expect(try daily.instances(limit: 0).isEmpty)
        let schedule = try Schedule(items: [CalendarItem(uid: "x", title: "X", start: start, recurrenceRules: [try RecurrenceRule(parsing: "FREQ=DAILY")])])
        #expect(schedule.occurrences(from: .distantPast, to: Date(timeIntervalSince1970: .nan)).isEmpty)
    }
}

@Suite("TZIDs as real files write them")
struct TZIDResolutionTests {
    @Test(arguments: [
        ("Europe/Madrid", "Europe/Madrid"),
        ("\"Europe/Madrid\"", "Europe/Madrid"),
        ("Europe/lisbon", "Europe/Lisbon"),
        ("/mozilla.org/20050126_1/Europe/Madrid", "Europe/Madrid"),
        ("/freeassociation.sourceforge.net/Tzfile/America/New_York", "America/New_York"),
        ("/freeassociation.sourceforge.net/America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires"),
        ("W. Europe Standard Time", "Europe/Berlin"),
        ("GMT Standard Time", "Europe/London"),
        ("Pacific Standard Time", "America/Los_Angeles"),
        ("Romance Standard Time", "Europe/Paris"),
        ("UTC", "UTC"),
    ])
    func resolves(_ tzid: String, _ iana: String) throws {
        #expect(ZoneRules.ianaIdentifier(forTZID: tzid) == iana)
        #expect(try ZoneRules.named(tzid).identifier == iana)
    }

    /// Issue 43, 1: the CLI's own table of UTC's names is the library's.
    @Test("two names of one zone are the same zone: UTC's many names, a TZID and the zone it names; two zones with today's offset are not")
    func sameZone() {
        for (a, b) in [("UTC", "GMT"), ("Etc/UTC", "Zulu"), ("Etc/GMT+0", "UTC"), ("\"Europe/Madrid\"", "Europe/Madrid"), ("/mozilla.org/20050126_1/Europe/Madrid", "Europe/Madrid")] {
            #expect(ZoneRules.namesTheSameZone(a, b), "\(a) \(b)")
        }
        for (a, b) in [("Europe/Madrid", "Europe/Paris"), ("UTC", "Europe/London"), ("MyTimezone", "UTC"), ("Etc/GMT+1", "UTC")] {
            #expect(!ZoneRules.namesTheSameZone(a, b), "\(a) \(b)")
        }
        #expect(ZoneRules.ianaIdentifier(forTZID: ZoneRules.currentIdentifier) != nil)
    }

    @Test("custom names stay unknown: only their VTIMEZONE can define them", arguments: ["Western/Central Europe", "MyTimezone", "foo", ""])
    func customNames(_ tzid: String) {
        #expect(ZoneRules.ianaIdentifier(forTZID: tzid) == nil)
        #expect(throws: TimeValueError.self) { try ZoneRules.named(tzid) }
    }

    @Test("an Outlook-named zoned time resolves like its IANA zone")
    func outlookZonedTime() throws {
        let wall = try LocalDateTime(year: 2026, month: 7, day: 1, hour: 9)
        #expect(try CalendarTime.zoned(wall, "W. Europe Standard Time").epochSeconds(floatingZone: .utc)
                == CalendarTime.zoned(wall, "Europe/Berlin").epochSeconds(floatingZone: .utc))
    }
}
