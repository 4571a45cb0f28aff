import ArgumentParser
import CalendarCore
import CalendarViews
import Foundation
import ICalendarKit
import SchedulingICalendar

/// `horari occurrences`: every occurrence in a window, for diffing against peers.
///
/// Every form streams: occurrences come from
/// `Schedule.occurrenceSequence` in order, each series is dropped once it
/// reaches `--max-per-series`, and lines are written as they come through
/// ``OccurrenceWriter`` (bytes, no Foundation formatter, no `JSONEncoder`),
/// the `json` document through ``OccurrencesJSONStream``. The process holds
/// the calendar and about one occurrence per series, whatever the window's
/// length.
struct Occurrences: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "occurrences",
        abstract: "Print every occurrence of a calendar file's events and tasks in a window.",
        discussion: """
            The window runs from --from to the end of the day --to names, as dates do \
            in every horari command, or to the instant a date and time names (excluded); \
            bounds are read as wall times in each event's own zone, as \
            recurring-ical-events does. An occurrence is printed when it overlaps the window.

            --format jsonl prints one JSON object per occurrence with the keys uid, \
            recurrence_id, start, end, summary, component, tzid, sorted by start and end \
            instant, uid, recurrence_id and summary: the same lines as the peer oracle \
            expand.py (recurring-ical-events), so the two can be compared with diff.

            Lines are written as they are found, so the first ones come at once \
            and memory does not grow with the window.

            Examples:
              horari occurrences team.ics --from 2026-01-01 --to 2026-01-31
              horari occurrences team.ics --from 2000-01-01 --to 2029-12-31 \\
                  --format jsonl --max-per-series 2000
            """
    )

    @Argument(help: "The .ics file (default: --calendar, else the default calendar).")
    var file: String?

    @Option(help: "The calendar, instead of FILE: a file, a folder of one .ics per event, a CalDAV collection's https:// URL, an SQLite database (gym.sqlite) or a postgres://USER@HOST:PORT/DB URL (default: $XDG_DATA_HOME/horari/calendar.ics, else ~/.local/share/horari/calendar.ics).")
    var calendar: String?

    @Option(help: "The start of the window: YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS.")
    var from: String

    @Option(help: "The last day included (YYYY-MM-DD), or the instant the window ends, excluded (YYYY-MM-DDTHH:MM:SS).")
    var to: String

    @Option(help: "At most this many occurrences per series (UID); 0 for no limit.")
    var maxPerSeries = 2000

    @Option(help: "text, json (schema 1 of Docs/JSONSchema.md, times on the calendar's clock) or jsonl (expand.py's lines).")
    var format = "text"

    @Option(help: "For --format json: the IANA time zone to show times in (default: the calendar's own).")
    var timeZone: String?

    func validate() throws {
        guard ["jsonl", "text", "json"].contains(format) else { throw ValidationError("--format must be text, json or jsonl") }
        guard maxPerSeries >= 0 else { throw ValidationError("--max-per-series must be 0 (no limit) or more, not \(maxPerSeries)") }
    }

    func run() async throws {
        let fromWall = try wallSeconds(from, "--from")
        let toWall = try wallSeconds(to, "--to", dayEnd: true)
        guard toWall > fromWall else { throw backwardsWindow(from: from, to: to) }
        // Without libical's second reading, which changes no occurrence
        // (Docs/ICalendar.md, "When libical runs"), and without what no
        // occurrence line shows (descriptions, alarms, kept properties):
        // nothing here is saved. The json form shows locations and notes.
        let calendar = try await loadExistingCalendar(try calendarPlace(file: file, option: self.calendar), quiet: format != "text", libical: false,
                                                detail: format == "json" ? .complete : .schedule).calendar
        // One pass: each series' rules compiled by the pass, not held twice.
        let schedule = calendar.schedule(zoneNamedBy: ICalendar.bookZoneProperties, compilingSeries: false)
        // The widest instant window that can hold any wall time in [from, to).
        let margin: Int64 = 15 * 3600
        // Floating times in UTC, with the margin: the pipeline reads each on the clock.
        let window = schedule.occurrenceSequence(
            from: Date(timeIntervalSince1970: TimeInterval(fromWall - margin)),
            to: Date(timeIntervalSince1970: TimeInterval(toWall + margin)), floatingZone: .utc)
        let clock = try Clock(option: timeZone, calendar: calendar)
        // Formatted and written on a thread of its own while this one expands (OccurrencePipeline).
        if format == "json" {
            // This thread orders each occurrence and reads it on the clock; the writer's only writes
            // (the two threads' shares were 30% and 66% of the run when the writer did both).
            let stream = try OccurrencesJSONStream(timeZone: clock.name)
            let writer = OccurrencePipeline<DisplayOccurrence> { stream }
            var order = JSONOrder(keys: OccurrenceWriter(schedule: schedule, jsonl: true), zone: clock.rules)
            try expand(window, fromWall: fromWall, toWall: toWall, into: writer, add: { order.add($0, to: &$1) }, finish: { order.flush(to: &$0) })
        } else {
            let jsonl = format == "jsonl"
            let writer = OccurrencePipeline<Occurrence> { OccurrenceWriter(schedule: schedule, jsonl: jsonl) }
            try expand(window, fromWall: fromWall, toWall: toWall, into: writer, add: { $1.append($0) }, finish: { _ in })
        }
    }

    /// Expands the window's occurrences that overlap [fromWall, toWall) on
    /// their own clocks, at most `--max-per-series` of a series, and hands
    /// them to `writer` in batches as `add` makes its elements of them.
    private func expand<Element>(_ window: OccurrenceSequence, fromWall: Int64, toWall: Int64, into writer: OccurrencePipeline<Element>,
                                 add: (Occurrence, inout [Element]) -> Void, finish: (inout [Element]) -> Void) throws {
        var batch: [Element] = []
        batch.reserveCapacity(OccurrencePipelineSize.batch + 16)
        var perSeries: [String: Int] = [:]
        var occurrences = window.makeIterator()
        while let o = occurrences.next() {
            let s = OccurrenceFormat.wall(o.start, o.startSeconds)
            let e = OccurrenceFormat.wall(o.end, o.endSeconds)
            let inside = e > s ? s < toWall && e > fromWall : s >= fromWall && s < toWall
            guard inside else { continue }
            if maxPerSeries > 0, o.id.recurrenceID != nil {
                let n = perSeries[o.id.uid, default: 0] + 1
                perSeries[o.id.uid] = n
                // The cap is applied while iterating: a series that reaches
                // it is not expanded any further (a year of a SECONDLY rule
                // stops after its first lines instead of computing 31 million).
                if n == maxPerSeries { occurrences.skipRemaining(ofSeries: o.id.uid) }
            }
            add(o, &batch)
            if batch.count >= OccurrencePipelineSize.batch {
                guard writer.send(batch) else { break }
                batch.removeAll(keepingCapacity: true)
            }
        }
        finish(&batch)
        _ = writer.send(batch)
        if let error = writer.finish() { throw CLIError("cannot write the occurrences: \(String(cString: strerror(error)))") }
    }

    /// A bound's wall time; with `dayEnd`, a date is the end of that day (the next midnight).
    private func wallSeconds(_ text: String, _ option: String, dayEnd: Bool = false) throws -> Int64 {
        let compact = text.replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
        do {
            let time = try CalendarTime(icalValue: compact)
            return time.wallTime.localSeconds + (dayEnd && time.isDate ? 86_400 : 0)
        } catch {
            throw ValidationError("\(option) ‘\(text)’ is not YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS: \(error.message)")
        }
    }
}

