import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit
import SchedulingICalendar
import Testing
import _CalendarTestFixtures
import _SchedulingTestSupport

/// Issue 31, 1: reminders. The moments are checked against what RFC 5545
/// says they are (hours exact, days on the clock: §3.3.6), on the crafted
/// cases of `Tests/Fixtures/ics/alarms.ics`; Python's `icalendar` referees the
/// same file and the corpus in `make conformance` (Conformance/alarms_check.py).
@Suite("Reminders")
struct AlarmTests {
    static func madrid() throws -> ZoneRules { try .named("Europe/Madrid") }

    func schedule(_ path: String) throws -> Schedule {
        let calendar = try ICalendarImporter().importCalendar(from: Fixture.text(path)).calendar
        return calendar.schedule(zoneNamedBy: ICalendar.bookZoneProperties)
    }

    func utc(_ text: String) throws -> Date { try CalendarTime(icalValue: text).instant(floatingZone: .utc) }

    /// Each moment as `UTC time  UID  DESCRIPTION`.
    func moments(_ report: AlarmReport) -> [String] {
        report.instants.map { "\($0.time.ISO8601Format())  \($0.occurrence.uid)  \($0.alarm.message ?? $0.alarm.action)" }
    }

    @Test("every moment of the crafted cases, as RFC 5545 counts them")
    func crafted() throws {
        let report = try schedule("ics/alarms.ics").alarms(from: utc("20260101T000000Z"), to: utc("20270101T000000Z"), floatingZone: try Self.madrid())
        #expect(report.problems.isEmpty)
        #expect(moments(report) == [
            // 03:30 CEST is 01:30Z; 24 exact hours before is 02:30 CET the day before,
            "2026-03-28T01:30:00Z  spring-forward@alarms.example  Twenty-four hours before",
            // the day before is the same wall time, 03:30 CET (23 hours),
            "2026-03-28T02:30:00Z  spring-forward@alarms.example  The day before",
            // and two exact hours before is 00:30 CET, across the gap.
            "2026-03-28T23:30:00Z  spring-forward@alarms.example  Two hours before",
            "2026-10-13T16:30:00Z  weekly-yoga@alarms.example  Yoga tomorrow",
            "2026-10-14T16:15:00Z  weekly-yoga@alarms.example  Yoga in 15 minutes",
            "2026-10-20T16:30:00Z  weekly-yoga@alarms.example  Yoga tomorrow",
            "2026-10-21T16:15:00Z  weekly-yoga@alarms.example  Yoga in 15 minutes",
            // The 28th is an EXDATE: nothing. 09:00 EST is 14:00Z; twelve exact
            // hours before is 02:00Z (21:00 EDT: the clocks went back between).
            "2026-11-01T02:00:00Z  fall-back@alarms.example  AUDIO",
            "2026-11-01T15:00:00Z  fall-back@alarms.example  Brunch ends",
            "2026-11-01T15:05:00Z  fall-back@alarms.example  Brunch ends",
            "2026-11-01T15:10:00Z  fall-back@alarms.example  Brunch ends",
            // The moved instance rings by its own alarm, at its new time; its
            // VALARM has no day-before one, so none rings on the 3rd.
            "2026-11-04T18:15:00Z  weekly-yoga@alarms.example  Moved yoga in 15 minutes",
            "2026-11-10T17:30:00Z  weekly-yoga@alarms.example  Yoga tomorrow",
            "2026-11-11T17:15:00Z  weekly-yoga@alarms.example  Yoga in 15 minutes",
            "2026-11-17T17:30:00Z  weekly-yoga@alarms.example  Yoga tomorrow",
            "2026-11-18T17:15:00Z  weekly-yoga@alarms.example  Yoga in 15 minutes",
            // An absolute trigger rings once for the whole series.
            "2026-11-24T08:00:00Z  absolute@alarms.example  Sign up for the fitness test",
            // A task with only DUE, counted from its end (the due time).
            "2026-11-26T22:29:00Z  essay@alarms.example  Essay due in half an hour",
            // An all-day event's midnight is on the viewer's clock.
            "2026-11-27T08:00:00Z  all-day@alarms.example  Open day tomorrow",
        ])
        // The cancelled meeting never rings.
        #expect(!report.instants.contains { $0.occurrence.uid == "cancelled@alarms.example" })
        let again = report.instants.filter { $0.occurrence.uid == "fall-back@alarms.example" && $0.alarm.repeatCount == 2 }.map(\.repetition)
        #expect(again == [0, 1, 2])
    }

    @Test("the window takes an alarm whose occurrence lies outside it, and no other")
    func window() throws {
        let s = try schedule("ics/alarms.ics")
        // The open day is on the 28th; its reminder rings on the 27th at 09:00.
        let report = s.alarms(in: DateInterval(start: try utc("20261127T080000Z"), end: try utc("20261127T080001Z")), floatingZone: try Self.madrid())
        #expect(moments(report) == ["2026-11-27T08:00:00Z  all-day@alarms.example  Open day tomorrow"])
        #expect(s.alarms(from: try utc("20261127T080001Z"), to: try utc("20261127T120000Z"), floatingZone: try Self.madrid()).instants.isEmpty)
        #expect(s.alarms(from: try utc("20261127T080000Z"), to: try utc("20261127T080000Z")).instants.isEmpty)
    }

    @Test("a minutely event whose alarm repeats a thousand times: a short window gives every instant, a week stops at the limit and says so, never gigabytes")
    func limit() throws {
        let text = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", "BEGIN:VEVENT", "UID:tick", "DTSTAMP:20260101T000000Z",
                    "DTSTART:20260101T000000Z", "RRULE:FREQ=MINUTELY", "SUMMARY:Tick", "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Tick",
                    "TRIGGER:-P2D", "REPEAT:1000", "DURATION:PT1M", "END:VALARM", "END:VEVENT", "END:VCALENDAR", ""].joined(separator: "\r\n")
        let schedule = try ICalendarImporter().importCalendar(from: text).calendar.schedule()
        let start = Date(timeIntervalSince1970: 1_767_225_600 + 3 * 86_400)  // 2026-01-04 00:00 UTC, alarms of the 6th on
        // Each minute, one alarm of each of the 1,001 occurrences whose repetitions reach it.
        let ten = schedule.alarms(from: start, to: start.addingTimeInterval(600))
        #expect(!ten.limitReached && ten.instants.count == 10 * 1_001)
        #expect(ten.instants.allSatisfy { $0.time >= start && $0.time < start.addingTimeInterval(600) })
        let week = schedule.alarms(from: start, to: start.addingTimeInterval(7 * 86_400))
        #expect(week.limitReached && week.instants.isEmpty)
    }

    @Test("defaults ring for items with no alarm of their own, and only for those")
    func defaults() throws {
        let s = try schedule("ics/gym.ics")
        let hour = try Alarm(.before(.hours(1)), message: "In an hour")
        let report = s.alarms(from: try utc("20261123T000000Z"), to: try utc("20261124T000000Z"), floatingZone: try Self.madrid(), defaults: [hour])
        let yoga = report.instants.filter { $0.occurrence.uid == "yoga-monwed@gym.example" }
        // Yoga has its own 15-minute alarm: the default does not add to it.
        #expect(yoga.map(\.isDefault) == [false])
        #expect(yoga.first?.alarm.message == "Yoga in 15 minutes")
    }

    @Test("an alarm that cannot go off is named with its line on import and among the query's problems, and kept")
    func badInput() throws {
        let text = try Fixture.text("ics/alarms_bad.ics")
        let result = try ICalendarImporter().importCalendar(from: text)
        let warnings = result.diagnostics.filter { $0.message.contains("will not go off") }
        #expect(warnings.map(\.line) == [12, 24, 35])
        #expect(warnings[0].message.contains("-P9999W") && warnings[0].message.contains("a year"))
        #expect(warnings[1].message.contains("REPEAT:3 has no DURATION"))
        #expect(warnings[2].message.contains("no DTSTART"))
        let report = result.calendar.schedule().alarms(from: try utc("20261125T000000Z"), to: try utc("20261126T000000Z"))
        #expect(report.problems.map(\.error.code) == [.triggerTooFar, .noStart, .repeatWithoutInterval])
        #expect(report.instants.map(\.occurrence.uid) == ["fine@alarms.example"])
        // Nothing is lost: every VALARM is written back.
        let exported = ICalendarExporter().export(result.calendar)
        #expect(exported.components(separatedBy: "BEGIN:VALARM").count - 1 == 4)
        #expect(exported.contains("TRIGGER:-P9999W\r\n") && exported.contains("REPEAT:3\r\n"))
    }

    @Test("imported VALARMs are written back byte for byte")
    func roundTrip() throws {
        for path in ["ics/alarms.ics", "ics/gym.ics"] {
            let text = try Fixture.text(path)
            let exported = ICalendarExporter().export(try ICalendarImporter().importCalendar(from: text).calendar)
            #expect(Self.alarmBlocks(exported) == Self.alarmBlocks(text), "\(path)")
            #expect(!Self.alarmBlocks(text).isEmpty)
        }
    }

    @Test("an alarm's fields are ICalendarKit's reading of its VALARM: changed, it is written from them, with the lines Apple put there that it does not model")
    func editedAppleAlarm() throws {
        let block = ["X-WR-ALARMUID:1C7E0E5A-5F1B-4D26-9E61-2B8F1F0C5A11", "UID:1C7E0E5A-5F1B-4D26-9E61-2B8F1F0C5A11", "TRIGGER:-PT15M",
                     "ATTACH;VALUE=URI:Chord", "ACTION:AUDIO", "X-APPLE-DEFAULT-ALARM:TRUE", "ACKNOWLEDGED:20261124T080000Z"]
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Apple Inc.//macOS 15.1//EN", "BEGIN:VEVENT", "UID:apple-1", "DTSTAMP:20261120T090000Z",
                     "DTSTART;TZID=Europe/Madrid:20261125T090000", "DTEND;TZID=Europe/Madrid:20261125T100000", "SUMMARY:Dentist", "BEGIN:VALARM"]
                    + block + ["END:VALARM", "END:VEVENT", "END:VCALENDAR", ""]).joined(separator: "\r\n")
        var calendar = try ICalendarImporter().importCalendar(from: text).calendar
        let alarm = try #require(calendar.items.first?.alarms.first)
        #expect(alarm.action == "AUDIO" && alarm.trigger == .before(.minutes(15)) && alarm.message == nil)
        #expect(Self.alarmBlocks(ICalendarExporter().export(calendar)) == [block.joined(separator: "\r\n") + "\r\n"])
        // Its JSON holds the component it was read from: the same item comes back.
        let item = try #require(calendar.items.first)
        #expect(try JSONDecoder().decode(CalendarItem.self, from: JSONEncoder().encode(item)) == item)

        calendar.items[0].alarms[0].trigger = .before(.minutes(30))
        #expect(Self.alarmBlocks(ICalendarExporter().export(calendar)) == [(["ACTION:AUDIO", "TRIGGER:-PT30M"] + block.filter { !$0.hasPrefix("TRIGGER") && !$0.hasPrefix("ACTION") })
            .joined(separator: "\r\n") + "\r\n"])
        // It rings at its new time: 09:00 in Madrid (08:00 UTC) less half an hour.
        let report = try Schedule(items: calendar.items).alarms(from: Date(timeIntervalSince1970: 1_795_000_000), to: Date(timeIntervalSince1970: 1_796_000_000))
        #expect(report.instants.map(\.time) == [Date(timeIntervalSince1970: 1_795_591_800)] && report.problems.isEmpty)
    }

    @Test("an alarm is equal to itself read back, built or edited; a merge of the calendar's own export changes nothing")
    func mergeOfOwnExport() throws {
        let start = CalendarTime.zoned(try LocalDateTime(year: 2026, month: 11, day: 25, hour: 9), "Europe/Madrid")
        var item = CalendarItem(uid: "m1", title: "Physio", start: start, end: .duration(.init(seconds: 3600)))
        try item.addAlarm(try Alarm(.before(.seconds(900)), message: "Physio soon"))
        var calendar = ICalendar(items: [item])
        for round in 0..<2 {
            let read = try ICalendarImporter().importCalendar(from: ICalendarExporter().export(calendar)).calendar
            #expect(read.items[0].alarms == calendar.items[0].alarms, "round \(round)")
            let report = calendar.merge(read)
            #expect(report.unchanged == ["m1"] && report.updated.isEmpty && report.conflicts.isEmpty, "round \(round): \(report)")
            // Round 2: the alarm read from the file, changed and changed back.
            calendar = read
            calendar.items[0].alarms[0].message = "Changed"
            calendar.items[0].alarms[0].message = "Physio soon"
            #expect(calendar.items[0].alarms == read.items[0].alarms)
        }
    }

    @Test("an edited alarm keeps what the file wrote that its fields do not hold: a VLOCATION, a TZID, a LANGUAGE, a second DESCRIPTION; setting a field to its value changes nothing")
    func editedKeepsTheRest() throws {
        let block = ["ACTION:DISPLAY", "TRIGGER;VALUE=DATE-TIME;TZID=Europe/Madrid:20261125T080000", "DESCRIPTION;LANGUAGE=ca:Al fisio",
                     "DESCRIPTION;LANGUAGE=es:Al fisio", "BEGIN:VLOCATION", "UID:loc-1", "NAME:Clínica", "END:VLOCATION"]
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//T//EN", "BEGIN:VEVENT", "UID:e1", "DTSTAMP:20261120T090000Z",
                     "DTSTART;TZID=Europe/Madrid:20261125T090000", "SUMMARY:Physio", "BEGIN:VALARM"] + block
                    + ["END:VALARM", "END:VEVENT", "END:VCALENDAR", ""]).joined(separator: "\r\n")
        var calendar = try ICalendarImporter().importCalendar(from: text).calendar
        let read = try #require(calendar.items.first?.alarms.first)
        #expect(read.trigger == .absolute(.zoned(try LocalDateTime(year: 2026, month: 11, day: 25, hour: 8), "Europe/Madrid")))
        calendar.items[0].alarms[0].message = "Al fisio"  // its value: nothing changes
        #expect(Self.alarmBlocks(ICalendarExporter().export(calendar)) == [block.joined(separator: "\r\n") + "\r\n"])
        calendar.items[0].alarms[0].message = "Al fisio, ja"
        let written = try #require(Self.alarmBlocks(ICalendarExporter().export(calendar)).first)
        #expect(written == ["ACTION:DISPLAY", "TRIGGER;VALUE=DATE-TIME;TZID=Europe/Madrid:20261125T080000", "DESCRIPTION;LANGUAGE=ca:Al fisio\\, ja",
                            "DESCRIPTION;LANGUAGE=es:Al fisio", "BEGIN:VLOCATION", "UID:loc-1", "NAME:Clínica", "END:VLOCATION", ""].joined(separator: "\r\n"))
        // Read back, it rings at the same instant: 08:00 in Madrid.
        let again = try ICalendarImporter().importCalendar(from: ICalendarExporter().export(calendar)).calendar
        #expect(again.items[0].alarms.first?.trigger == read.trigger)
    }

    @Test("fields no file could hold are reported by the queries, not rung: a trigger centuries away, fifty million repetitions, a negative count")
    func impossibleFields() throws {
        let start = CalendarTime.utc(try LocalDateTime(year: 2026, month: 11, day: 25, hour: 9))
        var item = CalendarItem(uid: "x", title: "X", start: start)
        var far = try Alarm(.before(.seconds(900)))
        far.trigger = .relative(.init(days: -(Int.max / 2)), to: .start)
        var many = try Alarm(.before(.seconds(900)))
        (many.repeatCount, many.repeatInterval) = (50_000_000, .init(seconds: 1))
        var negative = try Alarm(.before(.seconds(900)))
        negative.repeatCount = -5
        item.alarms = [far, many, negative]
        let report = try Schedule(items: [item]).alarms(from: Date(timeIntervalSince1970: 1_795_000_000), to: Date(timeIntervalSince1970: 1_796_000_000))
        #expect(report.instants.isEmpty)
        #expect(report.problems.map(\.error.code) == [.triggerTooFar, .tooManyRepeats, .tooManyRepeats])
        #expect(throws: AlarmError.self) { try item.addAlarm(many) }
        // Its JSON reads back, and is reported the same.
        let json = try JSONEncoder().encode(item)
        #expect(try JSONDecoder().decode(CalendarItem.self, from: json).alarmProblems().count == 3)
    }

    @Test("what an app or a JSON can put in an alarm's fields never crashes a query: a default beyond the limits, a length of two signs, Int.min days, a date for a moment")
    func hostileFields() throws {
        #expect(throws: AlarmError.self) { try Alarm(.relative(.init(days: Int.min), to: .start)) }
        #expect(throws: AlarmError.self) { try Alarm(.relative(.init(days: -1, seconds: 3600), to: .start)) }
        #expect(throws: AlarmError.self) { try Alarm(.absolute(.date(try LocalDate(year: 2026, month: 11, day: 24)))) }
        var far = try Alarm(.before(.seconds(900)))
        far.trigger = .relative(.init(days: -(Int.max / 2)), to: .start)
        var mixed = try Alarm(.before(.seconds(900)))
        mixed.trigger = .relative(.init(days: 106_751_991_167_300, seconds: -9_223_372_036_854_720_000), to: .start)
        var endless = try Alarm(.before(.seconds(900)))
        (endless.repeatCount, endless.repeatInterval) = (Int.max, .init(seconds: 1))
        let start = CalendarTime.utc(try LocalDateTime(year: 2026, month: 11, day: 25, hour: 9))
        var item = CalendarItem(uid: "x", title: "X", start: start)
        item.alarms = [mixed]
        let schedule = try Schedule(items: [item])
        let report = schedule.alarms(from: Date(timeIntervalSince1970: 1_795_000_000), to: Date(timeIntervalSince1970: 1_796_000_000),
                                     defaults: [far, endless, try Alarm(.before(.seconds(600)))])
        #expect(report.instants.isEmpty)  // the item has an alarm of its own, which cannot go off: no default rings for it
        #expect(report.problems.map(\.uid) == ["", "", "x"])
        #expect(report.problems.map(\.error.code) == [.triggerTooFar, .tooManyRepeats, .malformedTrigger])
    }

    @Test("cleared, a field takes along what the file wrote about it; REPEAT:0 with a DURATION reads back the same; an alarm at a moment on a zone nothing defines is a problem, not silence")
    func clearedAndOddFields() throws {
        func calendar(_ alarm: [String], zone: Bool = false) throws -> ICalendar {
            try ICalendarImporter().importCalendar(from: (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//T//EN", "BEGIN:VEVENT", "UID:e1",
                "DTSTAMP:20261120T090000Z", "DTSTART:20261125T090000Z", "SUMMARY:Physio", "BEGIN:VALARM"] + alarm
                + ["END:VALARM", "END:VEVENT", "END:VCALENDAR", ""]).joined(separator: "\r\n")).calendar
        }
        var two = try calendar(["ACTION:DISPLAY", "TRIGGER:-PT15M", "DESCRIPTION;LANGUAGE=ca:Al fisio", "DESCRIPTION;LANGUAGE=es:Al fisio"])
        two.items[0].alarms[0].message = nil
        #expect(!ICalendarExporter().export(two).contains("DESCRIPTION;LANGUAGE"))
        let back = try ICalendarImporter().importCalendar(from: ICalendarExporter().export(two)).calendar
        #expect(back.items[0].alarms == two.items[0].alarms)

        var zero = try calendar(["ACTION:DISPLAY", "TRIGGER:-PT15M", "DESCRIPTION:x", "REPEAT:0", "DURATION:PT5M"])
        zero.items[0].alarms[0].message = "y"
        let zeroBack = try ICalendarImporter().importCalendar(from: ICalendarExporter().export(zero)).calendar
        #expect(zeroBack.items[0].alarms == zero.items[0].alarms && zeroBack.items[0].alarms[0].repeatInterval == .init(seconds: 300))

        let mars = try calendar(["ACTION:DISPLAY", "TRIGGER;VALUE=DATE-TIME;TZID=Mars/Olympus:20261125T080000", "DESCRIPTION:x"])
        let report = mars.schedule(zoneNamedBy: ICalendar.bookZoneProperties).alarms(from: Date(timeIntervalSince1970: 1_795_000_000), to: Date(timeIntervalSince1970: 1_796_000_000))
        #expect(report.instants.isEmpty && report.problems.map(\.error.code) == [.malformedTrigger])
    }

    static func alarmBlocks(_ text: String) -> [String] {
        text.components(separatedBy: "BEGIN:VALARM\r\n").dropFirst().map { $0.components(separatedBy: "END:VALARM\r\n")[0] }
    }

    @Test("alarms an app builds: the VALARM written, read back the same")
    func built() throws {
        let alarm = try Alarm(.relative(.init(days: -1, seconds: -7200), to: .start), message: "Tomorrow; bring shoes", repeatCount: 2, every: .init(seconds: 600))
        #expect(alarm.component.properties.map(\.text) == ["ACTION:DISPLAY", "TRIGGER:-P1DT2H", "DESCRIPTION:Tomorrow\\; bring shoes", "REPEAT:2", "DURATION:PT10M"])
        // Read back: the same fields, and the component it was read from, which is written back as it is.
        let back = try Alarm(component: alarm.component)
        #expect((back.action, back.trigger, back.message, back.repeatCount, back.repeatInterval) == (alarm.action, alarm.trigger, alarm.message, alarm.repeatCount, alarm.repeatInterval))
        #expect(back.component == alarm.component)
        #expect(try Alarm(.relative(.after(.seconds(0)), to: .end)).component.properties.map(\.text) == ["ACTION:DISPLAY", "TRIGGER;RELATED=END:PT0S", "DESCRIPTION:Reminder"])
        #expect(Alarm.Offset.daysBefore(14).icalValue == "-P2W")
        #expect(throws: AlarmError.self) { try Alarm(.fromStart(.daysBefore(9999 * 7))) }
        #expect(throws: AlarmError.self) { try Alarm(.before(.minutes(5)), repeatCount: 3) }
        #expect(throws: AlarmError.self) { try Alarm(.before(.minutes(5)), repeatCount: 100_000, every: .init(seconds: 1)) }
        let error = try #require(#expect(throws: AlarmError.self) { try Alarm(.before(.minutes(5)), repeatCount: 3) })
        #expect(error.localizedDescription == error.message)
        #expect(((error as NSError).domain, (error as NSError).code) == ("Horari.AlarmError", 6))
    }

    @Test("a member's reminders: their own booked classes, not the waitlist, not a cancelled date, not another member's")
    func member() throws {
        var book = try Gym.book()
        let now = try Gym.now("2026-11-20 10:00")
        for id in ["marta", "oriol", "nuria"] { _ = try book.book(member: id, classID: "yoga", on: try Gym.day("2026-11-23"), now: now) }
        _ = try book.book(member: "marta", classID: "yoga", on: try Gym.day("2026-11-25"), now: now)
        _ = try book.book(member: "oriol", classID: "spin", on: try Gym.day("2026-11-27"), now: now)
        _ = try book.book(member: "marta", classID: "yoga", on: try Gym.day("2026-11-30"), now: now)
        _ = try book.cancelOccurrence(classID: "yoga", on: try Gym.day("2026-11-30"))
        try book.addMember(Member(id: "aina", name: "Aina Soler"))
        _ = try book.book(member: "aina", classID: "yoga", on: try Gym.day("2026-11-23"), now: now, whenFull: .joinWaitlist)
        let hour = try Alarm(.before(.hours(1)), message: "Class in an hour")
        let week = (try Gym.now("2026-11-23 00:00"), try Gym.now("2026-12-07 00:00"))
        let marta = try book.alarms(member: "marta", from: week.0, to: week.1, defaults: [hour])
        #expect(marta.instants.map { $0.time } == [try Gym.now("2026-11-23 17:30"), try Gym.now("2026-11-25 17:30")])
        #expect(marta.instants.allSatisfy { $0.isDefault && $0.title == "Yoga" })
        // The same window as a DateInterval (issue 30, 5).
        #expect(try book.alarms(member: "marta", in: DateInterval(start: week.0, end: week.1), defaults: [hour]).instants.map(\.time) == marta.instants.map(\.time))
        #expect(try book.alarms(member: "aina", from: week.0, to: week.1, defaults: [hour]).instants.isEmpty)
        #expect(try book.alarms(member: "oriol", from: week.0, to: week.1, defaults: [hour]).instants.map(\.title) == ["Yoga", "Spinning"])
        #expect(throws: SchedulingError.self) { try book.alarms(member: "nobody", from: week.0, to: week.1, defaults: [hour]) }
    }

    @Test("a coach's reminders: their own sessions, never a cancelled one")
    func coach() throws {
        var book = try Gym.book()
        let now = try Gym.now("2026-11-20 10:00")
        try book.addSession(id: "s1", coach: "marc", client: "anna", start: try Gym.at("2026-11-24 10:00"), duration: .minutes(60), now: now)
        try book.addSession(id: "s2", coach: "marc", client: "pau", start: try Gym.at("2026-11-25 10:00"), duration: .minutes(60), now: now)
        try book.addSession(id: "s3", coach: "laia", client: "joan", start: try Gym.at("2026-11-24 11:00"), duration: .minutes(60), now: now)
        _ = try book.setStatus(.cancelled, ofSession: "s2", coach: "marc", now: now)
        let before = try Alarm(.before(.minutes(30)))
        let report = try book.alarms(coach: "marc", from: try Gym.now("2026-11-23 00:00"), to: try Gym.now("2026-11-30 00:00"), defaults: [before])
        #expect(report.instants.map(\.occurrence.uid) == ["s1"])
        #expect(report.instants.first?.time == (try Gym.now("2026-11-24 09:30")))
        let window = DateInterval(start: try Gym.now("2026-11-23 00:00"), end: try Gym.now("2026-11-30 00:00"))
        #expect(try book.alarms(coach: "marc", in: window, defaults: [before]).instants.map(\.occurrence.uid) == ["s1"])
    }

    @Test("the reminders the calendar's records hold ring for their member and their coach: a session's own, a class's, an instance's own in its place; defaults for the rest")
    func recordsReminders() throws {
        var book = try Gym.book()
        let now = try Gym.now("2026-11-20 10:00")
        try book.addSession(id: "s1", coach: "marc", client: "anna", start: try Gym.at("2026-11-24 10:00"), duration: .minutes(60), now: now)
        try book.addSession(id: "s2", coach: "marc", client: "pau", start: try Gym.at("2026-11-25 10:00"), duration: .minutes(60), now: now)
        for date in ["2026-11-23", "2026-11-25"] { _ = try book.book(member: "marta", classID: "yoga", on: try Gym.day(date), now: now) }
        var calendar = ICalendar(items: [])
        calendar.setScheduling(book)
        // As another program sets them: on the session, on the class, on one instance.
        func alarm(_ what: String, _ minutes: Int) throws -> Alarm {
            try #require(try ICalendarImporter().importCalendar(from: ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//T//EN", "BEGIN:VEVENT", "UID:x",
                "DTSTAMP:20260101T000000Z", "DTSTART:20260101T000000Z", "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(what)", "TRIGGER:-PT\(minutes)M",
                "END:VALARM", "END:VEVENT", "END:VCALENDAR", ""].joined(separator: "\r\n")).calendar.items.first?.alarms.first)
        }
        for i in calendar.items.indices {
            switch calendar.items[i].uid {
            case "s1": calendar.items[i].alarms = [try alarm("Anna soon", 180)]
            case "yoga":
                calendar.items[i].alarms = [try alarm("Yoga soon", 120)]
                let j = try #require(calendar.items[i].overrides.firstIndex { $0.recurrenceID.icalValue == "20261123T183000" })
                calendar.items[i].overrides[j].item.alarms = [try alarm("Yoga on the 23rd", 15)]
            default: break
            }
        }
        let read = try ICalendarImporter().importCalendar(from: ICalendarExporter().export(calendar)).calendar
        let week = (try Gym.now("2026-11-23 00:00"), try Gym.now("2026-11-30 00:00"))
        let hour = try Alarm(.before(.hours(1)), message: "Reminder")
        let coach = try book.alarms(coach: "marc", from: week.0, to: week.1, defaults: [hour], remindersIn: read)
        #expect(coach.instants.map { "\($0.occurrence.uid) \($0.alarm.message ?? "") \($0.isDefault)" } == ["s1 Anna soon false", "s2 Reminder true"])
        #expect(coach.instants.first?.time == (try Gym.now("2026-11-24 07:00")))
        // Her instance of the 23rd rings its own; the 25th's (her booking, written before the class's reminder was
        // set elsewhere) has none of its own and rings its class's, not the defaults.
        let marta = try book.alarms(member: "marta", from: week.0, to: week.1, defaults: [hour], remindersIn: read)
        #expect(marta.instants.map { "\($0.alarm.message ?? "") \($0.isDefault)" } == ["Yoga on the 23rd false", "Yoga soon false"])
        #expect(marta.instants.first?.time == (try Gym.now("2026-11-23 18:15")))
        // Written back by the book, a booking keeps the reminders, and a new instance repeats its class's.
        var again = try read.schedulingBook()
        _ = try again.book(member: "marta", classID: "yoga", on: try Gym.day("2026-11-30"), now: now)
        var written = read
        written.setScheduling(again)
        let december = try again.alarms(member: "marta", from: try Gym.now("2026-11-30 00:00"), to: try Gym.now("2026-12-01 00:00"), defaults: [hour], remindersIn: written)
        #expect(december.instants.map { "\($0.alarm.message ?? "") \($0.isDefault)" } == ["Yoga soon false"])
    }
}
