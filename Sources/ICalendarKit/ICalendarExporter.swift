import CalendarCore
import Foundation

/// Writes an ``ICalendar`` as strict RFC 5545 text.
///
/// Output is deterministic — the same calendar gives the same bytes — and
/// export → import → export is byte-identical. It has CRLF line ends, lines
/// folded at 75 octets (never inside a UTF-8 sequence), a `UID` and `DTSTAMP`
/// on every component, a `VTIMEZONE` for every `TZID` used, with the plain
/// IANA name as `TZID` (no libical `/freeassociation.sourceforge.net/`
/// prefix, which Thunderbird rejects), and every kept property, parameter and
/// component written back.
///
/// Why the writer is ours and not libical's serialiser: libical drops unknown
/// parameters and `X-` components, loses `\,` escapes in `X-` values, drops
/// empty `X-` properties and prefixes TZIDs (see Docs/ICalendar.md). Keeping
/// all of that through libical would need as much code as writing the text,
/// and the bytes would still be libical's choice. libical stays the referee:
/// the tests parse every export back with it and require no `X-LIC-ERROR`.
///
/// ```swift
/// let text = ICalendarExporter().export(calendar)
/// ```
public struct ICalendarExporter: Sendable {
    /// How the export is written.
    public struct Options: Hashable, Sendable {
        /// `PRODID` when the calendar has none (default: ``HorariVersion/productID``).
        public var productID: String
        /// `DTSTAMP` for items that have none (default: when the exporter was made,
        /// so that one exporter writes the same bytes every time).
        public var timestamp: Date
        /// Also write ``ICalendar/rejected`` components (as the file had them,
        /// so the output may not be valid RFC 5545). Off by default.
        public var includeRejected: Bool

        /// Creates options.
        public init(productID: String = HorariVersion.productID, timestamp: Date = Date(), includeRejected: Bool = false) {
            self.productID = productID
            self.timestamp = timestamp
            self.includeRejected = includeRejected
        }
    }

    /// How the export is written.
    public var options: Options

    /// Creates an exporter.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// The calendar as iCalendar text.
    public func export(_ calendar: ICalendar) -> String {
        String(decoding: exportData(calendar), as: UTF8.self)
    }

    /// The calendar as iCalendar bytes (UTF-8).
    public func exportData(_ calendar: ICalendar) -> Data {
        var w = ContentWriter()
        write(calendar, to: &w)
        return Data(w.bytes)
    }

    /// The calendar as jCal (RFC 7265): the text ``export(_:)`` writes,
    /// as JSON (``JCal/json(fromICalendar:)``); ``ICalendarImporter/importCalendar(jCal:)``
    /// reads it back to the same calendar.
    /// - Parameter calendar: the calendar.
    public func exportJCal(_ calendar: ICalendar) -> String {
        JCal.json(fromICalendar: export(calendar))
    }

    /// The calendar as iCalendar bytes (UTF-8), handed over in blocks as
    /// they are written, so that only a block of the text is held at a time
    /// (``exportData(_:)`` holds all of it, and a copy while it is made).
    ///
    /// The blocks, joined, are the bytes of ``exportData(_:)``. A calendar
    /// of more than 2,048 items has them written on up to four cores, 1,024
    /// to a core at a time, and put in order: then up to four runs of 1,024
    /// items are held besides the block, and a block may be a run long.
    ///
    /// - Parameters:
    ///   - calendar: the calendar to write.
    ///   - blockSize: about how many bytes a block holds (a block ends after
    ///     a component, so it may be longer); 256 KiB by default.
    ///   - write: called with each block, in order; the bytes are valid only
    ///     during the call.
    /// - Throws: what `write` throws; the export stops there.
    public func export<E: Error>(_ calendar: ICalendar, blockSize: Int = 1 << 18, to write: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
        try export(calendar, blockSize: blockSize, cores: Self.sideBySideCores, to: write)
    }

