import CalendarCore
import Foundation
import Testing
import _CalendarTestFixtures
@testable import ICalendarKit

/// `ImportOptions.detail`: a `.schedule` import keeps what expansion reads
/// and nothing else — the same occurrences as a complete import, the same
/// diagnostics, and no descriptions, locations, alarms or kept properties.
@Suite("Import detail")
struct ItemDetailTests {
    struct Seen: Equatable {
        var id: Occurrence.ID, start: Int64, end: Int64, title: String, kind: CalendarItem.Kind, status: ItemStatus?, color: ItemColor?, done: Bool
        init(_ o: Occurrence) {
            (id, start, end, title, kind, status, color, done) = (o.id, o.startSeconds, o.endSeconds, o.item.title, o.item.kind, o.item.status, o.item.color, o.item.isDone)
        }
    }

    @Test("every fixture calendar and fuzzing find: the same occurrences over thirty years and the same diagnostics")
    func sameOccurrences() throws {
        let ics = try Fixture.url("ics")
        let fuzz = try Fixture.url("fuzz/import")
        let files = try FileManager.default.contentsOfDirectory(atPath: ics.path).filter { $0.hasSuffix(".ics") }.map { ics.appendingPathComponent($0) }
            + FileManager.default.contentsOfDirectory(atPath: fuzz.path).map { fuzz.appendingPathComponent($0) }
        var occurrences = 0
        for url in files.sorted(by: { $0.path < $1.path }) {
            let complete: ImportResult, lean: ImportResult
            do {
                complete = try ICalendarImporter(options: ImportOptions(checksWithLibICal: false)).importCalendar(contentsOf: url)
            } catch {
                #expect(throws: ICalendarError.self) { try ICalendarImporter(options: ImportOptions(checksWithLibICal: false, detail: .schedule)).importCalendar(contentsOf: url) }
                continue
            }
            lean = try ICalendarImporter(options: ImportOptions(checksWithLibICal: false, detail: .schedule)).importCalendar(contentsOf: url)
            #expect(lean.diagnostics == complete.diagnostics, "\(url.lastPathComponent)")
            #expect(lean.calendar.items.map(\.uid) == complete.calendar.items.map(\.uid), "\(url.lastPathComponent)")
            let from = Date(timeIntervalSince1970: 946_684_800), to = from.addingTimeInterval(30 * 366 * 86_400)
            let a = complete.calendar.schedule().occurrences(from: from, to: to).map(Seen.init)
            let b = lean.calendar.schedule().occurrences(from: from, to: to).map(Seen.init)
            #expect(a == b, "\(url.lastPathComponent)")
            occurrences += a.count
        }
        #expect(occurrences > 1_000)
    }

    @Test("what a schedule import leaves out")
    func leftOut() throws {
        let text = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//Test//EN\r
            BEGIN:VEVENT\r
            UID:talk-1\r
            DTSTAMP:20260101T000000Z\r
            DTSTART;TZID=Europe/Madrid:20260302T100000\r
            DURATION:PT1H\r
            RRULE:FREQ=WEEKLY;COUNT=3\r
            SUMMARY:Talk\r
            DESCRIPTION:Bring the slides\r
            LOCATION:Room 4\r
            CATEGORIES:Work\r
            COLOR:teal\r
            ORGANIZER;CN=Ana:mailto:ana@example.com\r
            X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC\r
            BEGIN:VALARM\r
            ACTION:DISPLAY\r
            DESCRIPTION:Reminder\r
            TRIGGER:-PT15M\r
            END:VALARM\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let full = try #require(try ICalendarImporter().importCalendar(from: text).calendar.items.first)
        let lean = try #require(try ICalendarImporter(options: ImportOptions(detail: .schedule)).importCalendar(from: text).calendar.items.first)
        #expect(full.notes == "Bring the slides" && full.location == "Room 4" && full.categories == ["Work"])
        #expect(full.properties.count == 2 && full.alarms.count == 1 && full.components.isEmpty)
        #expect(lean.notes == nil && lean.location == nil && lean.categories.isEmpty)
        #expect(lean.properties.isEmpty && lean.components.isEmpty && lean.alarms.isEmpty)
        #expect(lean.title == full.title && lean.start == full.start && lean.end == full.end && lean.color == full.color)
        #expect(lean.recurrenceRules == full.recurrenceRules && lean.timestamp == full.timestamp)
    }
}
