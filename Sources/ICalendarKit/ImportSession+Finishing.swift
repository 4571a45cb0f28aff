import CalendarCore
import Foundation

extension ImportSession {
    // MARK: Finishing

    /// The calendar, once every component has been read: libical's findings
    /// in, every `TZID` resolved, changed instances with their series.
    mutating func finish() -> ImportResult {
        calendar.properties.append(contentsOf: calendarLines)
        applyLibICalOutcomes()
        resolveTimeZones()
        writeUntilInRFCForm()
        attachChangedInstances()
        diagnostics.sort { ($0.line, $0.severity == .error ? 1 : 0) < ($1.line, $1.severity == .error ? 1 : 0) }
        return ImportResult(calendar: calendar, diagnostics: ICalendarDiagnostic.bounded(diagnostics, perKind: options.maxDiagnosticsPerKind),
                            sourceLines: sourceLines)
    }

    /// Each rule's `UNTIL` in the form RFC 5545 §3.3.10 asks of its series'
    /// start, meaning what the recurrence engine read (a date `UNTIL` of a
    /// timed series: the start of that day; a wall-clock one under a `TZID`:
    /// that wall time there), now that every zone is known: the item then
    /// validates, compares equal to its own export read back, and is written
    /// as it is held (``ICalendarExporter/until(_:inFormFor:zones:)``).
    private mutating func writeUntilInRFCForm() {
        for i in calendar.items.indices where calendar.items[i].recurrenceRules.contains(where: { $0.until != nil }) {
            let start = calendar.items[i].start
            for r in calendar.items[i].recurrenceRules.indices {
                guard let until = calendar.items[i].recurrenceRules[r].until else { continue }
                let written = ICalendarExporter.until(until, inFormFor: start, zones: calendar.zones)
                if written != until { calendar.items[i].recurrenceRules[r].until = written }
            }
        }
    }

    /// Changed instances join their series; one whose series is not in the
    /// file stands for it (its instances are the changed ones).
    private mutating func attachChangedInstances() {
        var index = masterIndex
        /// The as-written text of each override in place, by UID and recurrence ID.
        var placedRaw: [Occurrence.ID: ContentComponent] = [:]
        /// The changed instances joined to a series with a master, by the series' position.
        var joined: [Int: [(id: CalendarTime, line: Int)]] = [:]
        for p in pending {
            guard let rid = p.recurrenceID else { continue }
            let o = RecurrenceOverride(recurrenceID: rid, thisAndFuture: p.thisAndFuture, item: p.item, isCancelled: p.item.status == .cancelled)
            if let i = index.position(of: p.item.uid, in: calendar.items) {
                if attach(o, of: p, to: i, &placedRaw), calendar.items[i].hasMaster { joined[i, default: []].append((rid, p.line)) }
            } else {
                // Valid: RFC 4791 §4.1 and RFC 6638 let a calendar object hold only
                // the instances an attendee was invited to. A note, not a warning;
                // none in an iTIP message (METHOD), where one instance alone is the
                // usual form of an invitation or answer (RFC 5546 §3.2).
                if calendar.method == nil { report(.note, p.line, .orphanOverride, "the changed instance \(rid) of UID \(p.item.uid) has no series master in this file (as an invitation to one instance has); it is shown on its own") }
                var master = p.item
                master.start = rid
                master.end = nil
                master.recurrenceRules = []
                master.recurrenceDates = []
                master.exceptionDates = []
                master.hasMaster = false
                master.hasStart = true
                master.overrides = [o]
                placedRaw[Occurrence.ID(uid: p.item.uid, recurrenceID: rid)] = p.raw
                index.insert(p.item.uid, at: calendar.items.count)
                calendar.items.append(master)
            }
        }
        reportUnmatched(joined)
        // A master-less series: its instances are its overrides' recurrence IDs.
        for i in calendar.items.indices where !calendar.items[i].hasMaster {
            let ids = calendar.items[i].overrides.map(\.recurrenceID)
            if let first = ids.first {
                calendar.items[i].start = first
                calendar.items[i].recurrenceDates = Array(ids.dropFirst())
            }
        }
    }