/// The order of `--format json`: start, end, `UID`, recurrence ID as the lines show it, summary.
struct OccurrenceKey: Comparable {
    var start: Int64
    var end: Int64
    var uid: String
    var recurrenceID: String
    var summary: String

    static func < (a: OccurrenceKey, b: OccurrenceKey) -> Bool {
        (a.start, a.end, a.uid, a.recurrenceID, a.summary) < (b.start, b.end, b.uid, b.recurrenceID, b.summary)
    }
}

/// The body of `occurrences --format json`.
struct OccurrencesJSON: Encodable {
    let occurrences: [DisplayOccurrence]
}

/// Writes `occurrences --format json` as the occurrences come, in the
/// order ``JSONOrder`` settles them in (``OccurrenceKey``'s,
/// holding one group of equal start and end at a time): the document is
/// byte for byte what `printJSON` writes of the whole array, but memory
/// does not grow with the window (a year of a `FREQ=SECONDLY` rule with no
/// cap once asked for 1.7 GB).
///
/// The envelope comes from the encoder itself: the document with one
/// placeholder in the array is encoded once and cut around it, so the head
/// (`{`, `"command"`, `"occurrences" : [`) and the tail (`]`, `"schema"`,
/// `"timeZone"`, `}`) are the encoder's own; each occurrence is written
/// as the encoder writes it with the same settings (its bytes written
/// directly: `DisplayOccurrence.appendJSON(to:indent:)`, which costs a
/// seventh of the encoder's machinery) and indented to its place in the array.
struct OccurrencesJSONStream: OccurrenceSink {
    private let head: [UInt8]
    private let tail: [UInt8]
    /// The whole document of a window with no occurrence: the encoder's own empty array.
    private let empty: [UInt8]
    private var written = 0
    private var out: [UInt8] = []
    /// `errno` of the first failed write; nothing more is written after it.
    private(set) var writeError: Int32?