    /// ``export(_:blockSize:to:)`` with the items written on `cores` cores
    /// (the tests choose them).
    func export<E: Error>(_ calendar: ICalendar, blockSize: Int, cores: Int, to write: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
        // `Array.withUnsafeBytes` rethrows untyped errors: the error is carried out by hand.
        func hand(_ bytes: [UInt8]) throws(E) {
            var failure: E?
            bytes.withUnsafeBytes { b in
                do throws(E) { try write(b) } catch { failure = error }
            }
            if let failure { throw failure }
        }
        var w = ContentWriter()
        // A block and a quarter, up to 4 MiB: a huge blockSize is not reserved up front.
        w.bytes.reserveCapacity(max(0, min(blockSize, 1 << 22)) / 4 * 5)
        try self.write(calendar, to: &w, cores: cores) { (w: inout ContentWriter) throws(E) in
            guard w.bytes.count >= blockSize else { return }
            try hand(w.bytes)
            w.bytes.removeAll(keepingCapacity: true)
        }
        if !w.bytes.isEmpty { try hand(w.bytes) }
    }

    func write(_ calendar: ICalendar, to w: inout ContentWriter) {
        write(calendar, to: &w, cores: 1) { (_: inout ContentWriter) throws(Never) in }
    }

    /// How many items each core writes at a time when a large calendar's
    /// items are written side by side.
    static let sideBySideRun = 1024