    /// One changed instance joins the series at `i`, unless it cannot change
    /// it, is superseded, or loses to another change of the same instance:
    /// then it is kept as written (``ICalendar/rejected``).
    /// - Returns: whether it joined the series (it may yet lose to a later change of the same instance).
    @discardableResult
    private mutating func attach(_ o: RecurrenceOverride, of p: PendingItem, to i: Int, _ placedRaw: inout [Occurrence.ID: ContentComponent]) -> Bool {
        let rid = o.recurrenceID
        let series = calendar.items[i]
        // An instance is the same kind of component as its series (RFC 5545
        // §3.8.4.4 names "the specific instance of a recurring VEVENT, VTODO
        // or VJOURNAL"): a VTODO cannot change a VEVENT's instance, nor the
        // other way round (fuzzing: one was written back as a VEVENT with
        // DUE, read again as DTEND).
        if series.kind != p.item.kind {
            func name(_ k: CalendarItem.Kind) -> String { k.componentName }
            report(.error, p.line, .duplicate, "a \(name(p.item.kind)) changes the instance \(rid) of UID \(p.item.uid), whose series is a \(name(series.kind)); an instance must be the same kind of component as its series, so this one was kept as written and not applied")
            keptAsWritten(p.diagnostics)
            calendar.rejected.append(p.raw)
            return false
        }
        if series.hasMaster, p.item.sequence < series.sequence, !Self.produces(series, rid, zones: calendar.zones) {
            // The series was revised after this change (a higher SEQUENCE,
            // RFC 5546 §2.1.4) and no longer has the instance — excluded or
            // cut off (recurring-ical-events' issue_163, issue_253): the
            // change is superseded. Kept as written, not shown.
            report(.warning, p.line, .orphanOverride, "the changed instance \(rid) of UID \(p.item.uid) (SEQUENCE \(p.item.sequence)) is older than its series (SEQUENCE \(series.sequence)), which no longer has that instance; it was kept as written but not shown")
            keptAsWritten(p.diagnostics)
            calendar.rejected.append(p.raw)
            return false
        }
        let key = Occurrence.ID(uid: p.item.uid, recurrenceID: rid)
        if let same = series.overrides.firstIndex(where: { $0.recurrenceID == rid }) {
            report(.error, p.line, .duplicate, "a second change to the instance \(rid) of UID \(p.item.uid); the one with the higher SEQUENCE was kept, the other kept as written")
            let loser: ContentComponent?
            if p.item.sequence > series.overrides[same].item.sequence {
                calendar.items[i].overrides[same] = o
                loser = placedRaw[key]
                placedRaw[key] = p.raw
            } else {
                loser = p.raw
                keptAsWritten(p.diagnostics)
            }
            if let loser { calendar.rejected.append(loser) }
            return false  // the instance joined with the first change already
        }
        calendar.items[i].overrides.append(o)
        placedRaw[key] = p.raw
        return true
    }

    /// Reports libical's findings, and rejects (as written) the items libical could not read at all.
    ///
    /// In a build without the `LibICal` trait, a caller who asked for
    /// libical's checks (``ImportOptions/checksWithLibICal``) is told, once,
    /// that they did not run: a warning, so that a strict validation never
    /// passes a file libical was asked to read and did not.
    private mutating func applyLibICalOutcomes() {
        #if !LibICal
        if options.checksWithLibICal {
            report(.warning, 1, .libicalUnavailable,
                   "libical's checks did not run: this build of Horari has no libical (the LibICal package trait is off), so only the Swift reader's findings are reported")
        }
        #else
        var droppedMasters: Set<Int> = []
        var droppedOverrides: Set<Int> = []
        guard let libical else { return }
        for (ticket, outcome) in libical.finish().sorted(by: { $0.key < $1.key }) {
            switch outcome {
            case .errors(let errors):
                for e in errors { report(.warning, e.line, .libicalError, e.message) }
            case .unreadable(let text):
                switch checks[ticket].place {
                case .master(let i): droppedMasters.insert(i)
                case .override(let i): droppedOverrides.insert(i)
                case .none: break
                }
                let nodes = Self.components(text, options: options)
                report(.error, checks[ticket].line, .libicalError, "libical could not read this \(nodes.first?.name ?? "component"); it was kept as written")
                calendar.rejected.append(contentsOf: nodes)
            }
        }
        if !droppedMasters.isEmpty {
            calendar.items = calendar.items.enumerated().filter { !droppedMasters.contains($0.offset) }.map(\.element)
            masterIndex = UIDIndex(calendar.items)
        }
        if !droppedOverrides.isEmpty {
            pending = pending.enumerated().filter { !droppedOverrides.contains($0.offset) }.map(\.element)
        }
        #endif
    }

    /// Reports each changed instance whose `RECURRENCE-ID` names no instance
    /// its series has (`CalendarItem.unmatchedOverrides(zones:)`). Such a
    /// change is still shown, at its own start, as the expansion places every
    /// changed instance; what it was meant to change is unknown.
    private mutating func reportUnmatched(_ joined: [Int: [(id: CalendarTime, line: Int)]]) {
        for (i, changes) in joined.sorted(by: { $0.key < $1.key }) {
            let series = calendar.items[i]
            let unmatched = Set(series.unmatchedOverrides(zones: calendar.zones).map(\.recurrenceID))
            for change in changes where unmatched.contains(change.id) {
                report(.warning, change.line, .unmatchedOverride,
                       "the changed instance \(change.id) of UID \(series.uid) names no instance of its series (its RRULE and RDATE produce none then, or an EXDATE removes it); it is shown at its own start, but what it was meant to change is unknown")
            }
        }
    }

    /// Whether a series (without its changed instances) has an instance with
    /// this recurrence ID (``CalendarItem/produces(_:zones:)``).
    static func produces(_ series: CalendarItem, _ id: CalendarTime, zones: ZoneTable) -> Bool {
        series.produces(id, zones: zones)
    }

    /// The components in a text of whole components, as written.
    static func components(_ text: [UInt8], options: ImportOptions) -> [ContentComponent] {
        var reader = ContentLineReader(bytes: text, maxLineBytes: options.maxLineBytes)
        var lines: [RawLine] = []
        while let line = try? reader.next() { lines.append(line) }
        var quiet = options
        quiet.checksWithLibICal = false  // only the tree is wanted
        var scratch = ImportSession(options: quiet)
        var index = 0
        var malformed: Set<Int> = []
        var out: [ContentComponent] = []
        while index < lines.count {
            guard let node = scratch.buildTree(lines, &index, malformed: &malformed) else {
                index += 1
                continue
            }
            out.append(node.contentComponent)
        }
        return out
    }
}