    private static let placeholder = "horari-occurrences-placeholder"

    init(timeZone: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        struct Placeholder: Encodable { let occurrences: [String] }
        let whole = try encoder.encode(JSONDocument(command: "occurrences", timeZone: timeZone, body: Placeholder(occurrences: [Self.placeholder])))
        let marker = Array("    \"\(Self.placeholder)\"".utf8)
        let bytes = [UInt8](whole)
        guard bytes.count >= marker.count, let at = (0...(bytes.count - marker.count)).first(where: { bytes[$0..<($0 + marker.count)].elementsEqual(marker) }) else {
            throw CLIError("cannot write the occurrences as JSON: the encoder's document has an unexpected form")
        }
        head = Array(bytes[..<at])
        tail = Array(bytes[(at + marker.count)...]) + [0x0A]
        empty = [UInt8](try encoder.encode(JSONDocument(command: "occurrences", timeZone: timeZone, body: OccurrencesJSON(occurrences: [])))) + [0x0A]
    }

    /// Writes the next occurrence of the array.
    mutating func add(_ occurrence: DisplayOccurrence) {
        if written == 0 {
            out += head
        } else {
            out.append(0x2C)
            out.append(0x0A)
        }
        written += 1
        // The encoder's bytes, written directly (DisplayOccurrence.appendJSON, tested against it).
        out.append(contentsOf: repeatElement(0x20, count: 4))
        occurrence.appendJSON(to: &out, indent: 4)
        if out.count >= 1 << 16 { flush() }
    }

    /// Writes what is left and closes the document.
    mutating func finish() {
        if written == 0 {
            // No occurrence: the encoder's own empty array.
            out = empty
        } else {
            out += tail
        }
        flush()
    }

    private mutating func flush() {
        defer { out.removeAll(keepingCapacity: true) }
        guard !out.isEmpty, writeError == nil else { return }
        writeError = writeToStandardOutput(out)
    }
}

/// Formats and writes occurrences on a thread of its own while the caller
/// expands the next ones: on two cores the two halves of `occurrences`
/// overlap (formatting is about as costly as expanding).
///
/// The caller hands over batches of about ``OccurrencePipelineSize/batch``
/// elements (occurrences, or as `--format json` shows them); at most
/// ``OccurrencePipelineSize/depth`` wait at a time (the caller waits when
/// the writer falls behind), so memory stays bounded whatever the window.
final class OccurrencePipeline<Element: Sendable>: @unchecked Sendable {
    /// Guards `waiting`, `closed` and `done`, the only state both threads touch.
    private let condition = NSCondition()
    private var waiting: [[Element]] = []
    private var closed = false
    private var done = false
    /// `errno` of a failed write (a full disk, say): the writer stops, and so does the caller.
    private var failure: Int32?