    /// How many cores the block export writes items on: the process's, up
    /// to four. Four bounds what is held (a run each) and leaves a larger
    /// machine's other cores to other work; Foundation's count does not see
    /// a cgroup v2 CPU quota (`cpu.max`), and the cap bounds that too.
    static let sideBySideCores = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))

    /// Writes the calendar, calling `flush` after each component, where the
    /// bytes written so far may be handed on and removed. With `cores` over
    /// one, a calendar of more than two runs of items has them written on
    /// that many cores, a run each (``sideBySideRun``), and put in order:
    /// the same bytes; a round of runs is held at a time, each run handed
    /// on (and freed) in turn.
    private func write<E: Error>(_ calendar: ICalendar, to w: inout ContentWriter, cores: Int,
                                 flush: (inout ContentWriter) throws(E) -> Void) throws(E) {
        w.line("BEGIN", value: "VCALENDAR")
        w.line("VERSION", value: "2.0")
        w.line("PRODID", value: calendar.productID ?? options.productID)
        // A calendar scale the file gave other than GREGORIAN is kept in
        // `properties` (and was reported on import): written once, from there.
        if !calendar.properties.contains(where: { $0.name == "CALSCALE" }) { w.line("CALSCALE", value: "GREGORIAN") }
        if let method = calendar.method { w.line("METHOD", value: method) }
        if let name = calendar.name { w.line("X-WR-CALNAME", value: ContentWriter.escape(name)) }
        if let zone = calendar.timeZone { w.line("X-WR-TIMEZONE", value: zone) }
        if let color = calendar.color {
            if let css = color.cssName { w.line("COLOR", value: css) }
            w.line("X-APPLE-CALENDAR-COLOR", value: color.rgb.hex.uppercased())
        }
        w.lines(calendar.properties)
        writeTimeZones(for: calendar, to: &w)
        let stamp = LocalDateTime(localSeconds: Int64(max(-62_135_596_800, min(253_402_300_799, options.timestamp.timeIntervalSince1970.rounded(.down))))).basicISO + "Z"
        try flush(&w)
        let items = calendar.items, zones = calendar.zones, run = Self.sideBySideRun
        if cores > 1, items.count > 2 * run {
            var start = 0
            while start < items.count {
                let runs = min(cores, (items.count - start + run - 1) / run), from = start
                let written = Locked([[UInt8]](repeating: [], count: runs))
                DispatchQueue.concurrentPerform(iterations: runs) { k in
                    var part = ContentWriter()
                    for item in items[(from + k * run)..<min(items.count, from + (k + 1) * run)] {
                        writeItem(item, stamp: stamp, zones: zones, to: &part)
                    }
                    written.withLock { $0[k] = part.bytes }
                }
                var parts = written.withLock { parts in
                    defer { parts = [] }
                    return parts
                }
                for k in parts.indices {
                    // Moved, not copied, when nothing is pending before it; freed once handed on.
                    if w.bytes.isEmpty { swap(&w.bytes, &parts[k]) } else { w.bytes += parts[k] }
                    parts[k] = []
                    try flush(&w)
                }
                start = min(items.count, start + runs * run)
            }
        } else {
            for item in items {
                writeItem(item, stamp: stamp, zones: zones, to: &w)
                try flush(&w)
            }
        }
        for c in calendar.components {
            w.component(completed(c, stamp: stamp))
            try flush(&w)
        }
        if options.includeRejected {
            for c in calendar.rejected {
                w.component(c)
                try flush(&w)
            }
        }
        w.line("END", value: "VCALENDAR")
    }

    /// A kept `VEVENT`/`VTODO`/`VJOURNAL`/`VFREEBUSY` with the `UID` and
    /// `DTSTAMP` RFC 5545 requires added when it lacks them (the UID derived
    /// from its content, so the same component always gets the same one).
    private func completed(_ c: ContentComponent, stamp: String) -> ContentComponent {
        guard ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY"].contains(c.name) else { return c }
        var c = c
        // The UID is derived from the component as it came, before the
        // export's own DTSTAMP is added: derived after, it changed with the
        // second of the export, and two exports of one file disagreed.
        var uid: ContentLine?
        if !c.properties.contains(where: { $0.name == "UID" }) {
            var w = ContentWriter()
            w.component(c)
            uid = ContentLine(name: "UID", value: generatedUID(for: w.bytes))
        }
        if !c.properties.contains(where: { $0.name == "DTSTAMP" }) {
            c.properties.insert(ContentLine(name: "DTSTAMP", value: stamp), at: 0)
        }
        if let uid { c.properties.insert(uid, at: 0) }
        return c
    }

    // MARK: Time zones

    private func writeTimeZones(for calendar: ICalendar, to w: inout ContentWriter) {
        var earliest: [String: Int64] = [:]
        func use(_ t: CalendarTime?) {
            guard case .zoned(let wall, let z)? = t else { return }
            earliest[z] = min(earliest[z] ?? .max, wall.localSeconds)
        }
        // The times `writeItem` writes, and only those (found by fuzzing: a
        // changed instance's RDATE, which is not written, still brought its
        // zone's VTIMEZONE, and the next export had none).
        func useFields(_ item: CalendarItem, recurrence: Bool) {
            use(item.start)
            if case .at(let e) = item.end { use(e) }
            for alarm in item.alarms { if case .absolute(let t) = alarm.trigger { use(t) } }
            guard recurrence else { return }
            item.recurrenceDates.forEach(use)
            item.exceptionDates.forEach(use)
        }
        for item in calendar.items {
            if item.hasMaster { useFields(item, recurrence: true) }
            for o in item.overrides {
                use(o.recurrenceID)
                useFields(o.item, recurrence: false)
            }
        }
        var kept: [String: ContentComponent] = [:]
        for c in calendar.timeZoneDefinitions {
            if let tzid = c.properties.first(where: { $0.name == "TZID" })?.value { kept[tzid] = c }
        }
        for c in calendar.timeZoneDefinitions { w.component(c) }
        // A zone used with no definition kept: the calendar's own rules for
        // it (a zone defined in code, or renamed by a merge), else the system's.
        for tzid in earliest.keys.sorted() where kept[tzid] == nil {
            guard let rules = try? calendar.zones.rules(forTZID: tzid), tzid != "UTC" else { continue }
            w.component(VTimeZone.component(for: rules, tzid: tzid, from: earliest[tzid] ?? 0))
        }
    }

    // MARK: Items

    /// An item's components as this exporter writes them (its master, then
    /// its changed instances), in text: what an item the import set aside
    /// is kept as.
    func itemText(_ item: CalendarItem, zones: ZoneTable) -> [UInt8] {
        var w = ContentWriter()
        let stamp = LocalDateTime(localSeconds: Int64(options.timestamp.timeIntervalSince1970.rounded(.down))).basicISO + "Z"
        writeItem(item, stamp: stamp, zones: zones, to: &w)
        return w.bytes
    }

    private func writeItem(_ item: CalendarItem, stamp: String, zones: ZoneTable, to w: inout ContentWriter) {
        let name = item.kind.componentName
        if item.hasMaster {
            w.line("BEGIN", value: name)
            writeFields(item, stamp: stamp, recurrence: true, zones: zones, to: &w)
            w.line("END", value: name)
        }
        for o in item.overrides {
            w.line("BEGIN", value: name)
            var fields = o.item
            fields.uid = item.uid
            writeFields(fields, stamp: stamp, recurrence: false, zones: zones, recurrenceID: o, to: &w)
            w.line("END", value: name)
        }
    }

    private func writeFields(_ item: CalendarItem, stamp: String, recurrence: Bool, zones: ZoneTable, recurrenceID: RecurrenceOverride? = nil,
                             to w: inout ContentWriter) {
        let extra = item.extraParameters
        w.line("UID", extra["UID"], text: item.uid)
        w.line("DTSTAMP", extra["DTSTAMP"], value: item.timestamp?.icalValue ?? stamp)
        if let o = recurrenceID {
            var params = timeParameters(o.recurrenceID)
            if o.thisAndFuture { params.append(.init(name: "RANGE", values: ["THISANDFUTURE"])) }
            w.line("RECURRENCE-ID", params + (extra["RECURRENCE-ID"] ?? []), value: o.recurrenceID.icalValue)
        }
        if item.hasStart { time("DTSTART", item.start, extra, &w) }
        switch item.end {
        case .at(let e): time(item.kind == .task ? "DUE" : "DTEND", e, extra, &w)
        case .duration(let d): w.line("DURATION", extra["DURATION"], value: Self.duration(d))
        case nil: break
        }
        if recurrence {
            for r in item.recurrenceRules {
                var rule = r
                rule.until = r.until.map { Self.until($0, inFormFor: item.start, zones: zones) }
                w.line("RRULE", extra["RRULE"], value: rule.icalValue)
            }
            let periodEnds = item.recurrenceDateEnds.isEmpty ? [:] : Dictionary(item.recurrenceDateEnds.map { ($0.start, $0.end) }) { _, last in last }
            for t in item.recurrenceDates {
                if let end = periodEnds[t], !t.isDate {
                    // RFC 5545 §3.3.9: start/end, the end in the start's form (one
                    // TZID for both), or start/duration.
                    let value: String
                    switch end {
                    case .at(let e): value = t.icalValue + "/" + e.icalValue
                    case .duration(let d): value = t.icalValue + "/" + Self.duration(d)
                    }
                    w.line("RDATE", [.init(name: "VALUE", values: ["PERIOD"])] + timeParameters(t) + (extra["RDATE"] ?? []), value: value)
                } else {
                    time("RDATE", t, extra, &w)
                }
            }
            for t in item.exceptionDates { time("EXDATE", t, extra, &w) }
        }
        if !item.title.isEmpty { w.line("SUMMARY", extra["SUMMARY"], text: item.title) }
        if let notes = item.notes { w.line("DESCRIPTION", extra["DESCRIPTION"], text: notes) }
        if let location = item.location { w.line("LOCATION", extra["LOCATION"], text: location) }
        if !item.categories.isEmpty {
            w.line("CATEGORIES", extra["CATEGORIES"], value: item.categories.map(ContentWriter.escape).joined(separator: ","))
        }
        // Escaped like every TEXT value: it was read unescaped (fuzzing: a STATUS
        // holding an escaped line break was written back as a raw one).
        if let status = item.status { w.line("STATUS", extra["STATUS"], text: status.icalValue) }
        if item.sequence != 0 { w.line("SEQUENCE", extra["SEQUENCE"], value: String(item.sequence)) }
        if let modified = item.lastModified { w.line("LAST-MODIFIED", extra["LAST-MODIFIED"], value: modified.icalValue) }
        if let done = item.completed { time("COMPLETED", done, extra, &w) }
        if let percent = item.percentComplete { w.line("PERCENT-COMPLETE", extra["PERCENT-COMPLETE"], value: String(percent)) }
        w.lines(ContentLines([item.completedAsWritten, item.percentCompleteAsWritten].compactMap { $0 }))
        if let color = item.color {
            if let css = color.cssName {
                w.line("COLOR", extra["COLOR"], value: css)
            } else {
                w.line("X-HORARI-COLOR", value: color.rgb.hex)
            }
        }
        w.lines(item.properties)
        for alarm in item.alarms { w.component(alarm.component) }
        for kept in item.unreadableAlarms { w.component(kept.component) }
        for c in item.components { w.component(c) }
    }

    private func timeParameters(_ t: CalendarTime) -> [ContentLine.Parameter] {
        switch t {
        case .date: [.init(name: "VALUE", values: ["DATE"])]
        case .zoned(_, let z): [.init(name: "TZID", values: [z])]
        case .floating, .utc: []
        }
    }

    private func time(_ name: String, _ t: CalendarTime, _ extra: [String: [ContentLine.Parameter]], _ w: inout ContentWriter) {
        w.line(name, timeParameters(t) + (extra[name] ?? []), value: t.icalValue)
    }

    /// An `UNTIL` in the form RFC 5545 §3.3.10 asks of the series' start,
    /// meaning what the recurrence engine reads (``RecurrenceSet``): a date
    /// `UNTIL` of a timed series is the start of that day on the series'
    /// clock, a wall-clock one of a zoned series is that wall time there —
    /// both written as the UTC instant a zoned series needs. Real files hold
    /// both (Google's `UNTIL=20200429T000000` under a `TZID`); peers read
    /// them the same way, and the written form is the one every client
    /// accepts. A zone that cannot be resolved leaves the value as it is.
    static func until(_ until: CalendarTime, inFormFor start: CalendarTime, zones: ZoneTable) -> CalendarTime {
        switch (start, until) {
        case (.zoned(_, let id), .date(let d)):
            guard let rules = try? zones.rules(forTZID: id) else { return until }
            return .utc(LocalDateTime(localSeconds: rules.instant(forWall: Int64(d.dayNumber) * 86_400)))
        case (.zoned(_, let id), .floating(let t)):
            guard let rules = try? zones.rules(forTZID: id) else { return until }
            return .utc(LocalDateTime(localSeconds: rules.instant(forWall: t.localSeconds)))
        case (.zoned, .zoned):
            guard let seconds = try? until.epochSeconds(floatingZone: .utc, zones: zones) else { return until }
            return .utc(LocalDateTime(localSeconds: seconds))
        case (.floating, .date(let d)):
            return .floating(LocalDateTime(localSeconds: Int64(d.dayNumber) * 86_400))
        case (.utc, .date(let d)):
            return .utc(LocalDateTime(localSeconds: Int64(d.dayNumber) * 86_400))
        default:
            return until
        }
    }

    /// `P1DT2H`, `PT30M`, `PT0S`.
    static func duration(_ d: ItemDuration) -> String {
        var s = "P"
        if d.days != 0 { s += d.days % 7 == 0 && d.seconds == 0 ? "\(d.days / 7)W" : "\(d.days)D" }
        if d.seconds != 0 || d.days == 0 {
            s += "T"
            let h = d.seconds / 3600, m = d.seconds % 3600 / 60, sec = d.seconds % 60
            if h != 0 { s += "\(h)H" }
            if m != 0 { s += "\(m)M" }
            if sec != 0 || (h == 0 && m == 0) { s += "\(sec)S" }
        }
        return s
    }
}

