import CalendarCore
#if LibICal
import CLibICal
#endif
import Foundation
@testable import ICalendarKit
import Testing
import _CalendarTestFixtures

/// The text of `Tests/Fixtures/ics/NAME.ics`.
func icsFixture(_ name: String) throws -> String {
    try Fixture.text("ics/\(name).ics")
}

#if LibICal
/// Parses text with libical and returns its `X-LIC-ERROR` texts, or nil when libical cannot parse it.
func libicalErrors(_ text: String) -> [String]? {
    LibICal.serialized {
        guard let root = icalparser_parse_string(text) else { return nil }
        defer { icalcomponent_free(root) }
        var errors: [String] = []
        var c: OpaquePointer? = root
        var stack: [OpaquePointer] = []
        while let comp = c {
            var p = icalcomponent_get_first_property(comp, ICAL_XLICERROR_PROPERTY)
            while let prop = p {
                errors.append(String(cString: icalproperty_get_xlicerror(prop)))
                p = icalcomponent_get_next_property(comp, ICAL_XLICERROR_PROPERTY)
            }
            var child = icalcomponent_get_first_component(comp, ICAL_ANY_COMPONENT)
            while let ch = child {
                stack.append(ch)
                child = icalcomponent_get_next_component(comp, ICAL_ANY_COMPONENT)
            }
            c = stack.popLast()
        }
        return errors
    }
}
#endif

@Suite("iCalendar import and export")
struct ICalendarImportExportTests {
    let exporter = ICalendarExporter(options: .init(timestamp: Date(timeIntervalSince1970: 1_790_000_000)))

    @Test("source lines name the item the calendar holds: the newer of two versions, one given a made-up UID, a changed instance")
    func sourceLinesOfItems() throws {
        let text = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN",                                                     // 1-3
            "BEGIN:VEVENT", "UID:a", "DTSTAMP:20261101T000000Z", "DTSTART:20261124T100000Z", "SUMMARY:Old", "END:VEVENT",  // 4-9
            "BEGIN:VEVENT", "UID:a", "SEQUENCE:2", "DTSTAMP:20261101T000000Z", "DTSTART:20261124T110000Z", "SUMMARY:New", "END:VEVENT",  // 10-16
            "BEGIN:VEVENT", "DTSTAMP:20261101T000000Z", "DTSTART:20261125T100000Z", "SUMMARY:No UID", "END:VEVENT",        // 17-21
            "BEGIN:VEVENT", "UID:a", "SEQUENCE:2", "DTSTAMP:20261101T000000Z", "RECURRENCE-ID:20261124T110000Z",
            "DTSTART:20261124T120000Z", "SUMMARY:Moved", "END:VEVENT",                                                    // 22-29
            "BEGIN:VJOURNAL", "UID:j", "DTSTAMP:20261101T000000Z", "END:VJOURNAL",                                        // 30-33
            "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
        let read = try ICalendarImporter().importCalendar(from: text)
        #expect(read.sourceLines.line(ofItem: "a") == 10)
        let madeUp = try #require(read.calendar.items.first { $0.title == "No UID" }?.uid)
        #expect(read.sourceLines.line(ofItem: madeUp) == 17)
        #expect(read.sourceLines.line(ofItem: "a", recurrenceDate: "20261124") == 22)
        #expect(read.sourceLines.line(ofComponent: "VJOURNAL", index: 0) == 30 && read.sourceLines.line(ofComponent: "VJOURNAL", index: 1) == nil)
    }

