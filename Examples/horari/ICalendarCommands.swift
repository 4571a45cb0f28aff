import ArgumentParser
import CalendarCore
import CalendarScheduling
import CalendarViews
import Foundation
import ICalendarKit
import SchedulingICalendar

/// Reads a calendar file for a command, printing diagnostics to standard error.
/// On a terminal, a large file shows a progress line while it is read.
/// `libical` says whether libical reads each event and task as well
/// (`ImportOptions.checksWithLibICal`; Docs/ICalendar.md says which commands do).
func loadCalendar(_ path: String, strict: Bool = false, quiet: Bool = false, libical: Bool = true) throws -> ImportResult {
    let result: ImportResult
    let progress = ProgressLine(file: path)
    let name = URL(fileURLWithPath: path).lastPathComponent
    defer { progress.finish() }
    do {
        result = try ICalendarImporter(options: ImportOptions(strict: strict, checksWithLibICal: libical))
            .importCalendar(contentsOf: URL(fileURLWithPath: path)) { progress.update("Reading", name, done: $0) }
    } catch {
        throw CLIError("\(path): \(error.description)")
    }
    if !quiet {
        for d in result.diagnostics { FileHandle.standardError.write(Data("\(path):\(d)\n".utf8)) }
    }
    return result
}

/// `horari occurrences`: every occurrence in a window, for diffing against peers.
struct Occurrences: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print every occurrence of a calendar file's events and tasks in a window.",
        discussion: """
            The window is [--from, --to); bounds are read as wall times in each event's \
            own zone, as recurring-ical-events does. An occurrence is printed when it \
            overlaps the window.

            --format jsonl prints one JSON object per occurrence with the keys uid, \
            recurrence_id, start, end, summary, component, tzid, sorted by start and end \
            instant, uid, recurrence_id and summary: the same lines as the peer oracle \
            expand.py (recurring-ical-events), so the two can be compared with diff.

            Examples:
              horari occurrences team.ics --from 2026-01-01 --to 2026-02-01
              horari occurrences team.ics --from 2000-01-01 --to 2030-01-01 --format jsonl --max-per-series 2000
            """
    )

    @Argument(help: "The .ics file (default: --calendar, else the default calendar).")
    var file: String?

    @Option(help: "The calendar file, instead of FILE (default: $XDG_DATA_HOME/horari/calendar.ics, else ~/.local/share/horari/calendar.ics).")
    var calendar: String?

    @Option(help: "The start of the window: YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS.")
    var from: String

    @Option(help: "The end of the window (exclusive).")
    var to: String

    @Option(help: "At most this many occurrences per series (UID); 0 for no limit.")
    var maxPerSeries = 2000

    @Option(help: "text, json (schema 1 of Docs/JSONSchema.md, times on the calendar's clock) or jsonl (expand.py's lines).")
    var format = "text"

    @Option(help: "For --format json: the IANA time zone to show times in (default: the calendar's own).")
    var timeZone: String?

    func run() throws {
        guard ["jsonl", "text", "json"].contains(format) else { throw ValidationError("--format must be text, json or jsonl") }
        let fromWall = try wallSeconds(from, "--from")
        let toWall = try wallSeconds(to, "--to")
        let calendar = try loadExistingCalendar(try calendarURL(file: file, option: self.calendar), quiet: format != "text").calendar
        let schedule = calendar.schedule()
        let clock = try Clock(option: timeZone, calendar: calendar)
        var shown: [(OccurrenceKey, DisplayOccurrence)] = []
        // The widest instant window that can hold any wall time in [from, to).
        let margin: Int64 = 15 * 3600
        let all = schedule.occurrences(
            from: Date(timeIntervalSince1970: TimeInterval(fromWall - margin)),
            to: Date(timeIntervalSince1970: TimeInterval(toWall + margin)))
        var perSeries: [String: Int] = [:]
        var rows: [(key: OccurrenceKey, text: String)] = []
        for o in all {
            let s = OccurrenceFormat.wall(o.start, o.startSeconds)
            let e = OccurrenceFormat.wall(o.end, o.endSeconds)
            let inside = e > s ? s < toWall && e > fromWall : s >= fromWall && s < toWall
            guard inside else { continue }
            if maxPerSeries > 0 {
                let n = perSeries[o.id.uid, default: 0]
                if n >= maxPerSeries { continue }
                perSeries[o.id.uid] = n + 1
            }
            let record = OccurrenceFormat.record(o, master: schedule.item(uid: o.id.uid), zones: schedule.zones)
            if format == "json" {
                shown.append((OccurrenceKey(o, record), DisplayOccurrence(o, zone: clock.rules)))
            } else {
                rows.append((OccurrenceKey(o, record), format == "jsonl" ? record.json : record.text))
            }
        }
        if format == "json" {
            shown.sort { $0.0 < $1.0 }
            return try printJSON(OccurrencesJSON(occurrences: shown.map(\.1)), command: "occurrences", timeZone: clock.name)
        }
        rows.sort { $0.key < $1.key }
        var out = ""
        for r in rows {
            out += r.text
            out += "\n"
        }
        FileHandle.standardOutput.write(Data(out.utf8))
    }

    private func wallSeconds(_ text: String, _ option: String) throws -> Int64 {
        let compact = text.replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
        do {
            return try CalendarTime(icalValue: compact).wallTime.localSeconds
        } catch {
            throw ValidationError("\(option) ‘\(text)’ is not YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS: \(error.message)")
        }
    }
}