/// Writes content lines: parameters quoted where needed, CRLF, folded at 75
/// octets without splitting a UTF-8 sequence.
struct ContentWriter {
    var bytes: [UInt8] = []

    mutating func line(_ p: ContentLine) { line(text: p.text.utf8) }

    /// Writes lines kept as written.
    mutating func lines(_ lines: ContentLines) {
        lines.forEachText { line(text: $0) }
    }

    /// Writes a line given as its canonical text (``ContentLine/text``).
    mutating func line(text: some Collection<UInt8>) {
        append(text)
        bytes.append(0x0D)
        bytes.append(0x0A)
        width = 0
    }

    /// Writes a modelled property. The name and parameters are written by
    /// ``ContentLine/appendHead(name:parameters:to:)``, the one place that
    /// knows how (quotes where a value needs them, `"` as `'`), so a
    /// modelled line and a kept line are written alike.
    mutating func line(_ name: String, _ parameters: [ContentLine.Parameter]? = nil, value: String) {
        line(name, parameters, valueBytes: value.utf8)
    }

    /// Writes a modelled property whose value is TEXT, escaped (RFC 5545
    /// §3.3.11) on the way into the output.
    mutating func line(_ name: String, _ parameters: [ContentLine.Parameter]? = nil, text: String) {
        guard TextEscaping.needsEscaping(text.utf8) else { return line(name, parameters, valueBytes: text.utf8) }
        var escaped = scratch
        scratch = []  // not written through `self` while it is read
        escaped.removeAll(keepingCapacity: true)
        if TextEscaping.appendEscaped(text.utf8, to: &escaped) {
            line(name, parameters, valueBytes: escaped)
        } else {
            line(name, parameters, valueBytes: Self.escape(text).utf8)
        }
        scratch = escaped
    }

