import CalendarCore
import Foundation
import ICalendarKit
import Testing
import _CalendarTestFixtures
import _CalendarTestSupport

/// `Schedule.occurrenceSequence` (a merge of one lazy iterator per series)
/// against `forEachOccurrence` (every occurrence visited in no order) sorted
/// afterwards: the same occurrences, in the schedule's order, on random rules
/// of every kind and on the real files of `Tests/Fixtures/ics`.
@Suite("Occurrence stream")
struct OccurrenceStreamTests {
    struct Key: Equatable, CustomStringConvertible {
        var start: Int64, end: Int64, id: Occurrence.ID, title: String
        init(_ o: Occurrence) { (start, end, id, title) = (o.startSeconds, o.endSeconds, o.id, o.item.title) }
        var description: String { "\(id) \(start)–\(end) \(title)" }
    }

    static func sortedWalk(_ s: Schedule, _ a: Date, _ b: Date, _ zone: ZoneRules) -> [Key] {
        var all: [Occurrence] = []
        s.forEachOccurrence(from: a, to: b, floatingZone: zone) { all.append($0) }
        return all.sorted(by: Occurrence.precedes).map(Key.init)
    }

    static func expectSame(_ schedule: Schedule, _ a: Date, _ b: Date, _ zone: ZoneRules, _ label: String) -> Int {
        let streamed = schedule.occurrenceSequence(from: a, to: b, floatingZone: zone).map(Key.init)
        let walked = sortedWalk(schedule, a, b, zone)
        if streamed != walked {
            let i = zip(streamed, walked).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(streamed.count, walked.count)
            let ours = i < streamed.count ? streamed[i].description : "none"
            let theirs = i < walked.count ? walked[i].description : "none"
            Issue.record("\(label): \(streamed.count) streamed, \(walked.count) walked; first difference at \(i): \(ours) against \(theirs)")
        }
        return walked.count
    }

    @Test("random rules of every kind: zoned, UTC, floating and all-day, EXDATEs, RDATEs, changed instances", .tags(.long), .onlyInLongRuns)
    func randomRules() throws {
        let schedule = try Schedule(items: try ScheduleExtentTests.items())
        var compared = 0
        // Kiritimati and Pago Pago: the widest offsets either side, which bound where a floating time can fall.
        for zoneName in ["Europe/Madrid", "Pacific/Kiritimati", "Pacific/Pago_Pago"] {
            let zone = try ZoneRules.named(zoneName)
            for (year, month, days) in [(1997, 9, 42), (1998, 3, 42), (2026, 10, 60)] {
                let a = Date(timeIntervalSince1970: TimeInterval(zone.instant(forWall: try LocalDateTime(year: year, month: month, day: 1).localSeconds)))
                compared += Self.expectSame(schedule, a, a.addingTimeInterval(TimeInterval(days) * 86_400), zone, "\(zoneName) \(year)-\(month) +\(days) days")
            }
        }
        #expect(compared > 5_000)
    }