/// The body of `occurrences --format json`.
struct OccurrencesJSON: Encodable {
    let occurrences: [DisplayOccurrence]
}

/// The sort key expand.py uses: start instant, end instant, uid, recurrence id, summary.
struct OccurrenceKey: Comparable {
    var start: Int64
    var end: Int64
    var uid: String
    var recurrenceID: String
    var summary: String
    var json: String

    init(_ o: Occurrence, _ r: OccurrenceFormat.Record) {
        start = o.startSeconds
        end = o.endSeconds
        uid = r.uid
        recurrenceID = r.recurrenceID ?? ""
        summary = r.summary ?? ""
        json = r.json
    }

    static func < (a: OccurrenceKey, b: OccurrenceKey) -> Bool {
        (a.start, a.end, a.uid, a.recurrenceID, a.summary, a.json) < (b.start, b.end, b.uid, b.recurrenceID, b.summary, b.json)
    }
}

/// Formatting occurrences as expand.py does.
enum OccurrenceFormat {
    struct Record {
        var uid: String
        var recurrenceID: String?
        var start: String
        var end: String
        var summary: String?
        var component: String
        var tzid: String?

        var json: String {
            "{\"uid\": \(q(uid)), \"recurrence_id\": \(q(recurrenceID)), \"start\": \(q(start)), \"end\": \(q(end)), \"summary\": \(q(summary)), \"component\": \(q(component)), \"tzid\": \(q(tzid))}"
        }

        var text: String {
            var s = start + " – " + end + "  " + (summary ?? "(no title)")
            if let recurrenceID, recurrenceID != start { s += "  [instance of \(recurrenceID)]" }
            return s
        }
    }

    /// One occurrence as expand.py prints it: the end in the start's zone
    /// (the same instant), and a changed instance's recurrence ID as its
    /// `RECURRENCE-ID` was written (the same instant as the series' own).
    static func record(_ o: Occurrence, master: CalendarItem?, zones: ZoneTable) -> Record {
        let summary = o.item.title.isEmpty ? nil : o.item.title
        var recurrenceID: String?
        if let master, master.isRecurring, let rid = o.id.recurrenceID {
            let seconds = try? rid.epochSeconds(floatingIn: .utc, zones: zones)
            let written = master.overrides.first { (try? $0.recurrenceID.epochSeconds(floatingIn: .utc, zones: zones)) == seconds }?.recurrenceID
            recurrenceID = iso(written ?? rid, nil, zones: zones)
        }
        let end: CalendarTime
        switch (o.start, o.end) {
        case (.zoned(_, let z), .utc), (.zoned(_, let z), .zoned):
            if let rules = try? zones.rules(forTZID: z) {
                end = .zoned(LocalDateTime(localSeconds: rules.wall(atInstant: o.endSeconds)), z)
            } else {
                end = o.end
            }
        case (.utc, .zoned): end = .utc(LocalDateTime(localSeconds: o.endSeconds))
        default: end = o.end
        }
        return Record(
            uid: o.id.uid, recurrenceID: recurrenceID,
            start: iso(o.start, o.startSeconds, zones: zones), end: iso(end, o.endSeconds, zones: zones), summary: summary,
            component: o.item.kind == .task ? "VTODO" : "VEVENT", tzid: zoneName(o.start))
    }

    /// The wall reading (seconds) of a time in its own zone.
    static func wall(_ t: CalendarTime, _ seconds: Int64) -> Int64 {
        switch t {
        case .date, .floating, .zoned: t.wallTime.localSeconds
        case .utc: seconds
        }
    }

    static func zoneName(_ t: CalendarTime) -> String? {
        switch t {
        case .utc: "UTC"
        case .zoned(_, let z): z
        case .date, .floating: nil
        }
    }