    /// Starts the writer's thread, which makes its sink with `make`.
    init<Sink: OccurrenceSink>(_ make: @escaping @Sendable () -> Sink) where Sink.Element == Element {
        let thread = Thread { [self] in
            var writer = make()
            while let batch = take() {
                for o in batch { writer.add(o) }
                if writer.writeError != nil { break }
            }
            writer.finish()
            condition.lock()
            failure = writer.writeError
            done = true
            condition.broadcast()
            condition.unlock()
        }
        thread.start()
    }

    /// Hands a batch to the writer, waiting while ``depth`` batches wait;
    /// `false` once the writer has stopped on a failed write.
    func send(_ batch: [Element]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while waiting.count >= OccurrencePipelineSize.depth && !done { condition.wait() }
        guard !done else { return false }
        if !batch.isEmpty { waiting.append(batch) }
        condition.broadcast()
        return true
    }

    /// Returns once every batch sent is written, with `errno` of a failed write.
    func finish() -> Int32? {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        condition.broadcast()
        while !done { condition.wait() }
        return failure
    }

    private func take() -> [Element]? {
        condition.lock()
        defer { condition.unlock() }
        while waiting.isEmpty && !closed { condition.wait() }
        guard !waiting.isEmpty else { return nil }
        let batch = waiting.removeFirst()
        condition.broadcast()
        return batch
    }
}

/// How much ``OccurrencePipeline`` holds.
enum OccurrencePipelineSize {
    /// Elements per batch.
    static let batch = 512
    /// Batches that may wait for the writer.
    static let depth = 4
}

/// What ``OccurrencePipeline``'s thread writes occurrences with.
protocol OccurrenceSink: SendableMetatype {
    /// What it writes: an occurrence, or one as a view shows it.
    associatedtype Element: Sendable
    /// Takes the next one, in the order they are written.
    mutating func add(_ o: Element)
    /// Writes what is left.
    mutating func finish()
    /// `errno` of the first failed write; nothing more is written after it.
    var writeError: Int32? { get }
}

/// `occurrences --format json`'s order: each occurrence shown on the
/// clock, in expand.py's order (its recurrence ID as the lines write it).
///
/// Occurrences with the same start and end arrive together; only such a
/// group of more than one is keyed and sorted (expand.py's order, as the
/// lines: the schedule's differs only among them). Keying every
/// occurrence, a text of its recurrence ID each, cost a quarter of the
/// writer's time (issue 42, 4).
struct JSONOrder {
    var keys: OccurrenceWriter
    let zone: ZoneRules
    private var group: [Occurrence] = []

    init(keys: OccurrenceWriter, zone: ZoneRules) {
        self.keys = keys
        self.zone = zone
    }

    /// Takes the next occurrence in the schedule's order; appends to `shown` those whose order is settled.
    mutating func add(_ o: Occurrence, to shown: inout [DisplayOccurrence]) {
        if let first = group.first, first.startSeconds != o.startSeconds || first.endSeconds != o.endSeconds { flush(to: &shown) }
        group.append(o)
    }

    /// Appends what is left, in order.
    mutating func flush(to shown: inout [DisplayOccurrence]) {
        if group.count > 1 {
            var keyed = group.map { o in (key: OccurrenceKey(start: o.startSeconds, end: o.endSeconds, uid: o.id.uid, recurrenceID: keys.recurrenceIDText(o), summary: o.item.title), occurrence: o) }
            keyed.sort { $0.key < $1.key }
            for k in keyed { shown.append(DisplayOccurrence(k.occurrence, in: zone)) }
        } else if let o = group.first {
            shown.append(DisplayOccurrence(o, in: zone))
        }
        group.removeAll(keepingCapacity: true)
    }
}