    @Test("The sample gym calendar maps every field")
    func sampleMapping() throws {
        let result = try ICalendarImporter().importCalendar(from: try icsFixture("gym"))
        let cal = result.calendar
        #expect(!result.hasErrors)
        #expect(cal.name == "Gimnàs Sants")
        #expect(cal.timeZone == "Europe/Madrid")
        #expect(cal.items.count == 5)
        let yoga = try #require(cal.items.first { $0.uid == "yoga-monwed@gym.example" })
        #expect(yoga.start == .zoned(try LocalDateTime(year: 2026, month: 9, day: 7, hour: 18, minute: 30), "Europe/Madrid"))
        #expect(yoga.end == .duration(ItemDuration(seconds: 3600)))
        #expect(yoga.recurrenceRules.map(\.icalValue) == ["FREQ=WEEKLY;BYDAY=MO,WE"])
        #expect(yoga.exceptionDates.count == 1)
        #expect(yoga.location == "Sala 2, planta baixa")
        #expect(yoga.categories == ["class", "yoga"])
        #expect(yoga.color?.cssName == "teal")
        #expect(yoga.properties.contains(ContentLine(name: "X-GYM-CAPACITY", value: "12")))
        #expect(yoga.alarms.count == 1 && yoga.components.isEmpty && yoga.unreadableAlarms.isEmpty)
        #expect(yoga.overrides.count == 1)
        #expect(yoga.overrides.first?.item.sequence == 1)
        let session = try #require(cal.items.first { $0.uid == "session-anna-1126@gym.example" })
        #expect(session.organizer?.name == "Marc Coach")
        #expect(session.attendees.map(\.address) == ["mailto:anna@example.com"])
        #expect(session.notes == "Strength block, week 3.\nBring a towel.")
        let openDay = try #require(cal.items.first { $0.uid == "open-day-2026@gym.example" })
        #expect(openDay.properties.contains(ContentLine(name: "X-EMPTY-NOTE", value: "")))
        let todo = try #require(cal.items.first { $0.kind == .task })
        #expect(!todo.hasStart)
        #expect(todo.status == .needsAction)
    }