    /// `2026-03-02`, `2026-03-02T09:00:00`, `…+00:00`, `…+01:00`.
    static func iso(_ t: CalendarTime, _ seconds: Int64?, zones: ZoneTable) -> String {
        let d = t.localDate
        let date = pad(d.year, 4) + "-" + pad(d.month, 2) + "-" + pad(d.day, 2)
        if case .date = t { return date }
        let w = t.wallTime
        let clock = date + "T" + pad(w.hour, 2) + ":" + pad(w.minute, 2) + ":" + pad(w.second, 2)
        switch t {
        case .date, .floating: return clock
        case .utc: return clock + "+00:00"
        case .zoned(let wall, let z):
            guard let rules = try? zones.rules(forTZID: z) else { return clock }
            let instant = seconds ?? rules.instant(forWall: wall.localSeconds)
            let shown = LocalDateTime(localSeconds: rules.wall(atInstant: instant))
            let offset = rules.offset(atInstant: instant)
            let sign = offset < 0 ? "-" : "+"
            let a = abs(offset)
            let shownDate = shown.date
            return pad(shownDate.year, 4) + "-" + pad(shownDate.month, 2) + "-" + pad(shownDate.day, 2) + "T" + pad(shown.hour, 2) + ":" + pad(shown.minute, 2) + ":" + pad(shown.second, 2)
                + sign + pad(a / 3600, 2) + ":" + pad(a % 3600 / 60, 2)
        }
    }

    static func pad(_ v: Int, _ n: Int) -> String {
        let s = String(v)
        return s.count >= n ? s : String(repeating: "0", count: n - s.count) + s
    }

    static func q(_ s: String?) -> String {
        guard let s else { return "null" }
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}

/// `horari validate`: a file's problems.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check an .ics file and print every problem with its line.",
        discussion: """
            Exit code 0 when there is no error (warnings may be printed), 1 when there \
            is an error, or with --strict when there is any problem.

            Examples:
              horari validate invitation.ics
              horari validate export.ics --strict
            """
    )

    @Argument(help: "The .ics file (default: --calendar, else the default calendar).")
    var file: String?

    @Option(help: "The calendar file, instead of FILE (default: $XDG_DATA_HOME/horari/calendar.ics, else ~/.local/share/horari/calendar.ics).")
    var calendar: String?

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    func run() throws {
        let url = try calendarURL(file: self.file, option: calendar)
        let file = self.file ?? url.path
        // libical always reads the file here: its findings are what validation is for.
        let result = try loadExistingCalendar(url, quiet: true, libical: true)
        for d in result.diagnostics { print("\(file):\(d)") }
        // The rules the calendar asks for (`horari rules`), checked on every item.
        var broken = 0
        if result.calendar.properties.contains(where: { $0.name == rulesProperty }) {
            let (name, rules) = try calendarRules(of: result.calendar)
            print("\(file): rules: \(name)")
            for (uid, message) in itemsBreaking(rules, in: result.calendar) {
                print("\(file): error: ‘\(uid)’: \(message)")
                broken += 1
            }
        }
        let errors = result.diagnostics.filter { $0.severity == .error }.count + broken
        let warnings = result.diagnostics.count - errors + broken
        print("\(file): \(result.calendar.items.count) item\(result.calendar.items.count == 1 ? "" : "s"), \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")")
        if errors > 0 || (strict && warnings > 0) { throw ExitCode(1) }
    }
}