    /// Scratch space for an escaped value.
    private var scratch: [UInt8] = []

    private mutating func line(_ name: String, _ parameters: [ContentLine.Parameter]?, valueBytes value: some Collection<UInt8>) {
        // Written straight into the output, folding as it goes: no string is
        // built per line (the export benchmark spent a third of its time there).
        if let parameters, !parameters.isEmpty {
            head.removeAll(keepingCapacity: true)
            ContentLine.appendHead(name: name, parameters: parameters, to: &head)
            append(head)
        } else {
            append(name.utf8)
        }
        append(0x3A)  // :
        append(value)
        bytes.append(0x0D)
        bytes.append(0x0A)
        width = 0
    }

    /// Scratch space for a line's name and parameters.
    private var head: [UInt8] = []

    mutating func component(_ c: ContentComponent) {
        line("BEGIN", value: c.name)
        lines(c.properties)
        for child in c.components { component(child) }
        line("END", value: c.name)
    }

    /// Bytes on the current physical line.
    private var width = 0

    /// Appends one byte of a line, folding before a character that would take
    /// the line past 75 bytes (RFC 5545 §3.1; never inside a UTF-8 sequence).
    /// A control character RFC 5545 does not allow (all but the tab; a line
    /// break in a text is already `\n`) is left out: written, it would make
    /// the file damaged for every reader, this library's importer included,
    /// which removes it and says so.
    private mutating func append(_ b: UInt8) {
        if (b < 0x20 && b != 0x09) || b == 0x7F { return }
        if b & 0xC0 != 0x80 {
            let length = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
            if width + length > 75 {
                bytes.append(0x0D)
                bytes.append(0x0A)
                bytes.append(0x20)
                width = 1
            }
        }
        bytes.append(b)
        width += 1
    }

    private mutating func append(_ text: some Collection<UInt8>) {
        if width + text.count <= 75, !text.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
            bytes.append(contentsOf: text)
            width += text.count
            return
        }
        for b in text { append(b) }
    }

    /// TEXT escaping (RFC 5545 §3.3.11).
    static func escape(_ s: String) -> String { TextEscaping.escaped(s) }
}