/// Writes `occurrences` lines (text or expand.py's JSON lines) to standard
/// output as they come, in expand.py's order.
///
/// The schedule's order is start, end, `UID`, recurrence ID as a wall
/// reading; expand.py's is start, end, `UID`, recurrence ID as written, then
/// summary. The two differ only among occurrences with the same start and
/// end, which arrive together: each such group is sorted before it is
/// written, so the output is expand.py's order without holding more than
/// one group.
///
/// The per-occurrence path builds bytes directly: numbers are written digit
/// by digit, text is JSON-escaped byte by byte, and the zone of a `TZID` is
/// looked up once per run of occurrences in the same zone.
struct OccurrenceWriter: OccurrenceSink {
    private let schedule: Schedule
    private let jsonl: Bool
    private var out: [UInt8] = []
    /// The occurrences with the current start and end: their lines, and
    /// each one's sort keys (its recurrence ID is a range of its line).
    private var bytes: [UInt8] = []
    private var group: [(uid: String, summary: String, recurrenceID: Range<Int>, line: Range<Int>)] = []
    private var groupStart: Int64 = .min
    private var groupEnd: Int64 = .min
    private var zoneName = ""
    private var zoneRules: ZoneRules?
    /// The `UID`s of the series with changed instances (a few in a large calendar).
    private let seriesWithChanges: Set<String>
    /// `errno` of the first failed write; nothing more is written after it.
    private(set) var writeError: Int32?

    init(schedule: Schedule, jsonl: Bool) {
        self.schedule = schedule
        self.jsonl = jsonl
        seriesWithChanges = Set(schedule.items.lazy.filter { !$0.overrides.isEmpty }.map(\.uid))
        out.reserveCapacity(1 << 17)
    }

    /// A series occurrence's recurrence ID as the lines show it (`""` for none): `--format json`'s sort key.
    mutating func recurrenceIDText(_ o: Occurrence) -> String {
        var b: [UInt8] = []
        _ = recurrenceID(o, into: &b)
        return String(decoding: b, as: UTF8.self)
    }

    /// Adds an occurrence; occurrences come in the schedule's order.
    mutating func add(_ o: Occurrence) {
        if o.startSeconds != groupStart || o.endSeconds != groupEnd { flushGroup() }
        (groupStart, groupEnd) = (o.startSeconds, o.endSeconds)
        let summary: String? = o.item.title.isEmpty ? nil : o.item.title
        // Moved out of `self` while the zone cache (in `self`) is used.
        var b = bytes
        bytes = []
        defer { bytes = b }
        // The recurrence ID is written where the line shows it, and its bytes
        // there are its sort key: no copy of it per line.
        let lineStart = b.count
        var rid = lineStart..<lineStart
        if jsonl {
            b += "{\"uid\": ".utf8
            Self.quoted(o.id.uid, into: &b)
            b += ", \"recurrence_id\": \"".utf8
            let ridStart = b.count
            if recurrenceID(o, into: &b) {
                rid = ridStart..<b.count
                b.append(UInt8(ascii: "\""))
            } else {
                b.removeLast()
                b += "null".utf8
            }
            b += ", \"start\": \"".utf8
            iso(o.start, o.startSeconds, into: &b)
            b += "\", \"end\": \"".utf8
            iso(end(of: o), o.endSeconds, into: &b)
            b += "\", \"summary\": ".utf8
            Self.quoted(summary, into: &b)
            b += o.item.kind == .task ? Self.taskComponent : Self.eventComponent
            Self.quoted(OccurrenceFormat.zoneName(o.start), into: &b)
            b.append(UInt8(ascii: "}"))
        } else {
            iso(o.start, o.startSeconds, into: &b)
            let start = lineStart..<b.count
            b += " – ".utf8
            iso(end(of: o), o.endSeconds, into: &b)
            b += "  ".utf8
            b += (summary ?? "(no title)").utf8
            // A cancelled item (STATUS:CANCELLED, a cancelled session) is
            // marked; the JSON lines stay the peers' (expand.py lists it too).
            if o.item.isCancelled { b += "  [cancelled]".utf8 }
            // Shown only when it differs from the start; when it does not,
            // the start's bytes are the same text.
            let shownAt = b.count
            b += "  [instance of ".utf8
            let ridStart = b.count
            if recurrenceID(o, into: &b) {
                rid = ridStart..<b.count
                if b[rid].elementsEqual(b[start]) {
                    rid = start
                    b.removeLast(b.count - shownAt)
                } else {
                    b.append(UInt8(ascii: "]"))
                }
            } else {
                b.removeLast(b.count - shownAt)
            }
        }
        group.append((o.id.uid, summary ?? "", rid, lineStart..<b.count))
    }