    @Test("every fixture calendar, over a decade, in two display zones")
    func fixtures() throws {
        let folder = try Fixture.url("ics")
        var compared = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".ics") {
            guard let calendar = try? ICalendarImporter().importCalendar(contentsOf: folder.appendingPathComponent(name)).calendar else { continue }
            let schedule = calendar.schedule()
            for zoneName in ["Europe/Madrid", "Asia/Tokyo"] {
                let zone = try ZoneRules.named(zoneName)
                let a = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01
                compared += Self.expectSame(schedule, a, a.addingTimeInterval(30 * 366 * 86_400), zone, "\(name) in \(zoneName)")
            }
        }
        #expect(compared > 1_000)
    }

    /// A series stopped with `skipRemaining(ofSeries:)` gives nothing more,
    /// and the others go on: a year of a SECONDLY rule beside a weekly class.
    @Test func skippingASeries() throws {
        let madrid = "Europe/Madrid"
        var busy = CalendarItem(uid: "every-second", title: "Tick", start: .zoned("2025-01-01T00:00", madrid))
        busy.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=SECONDLY")]
        var weekly = CalendarItem(uid: "yoga", title: "Yoga", start: .zoned("2025-01-06T18:30", madrid), end: .lasting(.hours(1)))
        weekly.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO")]
        let single = CalendarItem(uid: "party", title: "Party", start: .zoned("2025-12-31T21:00", madrid))
        let schedule = try Schedule(items: [busy, weekly, single])
        let zone = try ZoneRules.named(madrid)
        let from = LocalDateTime("2025-01-01T00:00").date(in: zone)
        var iterator = schedule.occurrenceSequence(from: from, to: from.addingTimeInterval(365 * 86_400)).makeIterator()
        var counts: [String: Int] = [:]
        var last: Occurrence?
        while let o = iterator.next() {
            if let last { #expect(!Occurrence.precedes(o, last), "out of order: \(o.id) after \(last.id)") }
            last = o
            counts[o.id.uid, default: 0] += 1
            if o.id.uid == "every-second", counts[o.id.uid] == 2_000 { iterator.skipRemaining(ofSeries: o.id.uid) }
        }
        #expect(counts == ["every-second": 2_000, "yoga": 52, "party": 1])
        #expect(last?.id.uid == "party")
    }

    /// A reading in a spring-forward gap is placed with the offset before it,
    /// so a rule with several readings in the gap reaches an earlier instant
    /// after it; and a `THISANDFUTURE` change can move a series' later
    /// instances earlier. The stream keeps the order through both.
    @Test("a rule stepping through a daylight-saving gap, and a THISANDFUTURE change moving instances earlier")
    func gapsAndEarlierShifts() throws {
        let madrid = "Europe/Madrid"
        var halfHourly = CalendarItem(uid: "half-hourly", title: "Tick", start: .zoned("2025-03-29T22:00", madrid))
        halfHourly.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=MINUTELY;INTERVAL=30;COUNT=16")]
        // 01:15 UTC: between the readings 02:30 (placed at 01:30Z) and 03:00 (01:00Z) of the night of 30 March.
        let single = CalendarItem(uid: "single", title: "Call", start: .utc("2025-03-30T01:15"))
        var hourly = CalendarItem(uid: "hourly", title: "Hour", start: .zoned("2025-06-01T08:00", madrid), end: .lasting(.minutes(10)))
        hourly.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=HOURLY;COUNT=48")]
        var earlier = hourly
        earlier.recurrenceRules = []
        earlier.start = .zoned("2025-06-01T12:00", madrid)
        // From the fifth instance on, every instance three and a half hours earlier.
        hourly.overrides = [RecurrenceOverride(recurrenceID: .zoned("2025-06-01T12:00", madrid), thisAndFuture: true, item: earlier)]
        earlier.start = .zoned("2025-06-01T08:30", madrid)
        hourly.overrides[0].item = earlier
        var others: [CalendarItem] = []
        for h in 0..<24 {
            others.append(CalendarItem(uid: "u\(h)", title: "U\(h)", start: .utc(LocalDateTime(localSeconds: 1_748_764_800 + Int64(h) * 3_600 + 900))))
        }
        let schedule = try Schedule(items: [halfHourly, single, hourly] + others)
        let zone = try ZoneRules.named(madrid)
        let a = LocalDateTime("2025-03-29T00:00").date(in: zone)
        var compared = Self.expectSame(schedule, a, a.addingTimeInterval(3 * 86_400), zone, "the gap")
        let june = LocalDateTime("2025-06-01T00:00").date(in: zone)
        compared += Self.expectSame(schedule, june, june.addingTimeInterval(3 * 86_400), zone, "the earlier shift")
        #expect(compared == 16 + 1 + 48 + 24)
    }
}
