import ArgumentParser
import CalendarCore
import Foundation
import ICalendarKit
import SchedulingICalendar

/// `horari alarms`: every moment a reminder goes off in a window.
struct Alarms: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alarms",
        abstract: "List the moments reminders (VALARM) go off in a window.",
        discussion: """
            Each line is when an alarm goes off, on the calendar's clock (or --time-zone), \
            and what it reminds of. An alarm counted in hours or minutes is exact across \
            a clock change; one counted in days keeps the wall time.

            --member lists only that member's booked classes (not the waitlist) and \
            --coach only that coach's sessions, never a cancelled one, and --client with \
            --coach that client's sessions with her coach still to be held (a reminder on a \
            session is the coach's, not hers: hers are --default); --default gives \
            every item without an alarm of its own one (repeatable), such as one hour \
            before every booked class.

            Examples:
              horari alarms --from 2026-11-23 --to 2026-11-29 --calendar gym.ics
              horari alarms --from 2026-11-23 --to 2026-11-29 --member marta \\
                  --default -PT1H --calendar gym.ics
              horari alarms --from 2026-11-23 --to 2026-11-29 --client anna \\
                  --coach marc --default -P1D --calendar gym.ics
              horari alarms --from '2026-11-25 08:00' --to 2026-11-25 \\
                  --format json --calendar gym.ics
            """
    )

    @Option(help: "The start of the window: YYYY-MM-DD or 'YYYY-MM-DD HH:MM' on the clock shown.")
    var from: String

    @Option(help: "The last day included (YYYY-MM-DD), or the instant the window ends, excluded ('YYYY-MM-DD HH:MM').")
    var to: String

    @Option(help: "Only this member's booked classes.")
    var member: String?

    @Option(help: "Only this coach's sessions (with --client: the client's coach).")
    var coach: String?

    @Option(help: "With --coach: only this client's sessions with her coach, still to be held.")
    var client: String?

    @Option(name: .customLong("default"), parsing: .unconditionalSingleValue,
            help: "A reminder for every item with none of its own: an iCalendar length before (-PT1H) or after (PT0S, P1D) its start.")
    var defaults: [String] = []

    @Option(help: "text or json (schema 1 of Docs/JSONSchema.md).")
    var format = "text"

    @OptionGroup var book: BookOptions

    func validate() throws {
        guard ["text", "json"].contains(format) else { throw ValidationError("--format must be text or json") }
        guard member == nil || coach == nil else { throw ValidationError("give --member or --coach, not both") }
        guard client == nil || coach != nil else { throw ValidationError("--client needs --coach: each coach's clients have IDs of their own") }
    }

    func run() async throws {
        let defaultAlarms = try defaults.map { try Self.reminder($0, option: "--default") }
        let report: AlarmReport
        let clock: Clock
        if member != nil || coach != nil {
            let b = try await book.read()
            clock = try book.clock(for: b).display
            let (start, end) = try window(on: clock)
            if let client {
                // A reminder on a session is the coach's; the client's are --default.
                do { report = try b.alarms(client: client, coach: coach ?? "", from: start, to: end, defaults: defaultAlarms) } catch { throw CLIError(error.description) }
            } else {
                // The records' own reminders (a VALARM set in another program) ring too.
                let records = try await loadExistingCalendar(try book.place, quiet: true, libical: false).calendar
                do {
                    if let member {
                        report = try b.alarms(member: member, from: start, to: end, defaults: defaultAlarms, remindersIn: records)
                    } else {
                        report = try b.alarms(coach: coach ?? "", from: start, to: end, defaults: defaultAlarms, remindersIn: records)
                    }
                } catch { throw CLIError(error.description) }
            }
        } else {
            // The import's own warnings name each alarm that cannot go off, with its line.
            let calendar = try await loadExistingCalendar(try book.place, quiet: format != "text", libical: false).calendar
            clock = try Clock(option: book.timeZone, calendar: calendar)
            let (start, end) = try window(on: clock)
            let schedule = calendar.schedule(zoneNamedBy: ICalendar.bookZoneProperties)
            report = schedule.alarms(from: start, to: end, floatingZone: clock.rules, defaults: defaultAlarms)
        }
        if report.limitReached {
            throw CLIError("more than \(Schedule.alarmLimit.formatted()) alarms go off between \(from) and \(to); ask for a shorter window (--from, --to)")
        }
        if format == "json" {
            return try printJSON(AlarmsJSON(report, clock: clock), command: "alarms", timeZone: clock.name)
        }
        if let header = clock.header() { print(header) }
        if report.instants.isEmpty { print("No alarms go off between \(from) and \(to).") }
        for a in report.instants {
            let t = Int64(a.time.timeIntervalSince1970.rounded(.down))
            // Dates and times written one way, as the views and confirmations write them (issue 43, 12).
            var line = "\(dayText(clock.wall(t).date)) \(clock.time(t))  \(a.title.isEmpty ? "(no title)" : a.title), \(Self.when(a, clock: clock))"
            if let message = a.alarm.message, message != a.title { line += "  “\(message)”" }
            if a.alarm.action != "DISPLAY" { line += "  [\(a.alarm.action.lowercased())]" }
            if a.repetition > 0 { line += "  [again, \(a.repetition) of \(a.alarm.repeatCount)]" }
            if a.isDefault { line += "  [default]" }
            print(line)
        }
        for p in report.problems where member != nil || coach != nil {
            FileHandle.standardError.write(Data("horari: the alarms of ‘\(p.title)’ (\(p.uid)) cannot go off: \(p.error.message)\n".utf8))
        }
    }

    /// The window's instants: dates at midnight, times as typed, on `clock`.
    private func window(on clock: Clock) throws -> (Date, Date) {
        // A date is its midnight for --from and the end of that day for --to.
        func instant(_ text: String, _ option: String, days: Int) throws -> Date {
            let seconds = text.count == 10 ? clock.instant(LocalDateTime(localSeconds: Int64(try parseDate(text, option: option).dayNumber + days) * 86_400))
                : try clock.instant(typed: text, option: option).instant
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        let (start, end) = (try instant(from, "--from", days: 0), try instant(to, "--to", days: 1))
        guard end > start else { throw backwardsWindow(from: from, to: to) }
        return (start, end)
    }

    /// "starts Wed 2026-11-25 18:30", "all day Sat 2026-11-28", "due Fri 2026-11-27 20:00".
    static func when(_ a: AlarmInstant, clock: Clock) -> String {
        let dueOnly = a.kind == .task && a.occurrenceStart == a.occurrenceEnd
        let (word, time) = a.kind == .task && (dueOnly || a.alarm.relatesToEnd) ? ("due", a.occurrenceEnd) : ("starts", a.occurrenceStart)
        if case .date(let d) = time { return word == "due" ? "due \(dayText(d))" : "all day \(dayText(d))" }
        guard let t = clock.seconds(time) else { return "\(word) \(time)" }
        return "\(word) \(dayText(clock.wall(t).date)) \(clock.time(t))"
    }

    /// `--default -PT1H`, `add --alarm -P1D`: a display reminder that far
    /// from each item's start (or end).
    static func reminder(_ text: String, option: String, from edge: Alarm.Edge = .start, title: String? = nil) throws -> Alarm {
        guard let (length, negative) = DurationValue.parse(Substring(text)) else {
            throw ValidationError("\(option) ‘\(text.prefix(40))’ is not an iCalendar length such as -PT1H (an hour before) or -P1D (a day before)")
        }
        let sign = negative ? -1 : 1
        do {
            return try Alarm(.relative(Alarm.Offset(days: sign * length.days, seconds: sign * length.seconds), to: edge), message: title)
        } catch {
            throw ValidationError("\(option) ‘\(text.prefix(40))’: \(error.message)")
        }
    }
}

