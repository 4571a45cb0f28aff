import CalendarCore
import Foundation
@testable import ICalendarKit
import Testing
import _CalendarTestFixtures

/// Issue 44, 8: jCal (RFC 7265) both ways, on the RFC's own examples, a
/// calendar holding every value type, and what a person gets wrong.
@Suite("jCal (RFC 7265)")
struct JCalTests {
    /// Exports written with one stamp, so that two exports compare.
    static let exporter = ICalendarExporter(options: .init(timestamp: Date(timeIntervalSince1970: 1_795_000_000)))

    static func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    @Test("the RFC's Appendix B examples: the jCal and the iCalendar it gives import to the same calendar", arguments: ["rfc7265-b1", "rfc7265-b2"])
    func rfcExamples(_ name: String) throws {
        let fromJCal = try ICalendarImporter().importCalendar(jCal: try Fixture.data("jcal/\(name).json"))
        let fromICS = try ICalendarImporter().importCalendar(from: try Fixture.text("jcal/\(name).ics"))
        #expect(!fromJCal.calendar.items.isEmpty && fromJCal.diagnostics.isEmpty, "\(fromJCal.diagnostics)")
        #expect(Self.exporter.export(fromJCal.calendar) == Self.exporter.export(fromICS.calendar))
        // And written as jCal, it is the RFC's jCal, value for value.
        let ours = try Self.json(JCal.json(fromICalendar: try Fixture.text("jcal/\(name).ics"))) as? [Any]
        let theirs = try JSONSerialization.jsonObject(with: try Fixture.data("jcal/\(name).json")) as? [Any]
        if name == "rfc7265-b1" {
            // B.1 writes DTSTART as a date without VALUE=DATE, which is a date-time's default type: kept as written ("unknown").
            #expect(JCal.json(fromICalendar: try Fixture.text("jcal/\(name).ics")).contains(#"["dtstart",{},"unknown","20081006"]"#))
        } else {
            // B.2 writes its period as one string (an erratum of §3.6.9); ours is [start, duration].
            let rfc = String(decoding: try Fixture.data("jcal/\(name).json"), as: UTF8.self)
                .replacingOccurrences(of: #""2006-01-02T15:00:00/PT2H""#, with: #"["2006-01-02T15:00:00", "PT2H"]"#)
            let fixed = try JSONSerialization.jsonObject(with: Data(rfc.utf8)) as? NSArray
            #expect(ours.map { NSArray(array: $0) } == fixed, "\(String(describing: ours))")
            #expect(theirs != nil)
        }
    }

    /// A calendar with a property of every value type, and the jCal each takes.
    static let everyType = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Horari//jCal test//EN\r
        X-WR-CALNAME:Gimnàs\\, Sants\r
        BEGIN:VEVENT\r
        UID:every-type@horari\r
        DTSTAMP:20261128T100000Z\r
        DTSTART;TZID=Europe/Madrid:20261130T183000\r
        DURATION:PT1H30M\r
        RRULE:FREQ=WEEKLY;UNTIL=20261231T225959Z;BYDAY=MO,WE;INTERVAL=2\r
        EXDATE;TZID=Europe/Madrid:20261207T183000,20261209T183000\r
        RDATE;VALUE=PERIOD:20261202T100000Z/20261202T110000Z,20261203T100000Z/PT1H\r
        SUMMARY:Yoga\\; stretch\\, breathe\\nBring a mat\r
        CATEGORIES:Yoga,Mind\\, body\r
        GEO:41.375;2.1406\r
        PRIORITY:3\r
        SEQUENCE:2\r
        REQUEST-STATUS:2.0;Success\r
        ATTENDEE;CN="Roig, Marta";X-NOTE=say ^'hi^'^nat ^^nine^^^';PARTSTAT=ACCEPTED:mailto:marta@example.com\r
        X-HORARI-BOOL;VALUE=BOOLEAN:TRUE\r
        X-HORARI-TIME;VALUE=TIME:183000\r
        X-HORARI-ANY:a\\,b;c\r
        PRIORITY:high\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        DESCRIPTION:Yoga\r
        TRIGGER:-PT15M\r
        END:VALARM\r
        END:VEVENT\r
        BEGIN:VTIMEZONE\r
        TZID:Europe/Madrid\r
        BEGIN:STANDARD\r
        DTSTART:19701025T030000\r
        TZOFFSETFROM:+0200\r
        TZOFFSETTO:+0100\r
        END:STANDARD\r
        END:VTIMEZONE\r
        END:VCALENDAR\r

        """

    @Test("each value in the form its type takes (§3.6), and back to the same iCalendar lines")
    func everyValueType() throws {
        let json = JCal.json(fromICalendar: Self.everyType)
        for expected in [
            #"["x-wr-calname",{},"unknown","Gimnàs\\, Sants"]"#,
            #"["dtstart",{"tzid":"Europe/Madrid"},"date-time","2026-11-30T18:30:00"]"#,
            #"["duration",{},"duration","PT1H30M"]"#,
            #"["rrule",{},"recur",{"freq":"WEEKLY","until":"2026-12-31T22:59:59Z","byday":["MO","WE"],"interval":2}]"#,
            #"["exdate",{"tzid":"Europe/Madrid"},"date-time","2026-12-07T18:30:00","2026-12-09T18:30:00"]"#,
            #"["rdate",{},"period",["2026-12-02T10:00:00Z","2026-12-02T11:00:00Z"],["2026-12-03T10:00:00Z","PT1H"]]"#,
            #"["summary",{},"text","Yoga; stretch, breathe\nBring a mat"]"#,
            #"["categories",{},"text","Yoga","Mind, body"]"#,
            #"["geo",{},"float",[41.375,2.1406]]"#,
            #"["priority",{},"integer",3]"#,
            #"["request-status",{},"text",["2.0","Success"]]"#,
            #"["attendee",{"cn":"Roig, Marta","x-note":"say \"hi\"\nat ^nine^\"","partstat":"ACCEPTED"},"cal-address","mailto:marta@example.com"]"#,
            #"["x-horari-bool",{},"boolean",true]"#,
            #"["x-horari-time",{},"time","18:30:00"]"#,
            #"["x-horari-any",{},"unknown","a\\,b;c"]"#,
            #"["priority",{},"unknown","high"]"#,
            #"["trigger",{},"duration","-PT15M"]"#,
            #"["tzoffsetfrom",{},"utc-offset","+02:00"]"#,
        ] {
            #expect(json.contains(expected), "\(expected) not in \(json)")
        }
        #expect(try Self.json(json) is [Any], "valid JSON")
        // Back: the same content lines, unfolded; VALUE first where the type is not the default.
        let back = try JCal.iCalendarText(fromJSON: Data(json.utf8))
        let lines = Set(back.components(separatedBy: "\r\n"))
        for line in Self.everyType.components(separatedBy: "\r\n") where !line.isEmpty {
            #expect(lines.contains(line), "\(line) not in \(back)")
        }
    }

    @Test("a calendar as Horari writes it goes through jCal and back to the same .ics")
    func roundTrip() throws {
        let original = try ICalendarImporter().importCalendar(from: Self.everyType).calendar
        let ics = Self.exporter.export(original)
        let again = try ICalendarImporter().importCalendar(jCal: Data(Self.exporter.exportJCal(original).utf8)).calendar
        #expect(Self.exporter.export(again) == ics)
        let gym = try ICalendarImporter().importCalendar(from: try Fixture.text("ics/gym.ics")).calendar
        let gymBack = try ICalendarImporter().importCalendar(jCal: Data(Self.exporter.exportJCal(gym).utf8)).calendar
        #expect(Self.exporter.export(gymBack) == Self.exporter.export(gym))
    }

    @Test("what is not jCal is refused with the JSON's line and column, and a reason a person can act on")
    func refusals() {
        let cases: [(String, Int, Int, String)] = [
            ("[\"vcalendar\", [], []", 1, 21, "a ']' is missing"),
            ("{\"vcalendar\": []}", 1, 1, "a jCal document is an array"),
            ("[\"vcalendar\",\n  [[\"dtstart\", {}, \"2026-11-30\"]],\n  []]", 2, 4, "a property is [name, {parameters}, type, value…]"),
            ("[\"vcalendar\", [], [[\"vevent\", [[\"dtstart\", {}, \"date-time\", \"2026-11-30 18:30\"]], []]]]", 1, 61, "is not a date-time as jCal writes one"),
            ("[\"vcalendar\", [[\"x-a\", {\"x-p\": \"a\\nb\"}, \"unknown\", \"v\"]], []]", 1, 1, ""),
            ("[\"vcalendar\", [[\"x-a\", {}, \"unknown\", \"v\\r\\nBEGIN:VEVENT\"]], []]", 1, 39, "would end the iCalendar line"),
            ("[\"vcalendar\", [[\"x-a\", {\"value\": \"TEXT\"}, \"text\", \"v\"]], []]", 1, 34, "gives its VALUE as its type"),
            ("[\"vcalendar\", [[\"sequence\", {}, \"integer\", 1.5]], []]", 1, 44, "an integer value is a whole number"),
            ("[\"vcalendar\", [[\"rrule\", {}, \"recur\", {\"count\": 2}]], []]", 1, 39, "a rule has a freq"),
            ("[\"vcal endar\", [], []]", 1, 2, "not a component name"),
            (String(repeating: "[", count: 100), 1, 65, "nested more than 64 deep"),
            ("[\"vcalendar\", [], []] x", 1, 23, "more text after the document's end"),
            // What the review found: a component opened by a property, an exponent, a bad duration, a control character, a key given twice.
            ("[\"vcalendar\", [[\"end\", {}, \"unknown\", \"VCALENDAR\"]], []]", 1, 17, "cannot be a property"),
            ("[\"vcalendar\", [[\"geo\", {}, \"float\", [1e999, 2.5]]], []]", 1, 38, "without an exponent"),
            ("[\"vcalendar\", [[\"x-f\", {}, \"float\", 1.5e3]], []]", 1, 37, "without an exponent"),
            ("[\"vcalendar\", [[\"duration\", {}, \"duration\", \"PT1H,garbage\"]], []]", 1, 45, "is not a duration"),
            ("[\"vcalendar\", [[\"freebusy\", {}, \"period\", [\"2026-11-30T10:00:00Z\", \"PT1H,20261130T140000Z/PT9H\"]]], []]", 1, 68, "is not a duration"),
            ("[\"vcalendar\", [[\"summary\", {}, \"text\", \"a\\u000bb\"]], []]", 1, 40, "iCalendar text cannot hold"),
            ("[\"vcalendar\", [[\"x-a\", {\"x-p\": \"a\",\n \"X-P\": \"b\"}, \"unknown\", \"v\"]], []]", 2, 2, "is given twice"),
            ("[\"vcalendar\", [[\"x-a\", {\"bad key\":\n \"v\"}, \"unknown\", \"v\"]], []]", 1, 25, "‘bad key’ is not a parameter name"),
            ("[\"vcalendar\", [[\"x-é\", {}, \"unknown\", \"v\"]], [\"Gimnàs\"]]", 1, 17, "is not a property name"),
        ]
        for (text, line, column, message) in cases {
            do {
                let ics = try JCal.iCalendarText(fromJSON: Data(text.utf8))
                // A parameter's newline is written as RFC 6868's ^n: taken, on one line.
                #expect(message.isEmpty && ics.contains("X-A;X-P=a^nb:v\r\n"), "\(text) was taken: \(ics)")
            } catch {
                #expect(!message.isEmpty && error.line == line && error.column == column && error.message.contains(message), "\(text): \(error)")
            }
        }
        // An object of many keys reads in linear time (a 200,000-key object did not end in 300 s before).
        let many = "[\"vcalendar\", [[\"x-a\", {" + (0..<100_000).map { "\"x-k\($0)\": \"v\"" }.joined(separator: ",") + "}, \"unknown\", \"v\"]], []]"
        let started = Date()
        #expect((try? JCal.iCalendarText(fromJSON: Data(many.utf8))) != nil)
        #expect(Date().timeIntervalSince(started) < 20, "a bound far above the ~1 s it takes, against the quadratic reader's minutes")
        let error = #expect(throws: ICalendarError.self) { try ICalendarImporter().importCalendar(jCal: Data("[1]".utf8)) }
        #expect(error?.code == .invalidJCal && error?.message.hasPrefix("not jCal (RFC 7265) at line 1, column 2: a component is") == true, "\(String(describing: error))")
    }

    @Test("a VALUE parameter jCal cannot say (empty, two, not a type name) leaves the value unknown, which reads back")
    func valueParametersJCalCannotSay() throws {
        for line in ["X-A;VALUE=:x", "X-B;VALUE=TEXT;VALUE=DATE:20261130", "X-C;VALUE=\"DA TE\":y"] {
            let ics = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n\(line)\r\nEND:VCALENDAR\r\n"
            let json = JCal.json(fromICalendar: ics)
            #expect(json.contains(#","unknown","#), "\(line): \(json)")
            #expect(throws: Never.self, "\(line)") { try JCal.iCalendarText(fromJSON: Data(json.utf8)) }
        }
    }
}