    /// Writes what is left.
    mutating func finish() {
        flushGroup()
        flush()
    }

    private mutating func flushGroup() {
        if group.count > 1 {
            let b = bytes
            group.sort { x, y in
                if x.uid != y.uid { return x.uid < y.uid }
                if !b[x.recurrenceID].elementsEqual(b[y.recurrenceID]) { return b[x.recurrenceID].lexicographicallyPrecedes(b[y.recurrenceID]) }
                if x.summary != y.summary { return x.summary < y.summary }
                return b[x.line].lexicographicallyPrecedes(b[y.line])
            }
        }
        for g in group {
            out.append(contentsOf: bytes[g.line])
            out.append(0x0A)
        }
        group.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
        if out.count >= 1 << 16 { flush() }
    }

    private mutating func flush() {
        guard !out.isEmpty, writeError == nil else {
            out.removeAll(keepingCapacity: true)
            return
        }
        writeError = writeToStandardOutput(out)
        out.removeAll(keepingCapacity: true)
    }

    /// Writes a series occurrence's recurrence ID as expand.py prints it: a
    /// changed instance's as its `RECURRENCE-ID` was written (the same instant
    /// as the series' own). Returns whether there is one.
    private mutating func recurrenceID(_ o: Occurrence, into b: inout [UInt8]) -> Bool {
        guard let rid = o.id.recurrenceID else { return false }
        // A series with no changed instance: the occurrence's item is its
        // master. Otherwise the item may be a changed instance's own (which
        // may carry a rule of its own), so the master is looked up.
        let master = seriesWithChanges.contains(o.id.uid) ? schedule.item(uid: o.id.uid) : o.item
        guard let master, master.isRecurring else { return false }
        if master.overrides.isEmpty, rid == o.start {
            // An instance of the rule where it falls: its ID reads as its start.
            iso(o.start, o.startSeconds, into: &b)
            return true
        }
        var written = rid
        if !master.overrides.isEmpty {
            let zones = schedule.zones
            let seconds = try? rid.epochSeconds(floatingZone: .utc, zones: zones)
            written = master.overrides.first { (try? $0.recurrenceID.epochSeconds(floatingZone: .utc, zones: zones)) == seconds }?.recurrenceID ?? rid
        }
        iso(written, nil, into: &b)
        return true
    }

    /// The end as expand.py prints it: in the start's zone (the same instant).
    private mutating func end(of o: Occurrence) -> CalendarTime {
        switch (o.start, o.end) {
        case (.zoned(_, let z), .utc), (.zoned(_, let z), .zoned):
            guard let rules = rules(z) else { return o.end }
            return .zoned(LocalDateTime(localSeconds: rules.wall(atInstant: o.endSeconds)), z)
        case (.utc, .zoned): return .utc(LocalDateTime(localSeconds: o.endSeconds))
        default: return o.end
        }
    }

    /// The rules of a `TZID`, remembered for the next occurrence in the same zone.
    private mutating func rules(_ tzid: String) -> ZoneRules? {
        if tzid != zoneName || zoneRules == nil {
            zoneName = tzid
            zoneRules = try? schedule.zones.rules(forTZID: tzid)
        }
        return zoneRules
    }

