import CalendarCore
import Foundation
import Testing
@testable import ICalendarKit

@Suite("iCalendar values read without libical")
struct ICalendarValueTests {
    #if LibICal
    /// RFC 5545 §3.3.6's examples, what real producers write (Outlook's `P1W2D`,
    /// zero lengths, a sign) and malformed text: our reader must agree with libical,
    /// which used to read DURATION for the importer.
    @Test("DURATION is read as libical reads it", arguments: [
        "P15DT5H0M20S", "P7W", "PT1H", "PT30M", "PT0S", "P0D", "+PT15M", "-PT15M", "-P1D", "P1DT12H",
        "PT1H30M", "PT90M", "P2W", "P1W2D", "PT5S", "PT36H", "P1D", "PT1H0M0S", "P400D",
        "", "P", "PT", "1H", "P1H", "PT1D", "PXYZ", "P1.5D", "P-1D", "PT1H2", "xPT1H",
    ])
    func durationAgreesWithLibical(_ text: String) {
        let ours = DurationValue.parse(Substring(text)).map { ($0.duration.days, $0.duration.seconds, $0.negative) }
        let theirs = LibICalReferee.duration(text)
        // Where libical is wrong: RFC 5545 §3.3.6 needs at least one number with
        // its unit, and every number needs one. libical reads "", "P" and "PT" as
        // a zero length and drops the "2" of "PT1H2"; we refuse them (the import
        // reports the line and ignores the DURATION) rather than guess.
        if ["", "P", "PT", "PT1H2"].contains(text) {
            #expect(ours == nil, "\(text) is not an RFC 5545 duration")
            #expect(theirs != nil, "libical now refuses \(text): drop it from the list of its defects")
            return
        }
        #expect(ours?.0 == theirs?.days && ours?.1 == theirs?.seconds && ours?.2 == theirs?.negative,
                "\(text): ours \(String(describing: ours)), libical \(String(describing: theirs))")
    }
    #endif

    @Test("Dates, date-times and calendar times are ISO 8601 strings in JSON, and impossible ones are refused when decoded")
    func isoCodable() throws {
        let t = try LocalDateTime(year: 2028, month: 2, day: 29, hour: 23, minute: 59, second: 58)
        func json(_ value: some Encodable) throws -> String { String(decoding: try JSONEncoder().encode([value]), as: UTF8.self) }
        #expect(try json(t) == #"["2028-02-29T23:59:58"]"#)
        #expect(try json(t.date) == #"["2028-02-29"]"#)
        let times: [(CalendarTime, String)] = [
            (.date(t.date), "2028-02-29"), (.floating(t), "2028-02-29T23:59:58"), (.utc(t), "2028-02-29T23:59:58Z"),
            // Madrid is on CET (+01:00) in February and CEST (+02:00) in July (RFC 9557's bracketed zone).
            (.zoned(t, "Europe/Madrid"), "2028-02-29T23:59:58+01:00[Europe/Madrid]"),
            (.zoned(try LocalDateTime(year: 2026, month: 7, day: 1, hour: 9), "Europe/Madrid"), "2026-07-01T09:00:00+02:00[Europe/Madrid]"),
            (.zoned(t, "X-Unknown-Zone"), "2028-02-29T23:59:58[X-Unknown-Zone]"),
        ]
        for (time, text) in times {
            #expect(try json(time) == "[\"\(text.replacingOccurrences(of: "/", with: "\\/"))\"]", "\(time)")
            #expect(try JSONDecoder().decode([CalendarTime].self, from: JSONEncoder().encode([time])) == [time])
        }
        // An offset without a zone names an instant: it is read as UTC.
        #expect(try CalendarTime(isoText: "2026-11-25T18:30:00+01:00") == .utc(try LocalDateTime(year: 2026, month: 11, day: 25, hour: 17, minute: 30)))
        #expect(try JSONDecoder().decode([LocalDateTime].self, from: JSONEncoder().encode([t])) == [t])
        for bad in [#"["2026-02-30"]"#, #"["2026-2-3"]"#, #"[{"year":2026,"month":2,"day":3}]"#] {
            #expect(throws: DecodingError.self, "\(bad)") { try JSONDecoder().decode([LocalDate].self, from: Data(bad.utf8)) }
        }
        for bad in [#"["2026-01-01T24:00:00"]"#, #"["2026-01-01 10:00:00"]"#] {
            #expect(throws: DecodingError.self, "\(bad)") { try JSONDecoder().decode([LocalDateTime].self, from: Data(bad.utf8)) }
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([CalendarTime].self, from: Data(#"["2026-01-01T10:00:00[]"]"#.utf8)) }
    }

    @Test("Items share their fields until one copy changes")
    func itemCopyOnWrite() throws {
        var a = CalendarItem(uid: "a", title: "Yoga", start: .date(try LocalDate(year: 2026, month: 3, day: 2)))
        let b = a
        a.title = "Pilates"
        a.overrides.append(RecurrenceOverride(recurrenceID: a.start, item: a))
        #expect(b.title == "Yoga" && b.overrides.isEmpty)
        #expect(a.title == "Pilates" && a.overrides.count == 1)
        #expect(a != b)
        let decoded = try JSONDecoder().decode(CalendarItem.self, from: JSONEncoder().encode(a))
        #expect(decoded == a && decoded.hashValue == a.hashValue)
    }
}
