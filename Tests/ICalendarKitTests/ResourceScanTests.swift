import CalendarCore
import Foundation
import ICalendarKit
import Testing

/// ``ICalendarResourceScan``: a folder's or a collection's resources read as
/// one import, each diagnostic at the line a resource read alone gives it.
@Suite("Resources read as one import")
struct ResourceScanTests {
    /// A resource as a Unix editor leaves it: LF, a folded SUMMARY, a COLOR the importer warns about.
    static let edited = Array("""
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Editor//EN
        BEGIN:VEVENT
        UID:edited
        DTSTAMP:20260101T000000Z
        SUMMARY:Spin class with a title long enough
          to be folded
        DTSTART:20260302T090000Z
        COLOR:notacolour
        DTEND:20260302T100000Z
        END:VEVENT
        END:VCALENDAR

        """.utf8)

    static let plain = Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VTIMEZONE\r\nTZID:Europe/Madrid\r\nBEGIN:STANDARD\r\nDTSTART:19701025T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\nBEGIN:VTODO\r\nUID:plain\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Pay the rent\r\nEND:VTODO\r\nEND:VCALENDAR\r\n".utf8)

    @Test("a diagnostic in the joined text names the line the resource alone gives it")
    func linesMapBack() throws {
        let scans = [ICalendarResourceScan(bytes: Self.plain), ICalendarResourceScan(bytes: Self.edited)]
        #expect(scans[0]?.uids == ["plain"])
        #expect(scans[0]?.blocks.first?.timeZone == "Europe/Madrid")
        #expect(scans[1]?.uids == ["edited"])
        let (text, origin) = ICalendarResourceScan.join(scans)
        let joined = try ICalendarImporter().importCalendar(from: Data(text))
        let alone = try ICalendarImporter().importCalendar(from: Data(Self.edited))
        #expect(Set(joined.calendar.items.map(\.uid)) == ["plain", "edited"])
        #expect(joined.calendar.items.first { $0.uid == "edited" }?.title == "Spin class with a title long enough to be folded")
        let said = try #require(alone.diagnostics.first { $0.message.contains("notacolour") })
        let found = try #require(joined.diagnostics.first { $0.message == said.message })
        #expect(origin[found.line - 1].source == 1)
        #expect(origin[found.line - 1].line == said.line)
        #expect(said.line == 10)
    }

    @Test("names are read in any case, and only whole: begin, Uid, tzId are the cut's; UIDX, TZ, BEGINS, a name with a parameter are not confused")
    func namesInAnyCase() throws {
        let text = "begin:vcalendar\r\nProdId:-//Lower//EN\r\nBegin:VTimeZone\r\ntzId;X-A=1:Europe/Rome\r\nTZ:x\r\nend:vtimezone\r\n"
            + "BEGIN:VEVENT\r\nUIDX:not-it\r\nBEGINS:x\r\nUid:the-uid\r\nDTSTAMP:20260101T000000Z\r\nEnd:VEvent\r\nEND:VCALENDAR\r\n"
        let scan = try #require(ICalendarResourceScan(bytes: Array(text.utf8)))
        #expect(scan.uids == ["the-uid"])
        #expect(scan.blocks.first?.timeZone == "Europe/Rome")
        #expect(scan.productLine == Array("ProdId:-//Lower//EN\r\n".utf8))
        #expect(scan.blocks.count == 2 && scan.blocks[1].lines.map(\.number) == Array(7...12))
        // A component left open, in lower case too, is no resource.
        #expect(ICalendarResourceScan(bytes: Array(text.replacingOccurrences(of: "End:VEvent\r\n", with: "").utf8)) == nil)
    }

    @Test("a resource the join cannot read as its own gives no scan", arguments: [
        ("no UID", "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20260101T090000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"),
        ("a zone without TZID", "BEGIN:VCALENDAR\r\nBEGIN:VTIMEZONE\r\nEND:VTIMEZONE\r\nEND:VCALENDAR\r\n"),
        ("text after the calendar", "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nEND:VEVENT\r\nEND:VCALENDAR\r\nBEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"),
        ("a control character", "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nSUMMARY:a\u{07}b\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"),
        ("unbalanced", "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"),
        ("not a calendar", "BEGIN:VEVENT\r\nUID:a\r\nEND:VEVENT\r\n"),
        ("unfinished", "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nEND:VEVENT\r\n"),
        ("a BEGIN without a colon", "BEGIN:VCALENDAR\r\nBEGIN\r\nUID:a\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"),
    ])
    func refused(_ why: String, _ text: String) {
        #expect(ICalendarResourceScan(bytes: Array(text.utf8)) == nil, "\(why)")
    }

    @Test("for its UIDs alone, a resource with a line the importer cleans is read: a collection's index of members stays whole")
    func uidsAlone() {
        let text = Array("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nSUMMARY:Bring\u{07} shoes\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
        #expect(ICalendarResourceScan(bytes: text) == nil)
        #expect(ICalendarResourceScan(bytes: text, joining: false)?.uids == ["a"])
    }

    @Test("a line longer than the importer reads whole gives no scan")
    func longLine() {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nSUMMARY:\(String(repeating: "x", count: 200))\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        #expect(ICalendarResourceScan(bytes: Array(text.utf8), maxLineBytes: 100) == nil)
        #expect(ICalendarResourceScan(bytes: Array(text.utf8), maxLineBytes: 1000)?.uids == ["a"])
    }
}
