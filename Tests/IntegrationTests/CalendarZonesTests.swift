import CalendarCore
import CalendarViews
import Foundation
@testable import ICalendarKit
import Testing

/// A calendar's own `VTIMEZONE`s belong to it, not to the process (issue 18,
/// item 6): two calendars that both define `TZID:My Office`, one at +01:00
/// and one at +05:30, each read their times with their own rules, whichever
/// was read first, through import, expansion, views, export and merge.
@Suite("A calendar's own zones")
struct CalendarZonesTests {
    /// A calendar whose custom zone `My Office` is always at `offset`, with a
    /// meeting (09:00–10:00 on 2 March 2026), a daily standup (02:00, 30
    /// minutes, three days: 02:00 puts the +05:30 office's on the previous
    /// UTC day) and a daily review at 12:00 whose second instance moved to 13:00.
    static func office(_ name: String, offset: String) -> String {
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "X-WR-CALNAME:\(name)",
            "BEGIN:VTIMEZONE", "TZID:My Office",
            "BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:\(offset)", "TZOFFSETTO:\(offset)", "END:STANDARD",
            "END:VTIMEZONE",
            "BEGIN:VEVENT", "UID:meeting-\(name)", "DTSTAMP:20260101T000000Z",
            "DTSTART;TZID=My Office:20260302T090000", "DTEND;TZID=My Office:20260302T100000", "SUMMARY:Meeting", "END:VEVENT",
            "BEGIN:VEVENT", "UID:standup-\(name)", "DTSTAMP:20260101T000000Z",
            "DTSTART;TZID=My Office:20260302T020000", "DURATION:PT30M", "RRULE:FREQ=DAILY;COUNT=3", "SUMMARY:Standup", "END:VEVENT",
            "BEGIN:VEVENT", "UID:review-\(name)", "DTSTAMP:20260101T000000Z",
            "DTSTART;TZID=My Office:20260302T120000", "DTEND;TZID=My Office:20260302T130000", "RRULE:FREQ=DAILY;COUNT=2",
            "SUMMARY:Review", "END:VEVENT",
            "BEGIN:VEVENT", "UID:review-\(name)", "DTSTAMP:20260101T000000Z", "RECURRENCE-ID;TZID=My Office:20260303T120000",
            "DTSTART;TZID=My Office:20260303T130000", "DTEND;TZID=My Office:20260303T140000", "SUMMARY:Review (moved)", "END:VEVENT",
            "END:VCALENDAR",
        ].joined(separator: "\r\n") + "\r\n"
    }

    static let berlin = office("berlin", offset: "+0100")
    static let pune = office("pune", offset: "+0530")

    /// The exact instants (Unix seconds) each office's times stand for.
    struct Expected {
        var meeting: (start: Int64, end: Int64)
        var standups: [Int64]
        var reviews: [Int64]
        /// The UTC days of March 2026 the month view marks, with how many items.
        var marks: [Int: Int]
    }

    // 09:00 at +01:00 is 08:00Z; at +05:30 it is 03:30Z.
    static let inBerlin = Expected(meeting: (1_772_438_400, 1_772_442_000), standups: [1_772_413_200, 1_772_499_600, 1_772_586_000],
                                   reviews: [1_772_449_200, 1_772_539_200], marks: [2: 3, 3: 2, 4: 1])
    static let inPune = Expected(meeting: (1_772_422_200, 1_772_425_800), standups: [1_772_397_000, 1_772_483_400, 1_772_569_800],
                                 reviews: [1_772_433_000, 1_772_523_000], marks: [1: 1, 2: 3, 3: 2])

    static func read(_ text: String) throws -> ImportResult { try ICalendarImporter().importCalendar(from: text) }

    /// Both calendars read in one process, in the order given.
    static func both(berlinFirst: Bool) throws -> (berlin: ICalendar, pune: ICalendar, diagnostics: [ICalendarDiagnostic]) {
        let first = try read(berlinFirst ? berlin : pune)
        let second = try read(berlinFirst ? pune : berlin)
        let (b, p) = berlinFirst ? (first, second) : (second, first)
        return (b.calendar, p.calendar, first.diagnostics + second.diagnostics)
    }

    static func item(_ calendar: ICalendar, _ prefix: String) throws -> CalendarItem {
        try #require(calendar.items.first { $0.uid.hasPrefix(prefix) })
    }

    @Test("Each calendar's times are read with its own My Office, in either order of import", arguments: [true, false])
    func importInEitherOrder(berlinFirst: Bool) throws {
        let (berlin, pune, diagnostics) = try Self.both(berlinFirst: berlinFirst)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        for (calendar, expected) in [(berlin, Self.inBerlin), (pune, Self.inPune)] {
            #expect(calendar.zones.tzids == ["My Office"])
            let meeting = try Self.item(calendar, "meeting")
            #expect(meeting.start.zoneIdentifier == "My Office")
            #expect(try meeting.start.epochSeconds(floatingZone: .utc, zones: calendar.zones) == expected.meeting.start)
            guard case .at(let end) = meeting.end else { Issue.record("the meeting has no DTEND"); return }
            #expect(try end.instant(floatingZone: .utc, zones: calendar.zones) == Date(timeIntervalSince1970: TimeInterval(expected.meeting.end)))
            #expect(meeting.length(floatingZone: .utc, zones: calendar.zones) == 3600)
            // The rules of a series, through the public expansion API.
            let standups = try #require(try Self.item(calendar, "standup").recurrenceSet).instances(limit: 10, zones: calendar.zones)
            #expect(standups.map(\.epochSeconds) == expected.standups)
        }
        // Nothing was registered for the process: without a calendar's table,
        // the name is unknown, and neither calendar's rules leak out.
        #expect(throws: TimeValueError.self) { try ZoneRules.named("My Office") }
        #expect(throws: TimeValueError.self) { try ZoneTable().rules(forTZID: "My Office") }
    }

    @Test("Each calendar's schedule expands, and its views place, its own times", arguments: [true, false])
    func schedulesAndViews(berlinFirst: Bool) throws {
        let (berlin, pune, _) = try Self.both(berlinFirst: berlinFirst)
        let march = try LocalDate(year: 2026, month: 3, day: 1)
        for (calendar, expected) in [(berlin, Self.inBerlin), (pune, Self.inPune)] {
            let schedule = calendar.schedule()
            #expect(schedule.zones == calendar.zones)
            // With no X-WR-TIMEZONE, the calendar's clock is My Office, its own.
            #expect(schedule.timeZone == calendar.zones["My Office"])
            let found = schedule.occurrences(from: Date(timeIntervalSince1970: 1_772_236_800), to: Date(timeIntervalSince1970: 1_772_841_600))
            func starts(_ uid: String) -> [Int64] { found.filter { $0.id.uid.hasPrefix(uid) }.map(\.startSeconds) }
            #expect(starts("meeting") == [expected.meeting.start])
            #expect(found.first { $0.id.uid.hasPrefix("meeting") }?.endSeconds == expected.meeting.end)
            #expect(starts("standup") == expected.standups)
            #expect(starts("review") == expected.reviews)
            #expect(found.filter { $0.id.uid.hasPrefix("review") }.map(\.item.title) == ["Review", "Review (moved)"])

            // The month view (extents: a plain series, a series with a moved
            // instance, a single item) in UTC marks the UTC days.
            let month = MonthView(year: 2026, month: 3, schedule: schedule, options: .init(timeZone: .utc))
            var marks: [Int: Int] = [:]
            for day in month.weeks.flatMap(\.days) where day.isInMonth {
                switch day.marker {
                case .none: break
                case .single: marks[day.date.day] = 1
                case .several(let count): marks[day.date.day] = count
                }
            }
            #expect(marks == expected.marks)
            // The day view on the calendar's own clock shows the wall times as written.
            let day = DayView(date: march.adding(days: 1), schedule: schedule, options: .init())
            #expect(day.timed.map(\.startMinute).sorted() == [2 * 60, 9 * 60, 12 * 60])
            // In UTC, the meeting sits where its own offset puts it.
            let utcDay = DayView(date: march.adding(days: 1), schedule: schedule, options: .init(timeZone: .utc))
            let meeting = try #require(utcDay.timed.first { $0.occurrence.id.uid.hasPrefix("meeting") })
            #expect(meeting.startMinute == Int((expected.meeting.start - 1_772_409_600) / 60))
        }
    }

    @Test("Export writes each calendar's own VTIMEZONE, and reads back to the same instants", arguments: [true, false])
    func exportKeepsEachDefinition(berlinFirst: Bool) throws {
        let (berlin, pune, _) = try Self.both(berlinFirst: berlinFirst)
        for (calendar, own, other, expected) in [(berlin, "+0100", "+0530", Self.inBerlin), (pune, "+0530", "+0100", Self.inPune)] {
            let text = ICalendarExporter().export(calendar)
            #expect(text.components(separatedBy: "BEGIN:VTIMEZONE").count == 2)
            #expect(text.contains("TZID:My Office\r\n"))
            #expect(text.contains("TZOFFSETTO:\(own)\r\n"))
            #expect(!text.contains(other))
            #expect(text.contains("DTSTART;TZID=My Office:20260302T090000\r\n"))
            let again = try Self.read(text).calendar
            #expect(again.items == calendar.items)
            #expect(again.zones == calendar.zones)
            #expect(ICalendarExporter().export(again) == text)
            let meeting = try Self.item(again, "meeting")
            #expect(try meeting.start.epochSeconds(floatingZone: .utc, zones: again.zones) == expected.meeting.start)
        }
    }

    @Test("A zone defined in code, with no VTIMEZONE text, is exported from its rules")
    func exportFromRules() throws {
        var calendar = ICalendar(zones: ZoneTable(["Desk": ZoneRules(identifier: "Desk", fixedOffset: 19_800)]))
        try calendar.add(CalendarItem(uid: "a", title: "Call", start: .zoned(try LocalDateTime(year: 2026, month: 3, day: 2, hour: 9), "Desk"),
                                      end: .duration(ItemDuration(seconds: 1800))))
        let text = ICalendarExporter().export(calendar)
        #expect(text.contains("BEGIN:VTIMEZONE\r\nTZID:Desk\r\n"))
        #expect(text.contains("TZOFFSETTO:+0530\r\n"))
        let again = try Self.read(text).calendar
        let call = try #require(again.items.first)
        #expect(try call.start.epochSeconds(floatingZone: .utc, zones: again.zones) == 1_772_422_200)
    }

    @Test("Checks accept a TZID the calendar defines, and only there")
    func validation() throws {
        let berlin = try Self.read(Self.berlin).calendar
        let call = CalendarItem(uid: "call", title: "Call", start: .zoned(try LocalDateTime(year: 2026, month: 3, day: 5, hour: 9), "My Office"),
                                end: .duration(ItemDuration(seconds: 1800)))
        #expect(throws: CalendarItemError.self) { try call.validate() }
        try call.validate(zones: berlin.zones)
        var changed = berlin
        try changed.add(call)
        #expect(changed.item(uid: "call") != nil)
        var bare = ICalendar()
        #expect(throws: CalendarItemError.self) { try bare.add(call) }
        // A store of the calendar's items checks them, and snapshots them, with its zones.
        let store = try LiveSchedule(items: berlin.items, zones: berlin.zones)
        #expect(store.zones == berlin.zones)
        #expect(throws: CalendarItemError.self) { try LiveSchedule(items: berlin.items) }
    }

    @Test("A store's snapshots read its calendar's zones")
    func storeSnapshots() async throws {
        let pune = try Self.read(Self.pune).calendar
        let store = try LiveSchedule(items: pune.items, zones: pune.zones)
        let snapshot = await store.snapshot
        let found = snapshot.occurrences(from: Date(timeIntervalSince1970: 1_772_236_800), to: Date(timeIntervalSince1970: 1_772_841_600))
        #expect(found.filter { $0.id.uid.hasPrefix("standup") }.map(\.startSeconds) == Self.inPune.standups)
    }

    @Test("Merging a calendar whose My Office differs renames the incoming zone; neither side is read with the other's rules",
          arguments: [true, false])
    func mergeKeepsBothZones(berlinFirst: Bool) throws {
        let (berlin, pune, _) = try Self.both(berlinFirst: berlinFirst)
        var merged = berlinFirst ? berlin : pune
        let incoming = berlinFirst ? pune : berlin
        let (ours, theirs) = berlinFirst ? (Self.inBerlin, Self.inPune) : (Self.inPune, Self.inBerlin)
        let report = merged.merge(incoming)
        #expect(report.renamedZones == ["My Office": "My Office (2)"])
        #expect(report.added.count == 3)
        #expect(merged.zones.tzids == ["My Office", "My Office (2)"])
        #expect(merged.zones["My Office (2)"]?.identifier == "My Office (2)")
        #expect(merged.timeZoneDefinitions.count == 2)
        let moved = try #require(merged.items.first { $0.uid == "review-" + (berlinFirst ? "pune" : "berlin") })
        #expect(moved.start.zoneIdentifier == "My Office (2)")
        #expect(moved.overrides.map(\.recurrenceID.zoneIdentifier) == ["My Office (2)"])
        #expect(moved.overrides.map(\.item.start.zoneIdentifier) == ["My Office (2)"])

        func check(_ calendar: ICalendar) throws {
            let found = calendar.schedule().occurrences(from: Date(timeIntervalSince1970: 1_772_236_800), to: Date(timeIntervalSince1970: 1_772_841_600))
            func starts(_ uid: String) -> [Int64] { found.filter { $0.id.uid == uid }.map(\.startSeconds) }
            let (mine, other) = berlinFirst ? ("berlin", "pune") : ("pune", "berlin")
            #expect(starts("meeting-" + mine) == [ours.meeting.start])
            #expect(starts("meeting-" + other) == [theirs.meeting.start])
            #expect(starts("standup-" + mine) == ours.standups)
            #expect(starts("standup-" + other) == theirs.standups)
            #expect(starts("review-" + mine) == ours.reviews)
            #expect(starts("review-" + other) == theirs.reviews)
        }
        try check(merged)
        // Written out, both definitions go with it, and read back the same.
        let text = ICalendarExporter().export(merged)
        #expect(text.contains("TZID:My Office\r\n"))
        #expect(text.contains("TZID:My Office (2)\r\n"))
        #expect(text.contains("DTSTART;TZID=My Office (2):20260302T090000\r\n"))
        let again = try Self.read(text)
        #expect(again.diagnostics.isEmpty, "\(again.diagnostics)")
        #expect(again.calendar.zones == merged.zones)
        try check(again.calendar)
        // Merging again adds nothing and renames nothing new: the zone is the same.
        var twice = merged
        let second = twice.merge(again.calendar)
        #expect(second.renamedZones.isEmpty)
        #expect(second.added.isEmpty)
        #expect(twice.zones == merged.zones)
    }

    @Test("Merging a calendar with the same My Office keeps one zone")
    func mergeSameZone() throws {
        var berlin = try Self.read(Self.berlin).calendar
        let other = try Self.read(Self.office("hamburg", offset: "+0100")).calendar
        let report = berlin.merge(other)
        #expect(report.renamedZones.isEmpty)
        #expect(report.added.count == 3)
        #expect(berlin.zones.tzids == ["My Office"])
        #expect(berlin.timeZoneDefinitions.count == 1)
        let meeting = try #require(berlin.item(uid: "meeting-hamburg"))
        #expect(try meeting.start.epochSeconds(floatingZone: .utc, zones: berlin.zones) == Self.inBerlin.meeting.start)
    }

    @Test("Within one file, a second, different definition of a TZID is reported and the first is used")
    func secondDefinitionInOneFile() throws {
        let zone = { (offset: String) in
            "BEGIN:VTIMEZONE\r\nTZID:My Office\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:\(offset)\r\nTZOFFSETTO:\(offset)\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"
        }
        let text = Self.berlin.replacingOccurrences(of: "BEGIN:VEVENT", with: zone("+0530") + "BEGIN:VEVENT", options: [], range: Self.berlin.range(of: "BEGIN:VEVENT"))
        let result = try Self.read(text)
        #expect(result.diagnostics.map(\.code) == [.duplicate])
        #expect(result.diagnostics.first?.message.contains("second time in this file") == true)
        let meeting = try Self.item(result.calendar, "meeting")
        #expect(try meeting.start.epochSeconds(floatingZone: .utc, zones: result.calendar.zones) == Self.inBerlin.meeting.start)
    }
}
