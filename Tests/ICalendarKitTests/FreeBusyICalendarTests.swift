import CalendarCore
import Foundation
import ICalendarKit
import Testing
import _CalendarTestSupport

/// Issue 32, 4 and 5: VFREEBUSY out and in, and the busy time a calendar's
/// events hold, as a free-busy-query answers it.
@Suite("Free/busy in iCalendar")
struct FreeBusyICalendarTests {
    func utc(_ text: String) throws -> Int64 { try CalendarTime(icalValue: text).epochSeconds(floatingZone: .utc) }

    func calendar(_ body: String...) throws -> ICalendar {
        try ICalendarImporter().importCalendar(from: "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + body.joined(separator: "\r\n") + "\r\nEND:VCALENDAR\r\n").calendar
    }

    @Test("RFC 5545 §3.6.4's examples read: periods with an end and with a length, several on one line")
    func rfcExamples() throws {
        let cal = try calendar(
            "BEGIN:VFREEBUSY", "UID:19970901T095957Z-76A912@example.com", "ORGANIZER:mailto:jane_doe@example.com",
            "ATTENDEE:mailto:john_public@example.com", "DTSTART:19971015T050000Z", "DTEND:19971016T050000Z", "DTSTAMP:19970901T083000Z",
            "FREEBUSY:19971015T050000Z/PT8H30M,19971015T160000Z/PT5H30M,19971015T223000Z/PT6H30M", "END:VFREEBUSY",
            "BEGIN:VFREEBUSY", "UID:19970901T115957Z-76A912@example.com", "DTSTAMP:19970901T120000Z", "ORGANIZER:jsmith@example.com",
            "DTSTART:19980313T141711Z", "DTEND:19980410T141711Z", "FREEBUSY:19980314T233000Z/19980315T003000Z",
            "FREEBUSY:19980316T153000Z/19980316T163000Z", "FREEBUSY:19980318T030000Z/19980318T040000Z", "END:VFREEBUSY")
        let periods = try cal.freeBusyPeriods()
        #expect(periods.map(\.description) == [
            "BUSY 1997-10-15T05:00:00Z/1997-10-15T13:30:00Z", "BUSY 1997-10-15T16:00:00Z/1997-10-15T21:30:00Z",
            "BUSY 1997-10-15T22:30:00Z/1997-10-16T05:00:00Z", "BUSY 1998-03-14T23:30:00Z/1998-03-15T00:30:00Z",
            "BUSY 1998-03-16T15:30:00Z/1998-03-16T16:30:00Z", "BUSY 1998-03-18T03:00:00Z/1998-03-18T04:00:00Z",
        ])
    }

    @Test("a VFREEBUSY with no UID or DTSTAMP (icalendar's issue_798_freebusy.ics) gets a UID from its content: the same in two exports a second apart, and different for different components")
    func generatedUIDIgnoresTheStamp() throws {
        let cal = try calendar("BEGIN:VFREEBUSY", "FREEBUSY;FBTYPE=BUSY-UNAVAILABLE:19970308T160000Z/PT8H30M", "END:VFREEBUSY",
                               "BEGIN:VFREEBUSY", "FREEBUSY:19970308T160000Z/PT3H", "END:VFREEBUSY")
        func uids(at seconds: TimeInterval) -> [String] {
            ICalendarExporter(options: .init(timestamp: Date(timeIntervalSince1970: seconds))).export(cal)
                .split(separator: "\r\n").filter { $0.hasPrefix("UID:") }.map(String.init)
        }
        let first = uids(at: 1_790_000_000), second = uids(at: 1_790_000_001)
        #expect(first.count == 2 && Set(first).count == 2)
        #expect(first == second)
    }

    @Test("a period that ends before it starts, periods of one kind that overlap, or text that is no period are refused, naming it")
    func refused() throws {
        let backwards = try calendar("BEGIN:VFREEBUSY", "UID:a", "FREEBUSY:20261126T100000Z/20261126T090000Z", "END:VFREEBUSY")
        #expect(throws: FreeBusyError.self) { _ = try backwards.freeBusyPeriods() }
        #expect((try? backwards.freeBusyPeriods()) == nil)
        do { _ = try backwards.freeBusyPeriods() } catch { #expect(error.message.contains("ends before it starts") && error.text == "20261126T100000Z/20261126T090000Z") }
        let overlapping = try calendar("BEGIN:VFREEBUSY", "UID:b", "FREEBUSY:20261126T090000Z/PT2H,20261126T100000Z/PT1H", "END:VFREEBUSY")
        do { _ = try overlapping.freeBusyPeriods(); Issue.record("overlap taken") } catch { #expect(error.message.contains("overlap")) }
        // Of different kinds they may: BUSY-TENTATIVE inside BUSY-UNAVAILABLE says two things of one time.
        let kinds = try calendar("BEGIN:VFREEBUSY", "UID:c", "FREEBUSY;FBTYPE=BUSY-UNAVAILABLE:20261126T090000Z/PT2H", "FREEBUSY;FBTYPE=BUSY-TENTATIVE:20261126T100000Z/PT1H", "END:VFREEBUSY")
        #expect(try kinds.freeBusyPeriods().count == 2)
        // Two VFREEBUSY (a work and a home calendar) may both be busy at one time.
        let two = try calendar("BEGIN:VFREEBUSY", "UID:w", "FREEBUSY:20261126T090000Z/PT2H", "END:VFREEBUSY",
                               "BEGIN:VFREEBUSY", "UID:h", "FREEBUSY:20261126T100000Z/PT1H", "END:VFREEBUSY")
        #expect(try two.freeBusyPeriods().count == 2)
        let huge = try calendar("BEGIN:VFREEBUSY", "UID:e", "FREEBUSY:20261126T170000Z/PT9223372036000000000S", "END:VFREEBUSY")
        do { _ = try huge.freeBusyPeriods(); Issue.record("an overflowing length taken") } catch { #expect(error.message.contains("is not a period")) }
        let garbage = try calendar("BEGIN:VFREEBUSY", "UID:d", "FREEBUSY:tomorrow", "END:VFREEBUSY")
        do { _ = try garbage.freeBusyPeriods(); Issue.record("garbage taken") } catch { #expect(error.message.contains("is not a period")) }
    }

    @Test("busy time: each occurrence of a recurring event on its own zone, an exception left out, a moved instance where it went, tentative apart, transparent and cancelled none")
    func busyTime() throws {
        let cal = try calendar(
            "BEGIN:VEVENT", "UID:run", "DTSTAMP:20261120T100000Z", "DTSTART;TZID=America/New_York:20261123T070000", "DURATION:PT1H",
            "RRULE:FREQ=WEEKLY;BYDAY=MO,TH", "EXDATE;TZID=America/New_York:20261126T070000", "SUMMARY:Run", "END:VEVENT",
            "BEGIN:VEVENT", "UID:run", "DTSTAMP:20261120T100000Z", "RECURRENCE-ID;TZID=America/New_York:20261130T070000",
            "DTSTART;TZID=America/New_York:20261130T090000", "DURATION:PT1H", "SUMMARY:Run late", "END:VEVENT",
            "BEGIN:VEVENT", "UID:maybe", "DTSTAMP:20261120T100000Z", "DTSTART:20261124T170000Z", "DTEND:20261124T180000Z", "STATUS:TENTATIVE", "END:VEVENT",
            "BEGIN:VEVENT", "UID:note", "DTSTAMP:20261120T100000Z", "DTSTART:20261124T080000Z", "DTEND:20261124T090000Z", "TRANSP:TRANSPARENT", "END:VEVENT",
            "BEGIN:VEVENT", "UID:off", "DTSTAMP:20261120T100000Z", "DTSTART:20261125T080000Z", "DTEND:20261125T090000Z", "STATUS:CANCELLED", "END:VEVENT")
        let from = Date(timeIntervalSince1970: TimeInterval(try utc("20261123T000000Z"))), to = Date(timeIntervalSince1970: TimeInterval(try utc("20261201T000000Z")))
        #expect(try cal.busyTime(from: from, to: to, floatingZone: .utc).map(\.description) == [
            "BUSY 2026-11-23T12:00:00Z/2026-11-23T13:00:00Z", "BUSY-TENTATIVE 2026-11-24T17:00:00Z/2026-11-24T18:00:00Z",
            "BUSY 2026-11-30T14:00:00Z/2026-11-30T15:00:00Z",
        ])
        // Written out as a VFREEBUSY and read back, the same periods.
        let out = ICalendar.freeBusy(try cal.busyTime(from: from, to: to, floatingZone: .utc), from: from, to: to, uid: "fb")
        let text = ICalendarExporter().export(out)
        #expect(text.contains("FREEBUSY;FBTYPE=BUSY:20261123T120000Z/20261123T130000Z\r\n") && text.contains("METHOD:PUBLISH\r\n"))
        #expect(try ICalendarImporter().importCalendar(from: text).calendar.freeBusyPeriods() == cal.busyTime(from: from, to: to, floatingZone: .utc))
    }

    @Test("busy time merged as the occurrences come equals merging them all at once, on 300 random events and series of every status and transparency across zones, with floating and all-day times, RDATEs, an instance moved before its series and this-and-future")
    func mergedAsTheyCome() throws {
        var rng = SplitMix64(seed: 40_42)
        var lines: [String] = []
        let zones = ["Europe/Madrid", "America/New_York", "Asia/Tokyo", "UTC"]
        for i in 0..<300 {
            let day = 1 + Int(rng.next() % 28), hour = Int(rng.next() % 24), minutes = 5 * (1 + Int(rng.next() % 6))
            let zone = zones[Int(rng.next() % 4)]
            lines += ["BEGIN:VEVENT", "UID:e\(i)", "DTSTAMP:20261120T100000Z",
                      "DTSTART;TZID=\(zone):202611\(String(format: "%02d", day))T\(String(format: "%02d", hour))0000", "DURATION:PT\(minutes)M"]
            switch rng.next() % 6 {
            case 0: lines.append("STATUS:TENTATIVE")
            case 1: lines.append("TRANSP:TRANSPARENT")
            case 2: lines.append("STATUS:CANCELLED")
            case 3: lines.append("RRULE:FREQ=DAILY;COUNT=\(2 + rng.next() % 20)")
            case 4: lines.append("RRULE:FREQ=HOURLY;INTERVAL=\(1 + rng.next() % 5);COUNT=30")
            default: break
            }
            lines.append("END:VEVENT")
        }
        // Floating and all-day times, RDATEs, an instance moved earlier than its series, this-and-future.
        lines += ["BEGIN:VEVENT", "UID:float", "DTSTAMP:20261120T100000Z", "DTSTART:20261106T083000", "DURATION:PT50M", "RRULE:FREQ=DAILY;COUNT=15", "END:VEVENT",
                  "BEGIN:VEVENT", "UID:allday", "DTSTAMP:20261120T100000Z", "DTSTART;VALUE=DATE:20261108", "RRULE:FREQ=WEEKLY;COUNT=3", "END:VEVENT",
                  "BEGIN:VEVENT", "UID:rdate", "DTSTAMP:20261120T100000Z", "DTSTART;TZID=Asia/Tokyo:20261106T230000", "DURATION:PT2H",
                  "RDATE;TZID=Asia/Tokyo:20261110T010000,20261112T220000", "END:VEVENT",
                  "BEGIN:VEVENT", "UID:moved", "DTSTAMP:20261120T100000Z", "DTSTART;TZID=America/New_York:20261107T120000", "DURATION:PT1H",
                  "RRULE:FREQ=DAILY;COUNT=10", "END:VEVENT",
                  "BEGIN:VEVENT", "UID:moved", "DTSTAMP:20261120T100000Z", "RECURRENCE-ID;TZID=America/New_York:20261115T120000",
                  "DTSTART;TZID=America/New_York:20261105T060000", "DURATION:PT3H", "END:VEVENT",
                  "BEGIN:VEVENT", "UID:moved", "DTSTAMP:20261120T100000Z", "RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=America/New_York:20261112T120000",
                  "DTSTART;TZID=America/New_York:20261112T070000", "DURATION:PT1H", "END:VEVENT"]
        let cal = try ICalendarImporter().importCalendar(from: "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + lines.joined(separator: "\r\n") + "\r\nEND:VCALENDAR\r\n").calendar
        let from = Date(timeIntervalSince1970: TimeInterval(try utc("20261105T000000Z"))), to = Date(timeIntervalSince1970: TimeInterval(try utc("20261125T000000Z")))
        // All at once, as busyTime did before it streamed.
        let lo = Int64(from.timeIntervalSince1970), hi = Int64(to.timeIntervalSince1970)
        var all: [FreeBusyPeriod] = []
        for o in cal.schedule(applyingCalendarTimeZone: true).occurrences(from: from, to: to, floatingZone: .utc) where o.item.kind == .event {
            if o.item.properties.first(where: { $0.name == "TRANSP" })?.value == "TRANSPARENT" || o.item.status == .cancelled || o.endSeconds <= o.startSeconds { continue }
            all.append(FreeBusyPeriod(start: max(o.startSeconds, lo), end: min(o.endSeconds, hi), kind: o.item.status == .tentative ? .busyTentative : .busy))
        }
        let expected = FreeBusyPeriod.merged(all)
        #expect(expected.count > 50)
        #expect(try cal.busyTime(from: from, to: to, floatingZone: .utc) == expected)
    }

    @Test("a window with more occurrences than the limit (a task's count too) is refused naming the limit; at the limit it is answered")
    func limit() throws {
        let cal = try calendar("BEGIN:VEVENT", "UID:tick", "DTSTAMP:20261120T100000Z", "DTSTART:20260101T000000Z", "DURATION:PT30S",
                               "RRULE:FREQ=MINUTELY", "END:VEVENT")
        let from = Date(timeIntervalSince1970: TimeInterval(try utc("20260101T000000Z")))
        let hour = from.addingTimeInterval(3600)
        #expect(try cal.busyTime(from: from, to: hour, floatingZone: .utc, limit: 60).count == 60)
        do {
            _ = try cal.busyTime(from: from, to: hour.addingTimeInterval(60), floatingZone: .utc, limit: 60)
            Issue.record("61 occurrences read under a limit of 60")
        } catch {
            #expect(error.message.contains("more than 60 occurrences") && error.text.isEmpty, "\(error.message)")
        }
        // A minutely task holds no time, but is read: it counts.
        let tasks = try calendar("BEGIN:VTODO", "UID:todo", "DTSTAMP:20261120T100000Z", "DTSTART:20260101T000000Z", "DUE:20260101T000030Z",
                                 "RRULE:FREQ=MINUTELY", "END:VTODO")
        #expect(try tasks.busyTime(from: from, to: hour, floatingZone: .utc, limit: 60).isEmpty)
        #expect(throws: FreeBusyError.self) { _ = try tasks.busyTime(from: from, to: hour.addingTimeInterval(60), floatingZone: .utc, limit: 60) }
        // A century of it under the default limit: refused, not 52 million periods.
        do {
            _ = try cal.busyTime(from: from, to: from.addingTimeInterval(100 * 365 * 86_400), floatingZone: .utc)
            Issue.record("a century of a minutely event answered")
        } catch {
            #expect(error.message.contains("more than 1,000,000 occurrences"), "\(error.message)")
        }
    }
}