/// The body of `alarms --format json`.
struct AlarmsJSON: Encodable {
    struct Instant: Encodable {
        let time: String
        let uid: String
        let recurrenceId: String?
        let title: String
        let start: String
        let action: String
        let message: String?
        let repetition: Int
        let isDefault: Bool

        private enum CodingKeys: String, CodingKey {
            case time, uid, recurrenceId, title, start, action, message, repetition
            case isDefault = "default"
        }
    }

    struct Problem: Encodable {
        let uid: String
        let title: String
        let code: String
        let message: String
    }

    let alarms: [Instant]
    let problems: [Problem]

    init(_ report: AlarmReport, clock: Clock) {
        func iso(_ t: Int64) -> String { ISOText.instant(wall: clock.wall(t), seconds: t) }
        alarms = report.instants.map { a in
            let start: String
            if case .date(let d) = a.occurrenceStart { start = d.description } else { start = clock.seconds(a.occurrenceStart).map(iso) ?? a.occurrenceStart.isoText }
            return Instant(time: iso(Int64(a.time.timeIntervalSince1970.rounded(.down))), uid: a.occurrence.uid, recurrenceId: a.occurrence.recurrenceID?.isoText,
                           title: a.title, start: start, action: a.alarm.action, message: a.alarm.message, repetition: a.repetition, isDefault: a.isDefault)
        }
        problems = report.problems.map { Problem(uid: $0.uid, title: $0.title, code: $0.error.code.rawValue, message: $0.error.message) }
    }
}