    /// `2026-03-02`, `2026-03-02T09:00:00`, `…+00:00`, `…+01:00`.
    private mutating func iso(_ t: CalendarTime, _ seconds: Int64?, into b: inout [UInt8]) {
        switch t {
        case .date(let d): Self.date(d, into: &b)
        case .floating(let w): Self.clock(w, into: &b)
        case .utc(let w):
            Self.clock(w, into: &b)
            b += "+00:00".utf8
        case .zoned(let wall, let z):
            guard let rules = rules(z) else {
                Self.clock(wall, into: &b)
                return
            }
            let instant = seconds ?? rules.instant(forWall: wall.localSeconds)
            let offset = rules.offset(atInstant: instant)
            Self.clock(LocalDateTime(localSeconds: instant + Int64(offset)), into: &b)
            b.append(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            Self.digits(abs(offset) / 3600, 2, into: &b)
            b.append(UInt8(ascii: ":"))
            Self.digits(abs(offset) % 3600 / 60, 2, into: &b)
        }
    }

    private static func date(_ d: LocalDate, into b: inout [UInt8]) { ISOText.append(d, to: &b) }

    private static func clock(_ w: LocalDateTime, into b: inout [UInt8]) { ISOText.append(w, to: &b) }

    /// `value` in decimal, zero-padded to at least `width` digits (as `OccurrenceFormat.pad`).
    static func digits(_ value: Int, _ width: Int, into b: inout [UInt8]) {
        if value < 0 {
            b.append(UInt8(ascii: "-"))
            digits(-value, max(width - 1, 0), into: &b)
            return
        }
        var n = 1
        var v = value
        while v >= 10 { v /= 10; n += 1 }
        if width > n { b.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - n)) }
        var divisor = 1
        for _ in 1..<n { divisor *= 10 }
        v = value
        while divisor > 0 {
            b.append(UInt8(ascii: "0") + UInt8(v / divisor))
            v %= divisor
            divisor /= 10
        }
    }

    /// `, "component": "VEVENT", "tzid": ` and the task's, written once (the library names the component).
    static let eventComponent = Array(", \"component\": \"\(CalendarItem.Kind.event.componentName)\", \"tzid\": ".utf8)
    static let taskComponent = Array(", \"component\": \"\(CalendarItem.Kind.task.componentName)\", \"tzid\": ".utf8)

    /// A JSON string (or `null`), escaped as Python's `json.dumps(ensure_ascii=False)` (`ISOText.appendJSONString`).
    static func quoted(_ s: String?, into b: inout [UInt8]) {
        guard let s else {
            b += "null".utf8
            return
        }
        ISOText.appendJSONString(s, to: &b)
    }
}

/// Small pieces of the occurrence formats, shared with other commands.
enum OccurrenceFormat {
    /// The wall reading (seconds) of a time in its own zone.
    static func wall(_ t: CalendarTime, _ seconds: Int64) -> Int64 {
        switch t {
        case .date, .floating, .zoned: t.wallTime.localSeconds
        case .utc: seconds
        }
    }

    /// The zone expand.py names for a start: `UTC`, the `TZID`, or none.
    static func zoneName(_ t: CalendarTime) -> String? {
        switch t {
        case .utc: "UTC"
        case .zoned(_, let z): z
        case .date, .floating: nil
        }
    }

    /// `v` zero-padded to `n` digits.
    static func pad(_ v: Int, _ n: Int) -> String {
        var b: [UInt8] = []
        OccurrenceWriter.digits(v, n, into: &b)
        return String(decoding: b, as: UTF8.self)
    }
}

/// Writes all of `bytes` to standard output, again after `EINTR`; the
/// `errno` of a failed write (`EIO` when it wrote nothing), else `nil`.
func writeToStandardOutput(_ bytes: [UInt8]) -> Int32? {
    bytes.withUnsafeBytes { bytes -> Int32? in
        var done = 0
        while done < bytes.count, let base = bytes.baseAddress {
            let n = write(STDOUT_FILENO, base + done, bytes.count - done)
            if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else { return n < 0 ? errno : EIO }
        }
        return nil
    }
}