    @Test("Export → import → export is byte-identical, and libical reads the export without errors")
    func roundTrip() throws {
        for name in ["gym", "basic", "rrule", "xprop", "vtodo", "missing_vtimezone_custom", "lf_nodtstamp", "no_uid"] {
            let first = exporter.export(try ICalendarImporter().importCalendar(from: try icsFixture(name)).calendar)
            let second = exporter.export(try ICalendarImporter().importCalendar(from: first).calendar)
            #expect(first == second, "\(name)")
            // libical reports (and drops) an empty X- property, which RFC 5545 allows
            // and we keep on purpose; every other complaint is ours to fix.
            #if LibICal
            #expect(libicalErrors(first)?.filter { !$0.hasPrefix("No value for X property") } == [], "\(name)")
            #endif
            for line in first.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 75, "\(name): \(line)") }
            #expect(!first.contains("\n") || first.replacingOccurrences(of: "\r\n", with: "").contains("\n") == false)
        }
    }

    @Test("a large calendar's items are written side by side, a run on each core: the same bytes as one by one, whatever the cores, the count or the block size")
    func sideBySide() throws {
        // The gym's items (series, changed instances, tasks, zones, reminders; its journals follow them) again and again.
        let gym = try ICalendarImporter().importCalendar(from: try icsFixture("gym")).calendar
        let run = ICalendarExporter.sideBySideRun
        func calendar(of count: Int) -> ICalendar {
            var calendar = gym
            calendar.items = (0..<count).map { i in
                var item = gym.items[i % gym.items.count]
                item.uid = "\(i)-\(item.uid)"
                return item
            }
            return calendar
        }
        // One by one (two runs or fewer), a last round of one item, whole rounds of two and of three, a short last run.
        for count in [2 * run, 2 * run + 1, 6 * run, 3 * run + 17] {
            let large = calendar(of: count)
            let oneByOne = Array(exporter.export(large).utf8)
            for cores in [1, 2, 3, 5] {
                for blockSize in [1, 4096, 1 << 18] {
                    var blocks: [UInt8] = []
                    exporter.export(large, blockSize: blockSize, cores: cores) { (block: UnsafeRawBufferPointer) in blocks += block }
                    // A Bool, not the arrays: Swift Testing's diff of two texts of megabytes takes minutes.
                    let same = blocks == oneByOne
                    #expect(same, "\(count) items, \(cores) cores, blocks of \(blockSize): \(blocks.count) bytes, not \(oneByOne.count)")
                }
            }
        }
        // A write that fails in the middle of a round: the error comes out, and nothing is written after it.
        struct Full: Error {}
        var handed = 0
        #expect(throws: Full.self) {
            try exporter.export(calendar(of: 3 * run + 17), blockSize: 1, cores: 3) { (_: UnsafeRawBufferPointer) throws(Full) in
                handed += 1
                if handed == 3 { throw Full() }
            }
        }
        #expect(handed == 3)
    }

    @Test("What libical loses is kept: unknown IANA properties, unknown parameters, X- components, escapes, empty X- properties")
    func losslessWhereLibicalIsNot() throws {
        let text = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//test//EN\r
            X-CAL-NOTE:a\\,b\\;c\r
            BEGIN:VEVENT\r
            UID:lossless-1\r
            DTSTAMP:20260101T000000Z\r
            DTSTART:20260302T090000Z\r
            SUMMARY;LANGUAGE=ca;X-SOURCE=app:Ioga\r
            STYLED-DESCRIPTION;VALUE=TEXT;FMTTYPE=text/html:<p>Hi</p>\r
            ATTENDEE;CN="Puig, Anna";EMAIL=anna@example.com;X-ROLE=coach:mailto:anna@example.com\r
            CATEGORIES:a,b\\,c\r
            X-EMPTY:\r
            X-ESCAPED:one\\,two\r
            BEGIN:X-FOO\r
            X-BAR:1\r
            END:X-FOO\r
            BEGIN:VLOCATION\r
            UID:loc-1\r
            NAME:Sala 2\r
            END:VLOCATION\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let imported = try ICalendarImporter().importCalendar(from: text)
        let item = try #require(imported.calendar.items.first)
        #expect(item.categories == ["a", "b,c"])
        #expect(item.extraParameters["SUMMARY"] == [.init(name: "LANGUAGE", values: ["ca"]), .init(name: "X-SOURCE", values: ["app"])])
        let out = exporter.export(imported.calendar).replacingOccurrences(of: "\r\n ", with: "")  // unfolded
        for expected in ["X-CAL-NOTE:a\\,b\\;c", "SUMMARY;LANGUAGE=ca;X-SOURCE=app:Ioga", "STYLED-DESCRIPTION;VALUE=TEXT;FMTTYPE=text/html:<p>Hi</p>",
                         "ATTENDEE;CN=\"Puig, Anna\";EMAIL=anna@example.com;X-ROLE=coach:mailto:anna@example.com",
                         "CATEGORIES:a,b\\,c", "X-EMPTY:\r\n", "X-ESCAPED:one\\,two", "BEGIN:X-FOO\r\nX-BAR:1\r\nEND:X-FOO",
                         "BEGIN:VLOCATION\r\nUID:loc-1\r\nNAME:Sala 2\r\nEND:VLOCATION"] {
            #expect(out.contains(expected), "missing \(expected)")
        }
    }

    @Test("Time zones: vendor prefixes stripped, Windows names mapped, a custom VTIMEZONE evaluated, every TZID exported with a VTIMEZONE")
    func timeZones() throws {
        let text = """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:-//test//EN
            BEGIN:VTIMEZONE
            TZID:My Office Time
            BEGIN:STANDARD
            DTSTART:19701025T030000
            RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
            TZOFFSETFROM:+0430
            TZOFFSETTO:+0330
            END:STANDARD
            BEGIN:DAYLIGHT
            DTSTART:19700329T020000
            RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
            TZOFFSETFROM:+0330
            TZOFFSETTO:+0430
            END:DAYLIGHT
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:tz-1
            DTSTAMP:20260101T000000Z
            DTSTART;TZID=/mozilla.org/20070129_1/Europe/Berlin:20260701T100000
            SUMMARY:Mozilla
            END:VEVENT
            BEGIN:VEVENT
            UID:tz-2
            DTSTAMP:20260101T000000Z
            DTSTART;TZID=W. Europe Standard Time:20260115T100000
            SUMMARY:Outlook
            END:VEVENT
            BEGIN:VEVENT
            UID:tz-3
            DTSTAMP:20260101T000000Z
            DTSTART;TZID=My Office Time:20260701T100000
            SUMMARY:Custom
            END:VEVENT
            END:VCALENDAR
            """
        let result = try ICalendarImporter().importCalendar(from: text)
        let items = Dictionary(uniqueKeysWithValues: result.calendar.items.map { ($0.uid, $0) })
        #expect(items["tz-1"]?.start.zoneIdentifier == "Europe/Berlin")
        #expect(items["tz-2"]?.start.zoneIdentifier == "Europe/Berlin")
        #expect(items["tz-3"]?.start.zoneIdentifier == "My Office Time")
        // 10:00 at +04:30 (summer, per the file's own rules) is 05:30Z.
        let custom = try #require(items["tz-3"]).start
        #expect(try custom.epochSeconds(floatingZone: .utc, zones: result.calendar.zones) == (try CalendarTime.utc(LocalDateTime(year: 2026, month: 7, day: 1, hour: 5, minute: 30)).epochSeconds(floatingZone: .utc)))
        // The zone is the calendar's own, not the process's (CalendarZonesTests).
        #expect(result.calendar.zones.tzids == ["My Office Time"])
        #expect((try? custom.epochSeconds(floatingZone: .utc)) == nil)
        let out = exporter.export(result.calendar)
        #expect(out.contains("BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n"))
        #expect(out.contains("TZID:My Office Time"))
        #expect(!out.contains("freeassociation"))
        #expect(out.contains("DTSTART;TZID=Europe/Berlin:20260115T100000"))
        // The generated VTIMEZONE means the same as the system's zone data.
        let again = try ICalendarImporter().importCalendar(from: out)
        #expect(again.calendar.items == result.calendar.items)
        #if LibICal
        #expect(libicalErrors(out) == [])
        #endif
    }

    @Test("A generated VTIMEZONE reproduces the zone's offsets over the years it covers")
    func generatedVTimeZoneMatchesZoneData() throws {
        for zone in ["Europe/Madrid", "America/New_York", "Australia/Sydney", "Asia/Tehran", "America/Sao_Paulo", "Asia/Kolkata"] {
            let rules = try ZoneRules.named(zone)
            let start: Int64 = 946_684_800  // 2000
            let component = VTimeZone.component(for: rules, tzid: "Check " + zone, from: start)
            var writer = ContentWriter()
            writer.component(component)
            let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\n" + String(decoding: writer.bytes, as: UTF8.self) + "END:VCALENDAR\r\n"
            var reader = ContentLineReader(bytes: Array(text.utf8), maxLineBytes: 1 << 20)
            var lines: [RawLine] = []
            while let l = try reader.next() { lines.append(l) }
            // Read back through the same observance evaluation the importer uses.
            let node = try #require(Self.tree(lines.dropFirst(3).dropLast()))
            let back = try VTimeZone.rules(from: node, tzid: "Check " + zone)
            var t = start
            while t < 2_524_608_000 {  // 2050
                #expect(back.offset(atInstant: t) == rules.offset(atInstant: t), "\(zone) at \(t)")
                t += 6 * 3600 + 1234
            }
        }
    }

    static func tree(_ lines: ArraySlice<RawLine>) -> RawNode? {
        var stack: [RawNode] = []
        var done: RawNode?
        for l in lines {
            if let (begin, name) = ContentLineSyntax.boundary(l.bytes) {
                if begin { stack.append(RawNode(name: name, line: l.number)) } else if let last = stack.popLast() {
                    if stack.isEmpty { done = last } else { stack[stack.count - 1].children.append(last) }
                }
            } else if case .success(let p) = ContentLineSyntax.parse(l.bytes) {
                stack[stack.count - 1].properties.append((p, l.number))
            }
        }
        return done
    }

    @Test("Tolerant import: LF endings, no DTSTAMP, no UID, an orphan instance, a bad component among good ones")
    func tolerance() throws {
        let text = "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:x\n"
            + "BEGIN:VEVENT\nDTSTART:20260302T090000Z\nSUMMARY:No UID or stamp\nEND:VEVENT\n"
            + "BEGIN:VEVENT\nUID:orphan\nDTSTAMP:20260101T000000Z\nRECURRENCE-ID:20260309T090000Z\nDTSTART:20260309T100000Z\nSUMMARY:Moved\nEND:VEVENT\n"
            + "BEGIN:VEVENT\nUID:bad\nDTSTAMP:20260101T000000Z\nDTSTART:2026-13-45\nSUMMARY:Broken\nEND:VEVENT\n"
            + "BEGIN:VEVENT\nUID:good\nDTSTAMP:20260101T000000Z\nDTSTART:20260310T090000Z\nSUMMARY:Fine\nEND:VEVENT\n"
            + "END:VCALENDAR\n"
        let r1 = try ICalendarImporter().importCalendar(from: text)
        let r2 = try ICalendarImporter().importCalendar(from: text)
        #expect(r1.calendar.items.map(\.uid).contains("good"))
        let generated = try #require(r1.calendar.items.first { $0.uid.hasPrefix("horari-") })
        #expect(generated.uid == r2.calendar.items.first { $0.uid.hasPrefix("horari-") }?.uid)  // deterministic
        #expect(r1.diagnostics.contains { $0.code == .missingProperty && $0.line == 4 && $0.message.contains("no UID") })
        #expect(r1.diagnostics.contains { $0.code == .missingProperty && $0.message.contains("DTSTAMP") })
        #expect(r1.diagnostics.contains { $0.code == .orphanOverride && $0.line == 8 })
        #expect(r1.diagnostics.contains { $0.severity == .error && $0.line == 18 && $0.message.contains("2026-13-45") })
        #expect(r1.calendar.rejected.count == 1)
        let orphan = try #require(r1.calendar.items.first { $0.uid == "orphan" })
        #expect(!orphan.hasMaster)
        let shown = r1.calendar.schedule().occurrences(from: Date(timeIntervalSince1970: 1_772_000_000), to: Date(timeIntervalSince1970: 1_774_000_000))
        #expect(shown.map(\.item.title).contains("Moved"))
        // Strict mode refuses the same file.
        #expect(throws: ICalendarError.self) { try ICalendarImporter(options: ImportOptions(strict: true)).importCalendar(from: text) }
    }

    @Test("Sync by UID: SEQUENCE, then LAST-MODIFIED, decide; nothing is duplicated; missing items are reported")
    func sync() throws {
        func item(_ uid: String, _ title: String, sequence: Int = 0, modified: Int? = nil) throws -> CalendarItem {
            var i = CalendarItem(uid: uid, title: title, start: .utc(try LocalDateTime(year: 2026, month: 3, day: 2, hour: 9)))
            i.sequence = sequence
            if let modified { i.lastModified = .utc(try LocalDateTime(year: 2026, month: 1, day: modified)) }
            return i
        }
        var local = ICalendar(items: [try item("a", "A"), try item("b", "B", sequence: 2), try item("c", "C", modified: 5), try item("d", "D")])
        let incoming = ICalendar(items: [try item("a", "A"), try item("b", "B old", sequence: 1), try item("c", "C new", modified: 9), try item("e", "E"), try item("e", "E twice")])
        let report = local.merge(incoming)
        #expect(report.unchanged == ["a"])
        #expect(report.keptNewer == ["b"])
        #expect(report.updated == ["c"])
        #expect(report.added == ["e"])
        #expect(report.missing == ["d"])
        #expect(local.items.map(\.uid) == ["a", "b", "c", "d", "e"])
        #expect(local.items.first { $0.uid == "c" }?.title == "C new")
        // Merging the same file again changes nothing.
        let again = local.merge(incoming)
        #expect(again.added.isEmpty && again.updated.isEmpty)
        #expect(local.items.count == 5)
    }

    @Test("an instance with no series (an invitation to one occurrence, RFC 5546 §4.4) merges into the series we hold, instance by instance; it never replaces the series")
    func instancesJoinTheirSeries() throws {
        // RFC 5546 §4.4.1's monthly call, and a REQUEST that moves its July
        // instance two days on, as §4.4 reschedules one instance.
        func calendar(_ lines: [String]) throws -> ICalendar {
            try ICalendarImporter().importCalendar(from: (["BEGIN:VCALENDAR", "PRODID:-//Example/ExampleCalendarClient//EN", "VERSION:2.0"] + lines + ["END:VCALENDAR", ""])
                .joined(separator: "\r\n")).calendar
        }
        var ours = try calendar([
            "BEGIN:VEVENT", "UID:guid-1@example.com", "SEQUENCE:0", "RRULE:FREQ=MONTHLY;BYMONTHDAY=1;UNTIL=19980901T210000Z",
            "ORGANIZER:mailto:a@example.com", "ATTENDEE;ROLE=CHAIR;PARTSTAT=ACCEPTED:mailto:a@example.com", "ATTENDEE:mailto:b@example.com",
            "SUMMARY:IETF Calendaring Working Group Meeting", "DTSTART:19970601T210000Z", "DTEND:19970601T220000Z", "DTSTAMP:19970526T083000Z", "END:VEVENT",
        ])
        func instance(sequence: Int, day: String) throws -> ICalendar {
            try calendar([
                "METHOD:REQUEST", "BEGIN:VEVENT", "UID:guid-1@example.com", "RECURRENCE-ID:19970701T210000Z", "SEQUENCE:\(sequence)",
                "ORGANIZER:mailto:a@example.com", "ATTENDEE;RSVP=TRUE:mailto:b@example.com", "SUMMARY:IETF Calendaring Working Group Meeting",
                "DTSTART:199707\(day)T210000Z", "DTEND:199707\(day)T220000Z", "DTSTAMP:19970626T093000Z", "END:VEVENT",
            ])
        }
        let moved = try instance(sequence: 1, day: "03")
        #expect(moved.items.first?.hasMaster == false)
        let report = ours.merge(moved)
        #expect(report.updated == ["guid-1@example.com"])
        let series = try #require(ours.items.first)
        #expect(ours.items.count == 1 && series.hasMaster && series.recurrenceRules.count == 1)
        #expect(series.overrides.map(\.item.start) == [moved.items[0].overrides[0].item.start])
        let schedule = try Schedule(items: ours.items)
        let july = schedule.occurrences(from: Date(timeIntervalSince1970: 867_715_200), to: Date(timeIntervalSince1970: 870_393_600))  // July 1997
        #expect(july.map(\.start.icalValue) == ["19970703T210000Z"], "the 3rd, not the 1st")
        #expect(schedule.occurrences(from: Date(timeIntervalSince1970: 864_000_000), to: Date(timeIntervalSince1970: 904_700_000)).count == 16, "June 1997 to September 1998")
        // The same again changes nothing; an older version of the instance is not taken.
        #expect(ours.merge(moved).unchanged == ["guid-1@example.com"])
        #expect(ours.merge(try instance(sequence: 0, day: "02")).keptNewer == ["guid-1@example.com"])
        #expect(ours.items[0].overrides.map(\.item.sequence) == [1])
        // The same instance named in another zone (17:00 in New York is 21:00 UTC in July) replaces ours, not a second one.
        let newYork = try calendar([
            "BEGIN:VEVENT", "UID:guid-1@example.com", "RECURRENCE-ID;TZID=America/New_York:19970701T170000", "SEQUENCE:2",
            "SUMMARY:IETF Calendaring Working Group Meeting", "DTSTART:19970704T210000Z", "DTEND:19970704T220000Z", "DTSTAMP:19970627T093000Z", "END:VEVENT",
        ])
        #expect(ours.merge(newYork).updated == ["guid-1@example.com"])
        #expect(ours.items[0].overrides.map(\.item.sequence) == [2])
        // A single instance does not replace a change of this and every later one.
        var shifted = try calendar([
            "BEGIN:VEVENT", "UID:s", "RRULE:FREQ=DAILY;COUNT=5", "DTSTART:20261123T090000Z", "DURATION:PT1H", "SUMMARY:S", "DTSTAMP:20261101T000000Z", "END:VEVENT",
            "BEGIN:VEVENT", "UID:s", "RECURRENCE-ID;RANGE=THISANDFUTURE:20261124T090000Z", "DTSTART:20261124T100000Z", "DURATION:PT1H", "SUMMARY:S",
            "SEQUENCE:1", "DTSTAMP:20261101T000000Z", "END:VEVENT",
        ])
        let single = try calendar(["BEGIN:VEVENT", "UID:s", "RECURRENCE-ID:20261124T090000Z", "DTSTART:20261124T110000Z", "DURATION:PT1H", "SUMMARY:S",
                                   "SEQUENCE:2", "DTSTAMP:20261102T000000Z", "END:VEVENT"])
        #expect(shifted.merge(single).keptNewer == ["s"] && shifted.items[0].overrides.map(\.thisAndFuture) == [true])
        // An old invitation for a date the series has cancelled since does not bring it back.
        var cancelled = try calendar([
            "BEGIN:VEVENT", "UID:c", "RRULE:FREQ=DAILY;COUNT=5", "EXDATE:20261124T090000Z", "DTSTART:20261123T090000Z", "DURATION:PT1H", "SUMMARY:C",
            "SEQUENCE:2", "DTSTAMP:20261101T000000Z", "END:VEVENT",
        ])
        let stale = try calendar(["METHOD:REQUEST", "BEGIN:VEVENT", "UID:c", "RECURRENCE-ID:20261124T090000Z", "DTSTART:20261124T090000Z", "DURATION:PT1H",
                                  "SUMMARY:C", "SEQUENCE:1", "DTSTAMP:20261020T000000Z", "END:VEVENT"])
        #expect(cancelled.merge(stale).keptNewer == ["c"] && cancelled.items[0].overrides.isEmpty)
    }

    @Test("instances only on both sides (two invitations to one series) keep each other; the series arriving after them keeps them")
    func instancesWithoutASeries() throws {
        func invitation(_ lines: [String]) throws -> ICalendar {
            try ICalendarImporter().importCalendar(from: (["BEGIN:VCALENDAR", "PRODID:-//Example/ExampleCalendarClient//EN", "VERSION:2.0", "METHOD:REQUEST", "BEGIN:VEVENT",
                                                           "UID:guid-1@example.com", "SUMMARY:Call", "ORGANIZER:mailto:a@example.com"] + lines + ["END:VEVENT", "END:VCALENDAR", ""])
                .joined(separator: "\r\n")).calendar
        }
        var ours = try invitation(["RECURRENCE-ID:19970701T210000Z", "DTSTART:19970703T210000Z", "DTEND:19970703T220000Z", "SEQUENCE:1", "DTSTAMP:19970626T093000Z"])
        let august = try invitation(["RECURRENCE-ID:19970801T210000Z", "DTSTART:19970805T210000Z", "DTEND:19970805T220000Z", "SEQUENCE:1", "DTSTAMP:19970627T093000Z"])
        #expect(ours.merge(august).updated == ["guid-1@example.com"])
        #expect(ours.items.count == 1 && ours.items[0].overrides.count == 2, "the July instance stays")
        let series = try invitation(["RRULE:FREQ=MONTHLY;BYMONTHDAY=1;COUNT=4", "DTSTART:19970601T210000Z", "DTEND:19970601T220000Z", "SEQUENCE:1", "DTSTAMP:19970628T093000Z"])
        #expect(ours.merge(series).updated == ["guid-1@example.com"])
        #expect(ours.items[0].hasMaster && ours.items[0].overrides.count == 2)
        let starts = try Schedule(items: ours.items).occurrences(from: Date(timeIntervalSince1970: 864_000_000), to: Date(timeIntervalSince1970: 880_000_000)).map(\.start.icalValue)
        #expect(starts == ["19970601T210000Z", "19970703T210000Z", "19970805T210000Z", "19970901T210000Z"])
    }

    @Test("a merge into a calendar with nothing of its own takes the incoming calendar's properties; one with its own keeps them and says which differ")
    func calendarProperties() throws {
        // As Google writes a calendar's own lines (its exports' header).
        let google = """
            BEGIN:VCALENDAR\r
            PRODID:-//Google Inc//Google Calendar 70.9054//EN\r
            VERSION:2.0\r
            CALSCALE:GREGORIAN\r
            METHOD:PUBLISH\r
            X-WR-CALNAME:Team\r
            X-WR-TIMEZONE:Europe/Madrid\r
            X-WR-CALDESC:Who is where\r
            REFRESH-INTERVAL;VALUE=DURATION:PT1H\r
            BEGIN:VEVENT\r
            UID:t-1\r
            DTSTAMP:20260101T000000Z\r
            DTSTART:20260302T100000Z\r
            SUMMARY:Stand-up\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let incoming = try ICalendarImporter().importCalendar(from: google).calendar
        var fresh = ICalendar()
        let report = fresh.merge(incoming)
        // Not the feed's REFRESH-INTERVAL: a calendar made from a feed is not the feed (issue 44, 9).
        #expect(Set(report.takenCalendarProperties) == ["X-WR-CALNAME", "X-WR-TIMEZONE", "X-WR-CALDESC"])
        #expect(report.calendarPropertiesNotTaken.isEmpty)
        let written = ICalendarExporter().export(fresh)
        for line in ["X-WR-CALNAME:Team", "X-WR-TIMEZONE:Europe/Madrid", "X-WR-CALDESC:Who is where"] {
            #expect(written.contains(line + "\r\n"), "\(line)")
        }
        #expect(!written.contains("REFRESH-INTERVAL") && fresh.refreshInterval == nil)
        #expect(!written.contains("METHOD"), "a stored calendar has no iTIP method")
        // Our own calendar keeps its name and zone, and hears which differ.
        var ours = ICalendar()
        ours.name = "Mine"
        ours.timeZone = "Europe/Lisbon"
        let second = ours.merge(incoming)
        #expect(second.takenCalendarProperties.isEmpty)
        // (Not REFRESH-INTERVAL: it is about the feed the file came from, not
        // about this calendar, which has none to keep; issue 44, 9.)
        #expect(Set(second.calendarPropertiesNotTaken) == ["X-WR-CALNAME", "X-WR-TIMEZONE", "X-WR-CALDESC"])
        #expect(!ours.properties.contains { $0.name == "REFRESH-INTERVAL" })
        // A calendar that has one of its own keeps it, and hears that the file's differs.
        var feed = ICalendar()
        feed.refreshInterval = .seconds(900)
        #expect(feed.merge(incoming).calendarPropertiesNotTaken.contains("REFRESH-INTERVAL") && feed.refreshInterval == .seconds(900))
        #expect(ours.name == "Mine" && ours.timeZone == "Europe/Lisbon" && ours.items.count == 1)
        // The same file again into the first: nothing differs, nothing said.
        let again = fresh.merge(incoming)
        #expect(again.calendarPropertiesNotTaken.isEmpty && again.takenCalendarProperties.isEmpty)
    }

    @Test("A calendar whose only property is its zone keeps it, and every zone property it has, when a file of another zone is merged in (issue 28, 1)")
    func mergeKeepsTheTargetsZone() throws {
        // A gym calendar in Tokyo, as `horari export` writes one: the book's
        // zone and Google's, a name.
        let tokyo = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//Horari tests//Zones//EN\r
            X-WR-CALNAME:Tokyo gym\r
            X-WR-TIMEZONE:Asia/Tokyo\r
            X-HORARI-TIMEZONE:Asia/Tokyo\r
            BEGIN:VEVENT\r
            UID:tokyo-1\r
            DTSTAMP:20260101T000000Z\r
            DTSTART;TZID=Asia/Tokyo:20261124T100000\r
            SUMMARY:Kendo\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let incoming = try ICalendarImporter().importCalendar(from: tokyo).calendar
        // A Madrid calendar as `horari add --time-zone Europe/Madrid` makes
        // one: X-WR-TIMEZONE and nothing else of its own.
        var madrid = ICalendar()
        madrid.timeZone = "Europe/Madrid"
        let report = madrid.merge(incoming)
        #expect(madrid.calendarZone == "Europe/Madrid")
        #expect(!madrid.properties.contains { $0.name == "X-HORARI-TIMEZONE" }, "\(madrid.properties)")
        #expect(report.takenCalendarProperties.isEmpty)
        #expect(Set(report.calendarPropertiesNotTaken) == ["X-WR-TIMEZONE", "X-WR-CALNAME", "X-HORARI-TIMEZONE"])
        #expect(madrid.items.map(\.uid) == ["tokyo-1"])
        // A calendar that keeps its clock in an application's property alone
        // (as `horari import` into a new calendar writes the book's zone)
        // takes no X-WR-TIMEZONE either, when the merge is told of that
        // property: that would read its floating times in Tokyo.
        var app = ICalendar()
        app.properties = [ContentLine(name: "X-APP-TIMEZONE", value: "Europe/Madrid")]
        var untold = app
        let second = app.merge(incoming, zoneNamedBy: ["X-APP-TIMEZONE"])
        #expect(app.timeZone == nil && app.calendarZone(namedBy: ["X-APP-TIMEZONE"]) == "Europe/Madrid")
        #expect(second.calendarPropertiesNotTaken.contains("X-WR-TIMEZONE"))
        // Not told, the format knows no such property: the calendar has no clock, and takes Tokyo's.
        #expect(untold.calendarZone == nil)
        let third = untold.merge(incoming)
        #expect(untold.timeZone == "Asia/Tokyo" && third.takenCalendarProperties == ["X-WR-TIMEZONE"])
    }

    @Test("A calendar's own clock: the first zone property it is told of that the calendar has, else X-WR-TIMEZONE, as an IANA name")
    func calendarZoneNamedBy() {
        var calendar = ICalendar(timeZone: "Europe/Madrid")
        #expect(calendar.calendarZone == "Europe/Madrid")
        #expect(calendar.calendarZone(namedBy: ["X-A-TIMEZONE"]) == "Europe/Madrid")
        calendar.properties = [ContentLine(name: "X-B-TIMEZONE", value: "Asia/Tokyo"), ContentLine(name: "X-A-TIMEZONE", value: "America/New_York")]
        #expect(calendar.calendarZone == "Europe/Madrid")
        #expect(calendar.calendarZone(namedBy: ["X-A-TIMEZONE", "X-B-TIMEZONE"]) == "America/New_York")
        #expect(calendar.calendarZone(namedBy: ["X-C-TIMEZONE", "X-B-TIMEZONE"]) == "Asia/Tokyo")
        #expect(calendar.schedule(zoneNamedBy: ["X-B-TIMEZONE"]).timeZone?.identifier == "Asia/Tokyo")
        #expect(calendar.schedule().timeZone?.identifier == "Europe/Madrid")
    }
}