/// `horari import`: merge a file into a calendar file by UID.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Merge an .ics file into a calendar file, by UID.",
        discussion: """
            New items are added, newer versions (SEQUENCE, then LAST-MODIFIED) replace \
            older ones, nothing is duplicated, and items the file no longer has are \
            listed but kept. The calendar file is written atomically under a lock.

            Example:
              horari import invitation.ics --into ~/calendars/work.ics
            """
    )

    @Argument(help: "The .ics file to import.")
    var file: String

    @Option(help: "The calendar file to merge into, created when missing (default: $XDG_DATA_HOME/horari/calendar.ics, else ~/.local/share/horari/calendar.ics).")
    var into: String?

    @Option(help: "The zone a new calendar keeps (default: the file's X-WR-TIMEZONE, else the system's).")
    var timeZone: String?

    func run() throws {
        // libical reads the incoming file, beside the import: this is where
        // foreign data enters, and its findings are printed (Docs/ICalendar.md).
        let incoming = try loadCalendar(file, libical: true).calendar
        let target = calendarURL(into)
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: target.path, isDirectory: &isFolder)
        if isFolder.boolValue { throw noCalendarYet(target) }
        // A new calendar is created on one clock, once (Docs/TimeZones.md).
        let newZone = exists ? nil : try Clock(named: timeZone ?? incoming.calendarZone ?? Clock.systemZoneName, zones: incoming.zones).name
        try? FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        let report: SyncReport
        let progress = ProgressLine(file: file)
        defer { progress.finish() }
        do {
            // The calendar merged into is read without libical: `update` shows
            // none of its diagnostics, and it was written by horari.
            report = try CalendarFile.update(target, options: ImportOptions(checksWithLibICal: false),
                                             exporterFor: { _ in ICalendarExporter(options: .init(includeRejected: true)) },
                                             whileWaiting: { sayWaiting(for: target) }) { calendar in
                if let newZone, calendar.calendarZone == nil, calendar.items.isEmpty { calendar.timeZone = newZone }
                progress.show("Merging \(incoming.items.count) items into \(target.lastPathComponent)…")
                let report = calendar.merge(incoming)
                progress.show("Saving \(target.lastPathComponent)…")
                return report
            }
        } catch let error as ICalendarError {
            throw CLIError(error.description)
        }
        print("added \(report.added.count), updated \(report.updated.count), unchanged \(report.unchanged.count), kept newer \(report.keptNewer.count), conflicts \(report.conflicts.count), not in the file \(report.missing.count)")
        for uid in report.conflicts { print("conflict (same SEQUENCE and timestamps, kept ours): \(uid)") }
        for (tzid, renamed) in report.renamedZones.sorted(by: { $0.key < $1.key }) {
            print("zone ‘\(tzid)’: \(file) defines it otherwise than the calendar does; its times keep their own rules as ‘\(renamed)’")
        }
    }
}

/// `horari export`: a calendar file as strict RFC 5545.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a calendar file out as strict RFC 5545 iCalendar.",
        discussion: """
            CRLF line ends, 75-octet folding, a VTIMEZONE for every TZID (plain IANA \
            names), every unknown property kept. Writing to --out is atomic.

            With --for, only what one audience may see of the gym's scheduling book:
              public        the class timetable with its capacities, no one's name
              member ID     that member's booked classes, each as its own event
              coach ID      that coach's sessions with their clients
              all           everything: the file with the whole book, to restore from

            Examples:
              horari export gym.ics --out backup.ics
              horari export gym.ics --for member marta > marta.ics
              horari export gym.ics --for public
            """
    )

    @Argument(help: "The calendar file (default: --calendar, else the default calendar).")
    var file: String?

    @Option(help: "The calendar file, instead of FILE (default: $XDG_DATA_HOME/horari/calendar.ics, else ~/.local/share/horari/calendar.ics).")
    var calendar: String?

    @Option(help: "Write here instead of standard output.")
    var out: String?

    @Option(name: .customLong("for"), parsing: .upToNextOption, help: "public, member ID, coach ID or all.")
    var audience: [String] = []

    func run() throws {
        let url = try calendarURL(file: file, option: self.calendar)
        let file = url.path
        // No libical: the export is written from the model, which libical's
        // reading does not change (Docs/ICalendar.md, “When libical runs”).
        var calendar = try loadExistingCalendar(url, libical: false).calendar
        let exporter = ICalendarExporter()
        if !audience.isEmpty {
            let book: SchedulingBook
            do { book = try calendar.schedulingBook(defaultTimeZone: calendarZoneName(of: calendar)) } catch { throw CLIError("\(file): \(error.description)") }
            let who: ExportAudience
            switch (audience.first?.lowercased(), audience.count) {
            case ("public", 1): who = .publicTimetable
            case ("all", 1): who = .everything
            case ("member", 2): who = .member(audience[1])
            case ("coach", 2): who = .coach(audience[1])
            default:
                throw ValidationError("--for ‘\(audience.joined(separator: " "))’: use public, member ID, coach ID or all (put the file before --for)")
            }
            if who == .everything {
                calendar.setScheduling(book)
            } else {
                do { calendar = try ICalendar(book, for: who, name: calendar.name) } catch { throw CLIError(error.description) }
            }
        }
        let progress = ProgressLine(file: file)
        defer { progress.finish() }
        progress.show("Writing \(calendar.items.count) items…")
        if let out {
            do { try CalendarFile.save(calendar, to: URL(fileURLWithPath: out), exporter: exporter) } catch {
                throw CLIError(error.description)
            }
        } else {
            progress.finish()
            exporter.export(calendar) { FileHandle.standardOutput.write(Data($0)) }
        }
    }
}
