import ArgumentParser
import CalendarCore
import CalendarScheduling
import CalendarStore
import Foundation
import ICalendarKit
import SchedulingICalendar

/// `--busy CAL`: a coach's own calendar — a file, a folder, a CalDAV
/// collection's URL, or a `VFREEBUSY` — whose busy time free slots and clash
/// checks honour (issue 32, 5). Read on each request, never saved in the book.
struct BusyOptions: ParsableArguments {
    @Option(help: "The coach's own calendar, whose busy time is kept free of sessions: an .ics file (events, recurring ones too, or a VFREEBUSY), a folder, or a CalDAV collection's URL. Repeatable.")
    var busy: [String] = []

    /// The busy time of every --busy calendar over a window, on the book's clocks for floating times.
    func periods(from: Date, to: Date, zone: ZoneRules) async throws -> [FreeBusyPeriod] {
        var all: [FreeBusyPeriod] = []
        for text in busy {
            let place = try calendarPlace(text)
            // Not the book's own "start one with horari add": a coach's calendar is theirs to give.
            guard place.file.map({ FileManager.default.fileExists(atPath: $0.path) }) ?? place.exists else {
                throw CLIError("--busy \(text): there is no such calendar; give the coach's own calendar as an .ics file, a folder, or a CalDAV collection's URL")
            }
            let read = try await loadExistingCalendar(place, quiet: true)
            do throws(FreeBusyError) {
                all += try read.calendar.busyTime(from: from, to: to, floatingZone: zone)
            } catch {
                throw CLIError("\(place.path)\(read.sourceLines.line(ofPeriod: error.text).map { ":\($0)" } ?? ""): \(error.message)")
            }
        }
        return all
    }

    /// The busy time from two days before a typed start to `days` after it
    /// (a session is at most a day long; a repeating one spans up to a
    /// year), read before the change so that the change itself reads no
    /// calendar but the book's; `nil` without --busy.
    func around(_ typed: String, coach: String, book: BookOptions, days: Int = 3) async throws -> [FreeBusyPeriod]? {
        guard !busy.isEmpty else { return nil }
        let b = try await book.read()
        let start = try book.clock(for: b).instant(typed: typed, option: "--start")
        return try await periods(from: start.addingTimeInterval(-2 * 86_400), to: start.addingTimeInterval(TimeInterval(days) * 86_400), zone: b.timeZone)
    }
}

/// `horari freebusy`: what a CalDAV server's free-busy-query REPORT answers
/// for a calendar over a window (RFC 4791 §7.10), worked out here.
struct FreeBusy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "freebusy",
        abstract: "Print a calendar's busy time over a window as a VFREEBUSY, as a CalDAV server's free-busy-query answers it.",
        discussion: """
            Every event occurrence in the window is busy (tentative ones BUSY-TENTATIVE); \
            transparent and cancelled ones hold no time; a VFREEBUSY's periods are taken as \
            they are. Times are UTC, as in a VFREEBUSY.

            Example:
              horari freebusy --calendar marc.ics --from 2026-11-23 --to 2026-11-29
            """)
    @Option(help: "The calendar: a file, a folder, or a CalDAV collection's URL.") var calendar: String
    @Option(help: "The window's first date, YYYY-MM-DD (its midnight, on --time-zone).") var from: String
    @Option(help: "The window's last date, YYYY-MM-DD, included.") var to: String
    @Option(help: "The clocks the dates and floating times are read on (default: the calendar's own).") var timeZone: String?
    @Option(help: "The most occurrences read (of every item); a window that holds more is refused (default 1,000,000).") var maxOccurrences = ICalendar.busyTimeLimit

    func validate() throws {
        guard maxOccurrences > 0 else { throw ValidationError("--max-occurrences must be 1 or more, not \(maxOccurrences)") }
    }

    func run() async throws {
        let place = try calendarPlace(calendar)
        let read = try await loadExistingCalendar(place, quiet: true)
        let zoneName = timeZone ?? calendarZoneName(of: read.calendar)
        let clock = try Clock(named: zoneName, zones: read.calendar.zones)
        let first = try parseDate(from, option: "--from"), last = try parseDate(to, option: "--to")
        guard first <= last else { throw backwardsWindow(from: from, to: to) }
        let (start, end) = (first.start(in: clock.rules), last.adding(days: 1).start(in: clock.rules))
        let periods: [FreeBusyPeriod]
        do throws(FreeBusyError) { periods = try read.calendar.busyTime(from: start, to: end, floatingZone: clock.rules, limit: maxOccurrences) } catch {
            // No period at fault: the window held more than the cap.
            let more = error.text.isEmpty ? ", or give a larger --max-occurrences" : ""
            throw CLIError("\(place.path)\(read.sourceLines.line(ofPeriod: error.text).map { ":\($0)" } ?? ""): \(error.message)\(more)")
        }
        let answer = ICalendar.freeBusy(periods, from: start, to: end, uid: "freebusy-\(first.basicISO)-\(last.basicISO)@horari", method: nil)
        print(ICalendarExporter().export(answer), terminator: "")
    }
}
