import CalendarCore
import Foundation

/// One `VEVENT` or `VTODO` as its properties are mapped: the item, and what
/// the mapping needs until the component's last property has been read.
struct ItemDraft {
    var item: CalendarItem
    var duration: (line: Int, value: String)?
    var start: CalendarTime?
    var endAt: CalendarTime?
    var recurrenceID: CalendarTime?
    var thisAndFuture = false
    var created: CalendarTime?
    /// `DTSTART` or `RECURRENCE-ID` was given but could not be read.
    var failed = false
    /// The single-field properties seen (``ImportSession/singleFieldBit(_:)``).
    var seen: UInt32 = 0
    /// The properties kept as written, put in the item at once (each change
    /// to `ContentLines` copies its block).
    var kept: [ContentLine] = []

    var kind: CalendarItem.Kind { item.kind }
    /// The end property's name for this kind of item.
    var endName: String { item.kind == .task ? "DUE" : "DTEND" }
}

extension ImportSession {
    // MARK: Items

    /// Maps a `VEVENT` or `VTODO` to an item, handing it to libical beside,
    /// and puts it in the calendar (a changed instance waits for its series).
    mutating func item(_ node: RawNode, _ lines: [RawLine], malformed: Set<Int>) {
        // libical reads the component (without the lines we found malformed).
        let ticket = checks.count
        #if LibICal
        if let libical {
            checks.append(CheckedItem(line: node.line))
            libical.submit(Self.libicalText(lines, malformed: malformed, droppingLibICalReports: true), properties: node.properties.map { ($0.0.name, $0.1) },
                           line: node.line, ticket: ticket)
        }
        #endif
        let firstDiagnostic = diagnostics.count
        var draft = ItemDraft(item: textFields(node))
        for (p, line) in node.properties { property(p, line, &draft) }
        if options.detail == .complete {
            draft.item.properties = ContentLines(draft.kept)
            let others = node.children.filter { $0.name != "VALARM" }
            if !others.isEmpty { draft.item.components = others.map(\.contentComponent) }
        }
        settleEnd(&draft)
        identify(&draft, node, lines, malformed: malformed)
        guard settleStart(&draft, node) else {
            keptAsWritten(firstDiagnostic..<diagnostics.count)  // the component is kept whole
            return
        }
        checkUntil(&draft, node)
        readAlarms(&draft.item, node)
        checkEnd(draft, node)
        place(draft, node, ticket: ticket, diagnostics: firstDiagnostic..<diagnostics.count)
    }

    /// A new item of the component's kind with its TEXT fields, read from the
    /// raw lines: libical strips leading and trailing white space from them
    /// (" Some event" becomes "Some event").
    private func textFields(_ node: RawNode) -> CalendarItem {
        func textValue(_ name: String) -> String? { node.first(name).map { ContentLineSyntax.unescape($0.0.valueText) } }
        var item = CalendarItem(uid: textValue("UID") ?? "", kind: node.name == "VTODO" ? .task : .event, title: textValue("SUMMARY") ?? "",
                                start: .date(LocalDate(dayNumber: 0)))
        if options.detail == .complete {
            item.notes = textValue("DESCRIPTION")
            item.location = textValue("LOCATION")
        }
        if let status = textValue("STATUS") { item.status = ItemStatus(status) }
        return item
    }

    /// Maps one property by its group.
    private mutating func property(_ p: ParsedLine, _ line: Int, _ draft: inout ItemDraft) {
        var first = true
        if let bit = Self.singleFieldBit(p.name) {
            first = draft.seen & bit == 0
            draft.seen |= bit
        }
        switch p.name {
        case "UID", "SUMMARY", "DESCRIPTION", "LOCATION", "STATUS", "SEQUENCE", "DURATION":
            guard single(p, line, first) else { return }
            extraParameters(p, keeping: [], into: &draft.item)
            // An unreadable SEQUENCE is libical's X-LIC-ERROR (reported by the checker) and reads as 0.
            if p.name == "SEQUENCE" { draft.item.sequence = Int(p.valueText.trimmedBlanks) ?? 0 }
            if p.name == "DURATION" { draft.duration = (line, p.value) }
        case "DTSTART", "DTEND", "DUE", "RECURRENCE-ID", "DTSTAMP", "LAST-MODIFIED", "CREATED":
            guard single(p, line, first) else { return }
            timeProperty(p, line, &draft)
        case "COMPLETED":
            guard single(p, line, first) else { return }
            if let t = time(p, line, &draft.item, keptAsWritten: true) { draft.item.completed = t } else { draft.item.completedAsWritten = p.line }
        case "PERCENT-COMPLETE":
            guard single(p, line, first) else { return }
            if let percent = Int(p.valueText.trimmedBlanks), (0...100).contains(percent) {
                draft.item.percentComplete = percent
                extraParameters(p, keeping: [], into: &draft.item)
            } else {
                draft.item.percentCompleteAsWritten = p.line
                report(.warning, line, .invalidValue, "PERCENT-COMPLETE ‘\(p.valueText.prefix(20))’ is not a whole number from 0 to 100 (RFC 5545 §3.8.1.8); it is kept as written",
                       keptAsWritten: true)
            }
        case "RRULE": recurrenceRule(p, line, &draft)
        case "EXDATE", "RDATE":
            if p.parameter("VALUE")?.uppercased() == "PERIOD" {
                periods(p, line, &draft.item)
            } else if p.name == "EXDATE" {
                draft.item.exceptionDates += times(p, line, &draft.item)
            } else {
                draft.item.recurrenceDates += times(p, line, &draft.item)
            }
        case "CATEGORIES":
            guard options.detail == .complete else { return }
            draft.item.categories += ContentLineSyntax.splitTextList(p.value)
            extraParameters(p, keeping: [], into: &draft.item)
        case "COLOR", "X-HORARI-COLOR": colour(p, line, first, &draft)
        case "CLASS" where p.value.trimmedValue.isEmpty:
            // Google writes `CLASS:`; RFC 5545 (§3.8.1.3) gives CLASS a
            // value, and an item without one is PUBLIC. Said once here,
            // left out, so that what we write is valid.
            report(.warning, line, .invalidValue, "CLASS has no value (RFC 5545 §3.8.1.3: PUBLIC, PRIVATE or CONFIDENTIAL; none means PUBLIC); it was left out")
        default:
            draft.kept.append(p.line)
        }
    }

    /// Whether a property RFC 5545 allows once is the first of its name; a
    /// second is reported and ignored.
    private mutating func single(_ p: ParsedLine, _ line: Int, _ first: Bool) -> Bool {
        if !first { report(.warning, line, .duplicate, "\(p.name) appears more than once (RFC 5545 allows one); the first is used and this one ignored") }
        return first
    }

    /// `DTSTART`, `DTEND`/`DUE`, `RECURRENCE-ID`, `DTSTAMP`, `LAST-MODIFIED`, `CREATED`.
    private mutating func timeProperty(_ p: ParsedLine, _ line: Int, _ draft: inout ItemDraft) {
        if p.name == "CREATED" {
            draft.kept.append(p.line)
            // Google writes `CREATED:00001231T000000Z` when it does not know:
            // valid RFC 5545 (a 4-digit year), outside the years 1…9999 a
            // time here holds, and only ever informational. Kept as written.
            if p.valueText.hasPrefix("0000"), p.parameters.isEmpty {
                report(.note, line, .invalidValue, "CREATED \(p.valueText.prefix(20)) is in the year 0 (Google's placeholder for an unknown creation time); it is kept as written")
                return
            }
        }
        guard let t = time(p, line, &draft.item, keptAsWritten: p.name == "CREATED") else {
            if p.name == "DTSTART" || p.name == "RECURRENCE-ID" { draft.failed = true }
            return
        }
        switch p.name {
        case "DTSTART": draft.start = t
        case "DTEND", "DUE": draft.endAt = t
        case "RECURRENCE-ID":
            draft.recurrenceID = t
            draft.thisAndFuture = p.parameter("RANGE")?.uppercased() == "THISANDFUTURE"
        case "DTSTAMP": draft.item.timestamp = t
        case "LAST-MODIFIED": draft.item.lastModified = t
        default: draft.created = t
        }
    }

    /// `RRULE`, read leniently: what can be repaired is, and said.
    private mutating func recurrenceRule(_ p: ParsedLine, _ line: Int, _ draft: inout ItemDraft) {
        do {
            let parsed = try RecurrenceRule.parse(p.value, mode: .lenient)
            if let scale = parsed.rule.extensionParts.first(where: { $0.name == "RSCALE" })?.value, scale.uppercased() != "GREGORIAN" {
                // RFC 7529 §4.1: a calendar system the reader does not support
                // makes the rule unusable; expanding it as Gregorian would be wrong.
                report(.error, line, .invalidValue, "RRULE uses the \(scale) calendar (RFC 7529 RSCALE), which this library does not support; the rule was kept as written but does not repeat the item",
                       keptAsWritten: true)
                draft.kept.append(p.line)
                return
            }
            for issue in parsed.issues {
                report(.warning, line, .invalidValue, "RRULE \(issue.description); repaired")
            }
            draft.item.recurrenceRules.append(parsed.rule)
            extraParameters(p, keeping: [], into: &draft.item)
        } catch {
            report(.error, line, .invalidValue, "RRULE ‘\(p.value)’ cannot be read: \(error.description); it was ignored and the item does not repeat")
        }
    }

    /// `COLOR` (a CSS3 name, RFC 7986) and our own `X-HORARI-COLOR` (#rrggbb).
    private mutating func colour(_ p: ParsedLine, _ line: Int, _ first: Bool, _ draft: inout ItemDraft) {
        if p.name == "X-HORARI-COLOR" {
            if first, let rgb = ItemColor.RGB(hex: p.value.trimmedValue) { draft.item.color = ItemColor(rgb: rgb) } else { draft.kept.append(p.line) }
            return
        }
        if first, let c = try? ItemColor.named(p.value.trimmedValue) {
            if draft.item.color == nil { draft.item.color = c }
            extraParameters(p, keeping: [], into: &draft.item)
        } else {
            if first { report(.warning, line, .invalidValue, "COLOR ‘\(p.value)’ is not a CSS3 colour name (RFC 7986); it was kept as written") }
            draft.kept.append(p.line)
        }
    }

    /// The end: `DTEND`/`DUE`, else a usable `DURATION`.
    private mutating func settleEnd(_ draft: inout ItemDraft) {
        if let (line, value) = draft.duration {
            if let (d, negative) = DurationValue.parse(Substring(value)) {
                if negative {
                    report(.error, line, .invalidValue, "DURATION is negative; it was ignored")
                } else if d.days > 3_660_000 {
                    report(.error, line, .invalidValue, "DURATION lasts \(d.days / 365) years, past the year 9999 that iCalendar can write; it was ignored")
                } else if draft.endAt != nil {
                    report(.error, line, .invalidValue, "both \(draft.endName) and DURATION are given (RFC 5545 allows one); the end was used and DURATION ignored")
                } else {
                    draft.item.end = .duration(d)
                }
            } else {
                report(.error, line, .invalidValue, "DURATION ‘\(value.prefix(40))’ is not a duration such as PT1H30M or P2D (RFC 5545 §3.3.6); it was ignored")
            }
        }
        if let endAt = draft.endAt { draft.item.end = .at(endAt) }
    }

    /// The `UID` (one derived from the content where there is none) and the `DTSTAMP`.
    private mutating func identify(_ draft: inout ItemDraft, _ node: RawNode, _ lines: [RawLine], malformed: Set<Int>) {
        if draft.item.uid.isEmpty {
            draft.item.uid = generatedUID(for: Self.libicalText(lines, malformed: malformed))
            report(.warning, node.line, .missingProperty, "this \(node.name) has no UID; it was given ‘\(draft.item.uid)’, derived from its content so the same file always gets the same one")
        }
        if draft.item.timestamp == nil {
            draft.item.timestamp = draft.item.lastModified ?? draft.created
            let from = draft.item.timestamp == nil ? "; one is written on export" : "; its \(draft.item.lastModified != nil ? "LAST-MODIFIED" : "CREATED") is used"
            report(.warning, node.line, .missingProperty, "this \(node.name) (UID \(draft.item.uid)) has no DTSTAMP\(from)")
        }
    }

    /// The start: `DTSTART`, else a task's `DUE`, else a changed instance's
    /// `RECURRENCE-ID`; a task with none of them and no rule has no date
    /// (`CalendarItem.isUndated`). `false` when there is none: the component
    /// is kept as written (a repeating task with no dates among the
    /// calendar's components, else among the rejected).
    private mutating func settleStart(_ draft: inout ItemDraft, _ node: RawNode) -> Bool {
        if let start = draft.start {
            draft.item.start = start
        } else if draft.kind == .task, case .at(let due)? = draft.item.end {
            draft.item.start = due
            draft.item.hasStart = false
        } else if let recurrenceID = draft.recurrenceID, !draft.failed {
            draft.item.start = recurrenceID
            draft.item.hasStart = false
        } else if draft.kind == .task && !draft.failed && draft.item.end == nil && !draft.item.isRecurring {
            // RFC 5545 §3.6.2: a to-do with no date, "associated with each
            // successive calendar date, until it is completed": an item on
            // no date (CalendarItem.isUndated), which a task list shows as someday.
            draft.item.start = CalendarItem.undatedStart
            draft.item.hasStart = false
        } else if draft.kind == .task && !draft.failed {
            report(.warning, node.line, .missingProperty, "the task ‘\(draft.item.title)’ repeats or has a DURATION but has neither DTSTART nor DUE to count from (RFC 5545 §3.8.5.3, §3.8.2.5), so it has no place on a calendar; it was kept as written")
            calendar.components.append(node.contentComponent)
            return false
        } else if calendar.method != nil, draft.kind == .event, !draft.failed {
            // RFC 5545 §3.6.1: DTSTART is required only of a calendar with no
            // METHOD; an iTIP answer names its event by UID (RFC 5546 §4.2.2's
            // REPLY has no DTSTART). Kept as written, for the reader of the message.
            report(.note, node.line, .missingProperty, "this \(node.name) (UID \(draft.item.uid)) has no DTSTART, as an iTIP message may leave out; it is kept as written, not shown")
            calendar.components.append(node.contentComponent)
            return false
        } else {
            report(.error, node.line, .missingProperty, "this \(node.name) (UID \(draft.item.uid)) has no usable DTSTART; it was kept as written but is not shown")
            calendar.rejected.append(node.contentComponent)
            return false
        }
        return true
    }

    /// RFC 5545 §3.3.10: `UNTIL` must be a date when `DTSTART` is one, and a
    /// date-time (in UTC for a zoned start) when it is one. Real files get
    /// this wrong every way; each is read as the peers read it, and said.
    private mutating func checkUntil(_ draft: inout ItemDraft, _ node: RawNode) {
        let start = draft.item.start
        for i in draft.item.recurrenceRules.indices {
            guard let until = draft.item.recurrenceRules[i].until else { continue }
            let line = node.first("RRULE")?.1 ?? node.line
            if case .zoned(_, let zone) = start, case .floating = until {
                // A wall-clock UNTIL under a TZID (Google writes these): compared
                // on the series' clock, as the peers do; the export writes its instant.
                report(.warning, line, .invalidValue, "RRULE UNTIL=\(until.icalValue) is not in UTC but DTSTART is in \(zone) (RFC 5545 wants a UTC date-time ending in Z); read on \(zone)'s clock, as other calendars read it")
                continue
            }
            guard until.isDate != start.isDate else { continue }
            if start.isDate {
                // A date-time UNTIL on an all-day series: its date, which is what
                // the peers compare (and what an all-day rule can hold).
                let repaired = CalendarTime.date(until.localDate)
                report(.warning, line, .invalidValue, "RRULE UNTIL=\(until.icalValue) is not the same kind of value as DTSTART \(start.icalValue); read as UNTIL=\(repaired.icalValue)")
                draft.item.recurrenceRules[i].until = repaired
            } else {
                // A date UNTIL on a timed series is kept: the recurrence engine
                // reads it as the start of that day on the series' clock, as
                // dateutil, recurring-ical-events and libical do, and the export
                // writes that in the RFC's form.
                report(.warning, line, .invalidValue, "RRULE UNTIL=\(until.icalValue) is a date but DTSTART \(start.icalValue) has a time (RFC 5545 wants \(start.zoneIdentifier != nil ? "a UTC date-time" : "a date-time")); read as the start of \(until.localDate), so that day is not included, as other calendars read it")
            }
        }
    }

    /// An end of another kind than the start, or before it, is said; the
    /// item keeps it as written.
    private mutating func checkEnd(_ draft: ItemDraft, _ node: RawNode) {
        guard case .at(let e) = draft.item.end else { return }
        let line = node.first(draft.endName)?.1 ?? node.line
        let start = draft.item.start
        if e.isDate != start.isDate {
            report(.warning, line, .invalidValue, "the end \(e) and the start \(start) are not both dates or both date-times")
        } else if let a = try? start.epochSeconds(floatingZone: .utc, zones: calendar.zones), let b = try? e.epochSeconds(floatingZone: .utc, zones: calendar.zones), b < a {
            report(.error, line, .invalidValue, "the end \(e) is before the start \(start); the item is imported as written, fix its end", keptAsWritten: true)
        }
    }

    /// Puts the item in the calendar: a changed instance waits for its series
    /// (``finish()``), a master goes in, or replaces an older version of itself.
    private mutating func place(_ draft: ItemDraft, _ node: RawNode, ticket: Int, diagnostics reported: Range<Int>) {
        let item = draft.item
        if let recurrenceID = draft.recurrenceID {
            sourceLines.noteInstance(item.uid, date: recurrenceID.wallTime.date.basicISO, line: node.line)
            if libicalChecks { checks[ticket].place = .override(pending.count) }
            pending.append(PendingItem(item: item, recurrenceID: recurrenceID, thisAndFuture: draft.thisAndFuture, line: node.line, raw: node.contentComponent,
                                       diagnostics: reported))
        } else if let i = masterIndex.position(of: item.uid, in: calendar.items) {
            // Two versions of one item, as files that keep an item's history
            // hold (recurring-ical-events' issue_148): the newer one — higher
            // SEQUENCE (RFC 5545 §3.8.7.4, RFC 5546 §2.1.4), then LAST-MODIFIED,
            // then DTSTAMP, as a sync decides — is the item; the other is kept
            // as written but not shown. Equal versions: the first stays.
            let old = calendar.items[i]
            if ICalendar.compareVersions(item, old) == .orderedDescending {
                // The earlier one's text is gone by now (holding every item's text
                // would double the import's memory): it is kept as read, which
                // is what the model holds of it, with the import's own diagnostics.
                report(.warning, node.line, .duplicate, "a second \(node.name) with UID \(item.uid) is a newer version (SEQUENCE \(item.sequence) over \(old.sequence)); it replaces the earlier one, which is kept (as read) but not shown")
                let stampless = ICalendarExporter(options: .init(timestamp: Date(timeIntervalSince1970: 0)))
                calendar.rejected.append(contentsOf: Self.components(stampless.itemText(old, zones: calendar.zones), options: options))
                if libicalChecks {
                    if let k = checks.firstIndex(where: { if case .master(i) = $0.place { true } else { false } }) { checks[k].place = .none }
                    checks[ticket].place = .master(i)
                }
                calendar.items[i] = item
                sourceLines.noteItem(item.uid, line: node.line)
            } else {
                report(.error, node.line, .duplicate, "a second item with UID \(item.uid), not newer than the first (SEQUENCE \(item.sequence)); it was kept as written but not shown (give it its own UID, or a higher SEQUENCE if it is a newer version)")
                keptAsWritten(reported)
                calendar.rejected.append(node.contentComponent)
            }
        } else {
            if libicalChecks { checks[ticket].place = .master(calendar.items.count) }
            masterIndex.insert(item.uid, at: calendar.items.count)
            sourceLines.noteItem(item.uid, line: node.line)
            calendar.items.append(item)
        }
    }

    /// A bit for each property the model has one field for (everything else is
    /// kept as a content line), to notice a second one without a dictionary per item.
    private static func singleFieldBit(_ name: String) -> UInt32? {
        switch name {
        case "UID": 1 << 0
        case "SUMMARY": 1 << 1
        case "DESCRIPTION": 1 << 2
        case "LOCATION": 1 << 3
        case "STATUS": 1 << 4
        case "SEQUENCE": 1 << 5
        case "DURATION": 1 << 6
        case "DTSTART": 1 << 7
        case "DTEND": 1 << 8
        case "DUE": 1 << 9
        case "RECURRENCE-ID": 1 << 10
        case "DTSTAMP": 1 << 11
        case "LAST-MODIFIED": 1 << 12
        case "CREATED": 1 << 13
        case "COLOR": 1 << 14
        case "X-HORARI-COLOR": 1 << 15
        case "COMPLETED": 1 << 16
        case "PERCENT-COMPLETE": 1 << 17
        default: nil
        }
    }

    /// A component's lines as libical reads them: the malformed ones left
    /// out, each ended by CRLF, the whole ended by a NUL. Its bytes are also
    /// what a generated UID is derived from.
    ///
    /// - Parameter droppingLibICalReports: leave out the file's own
    ///   `X-LIC-ERROR` lines, an earlier libical's reports that a producer
    ///   saved (Evolution, recurring-ical-events' issue_27): libical gives
    ///   them back as its own findings, and they were reported as problems
    ///   of this file. They stay in the item as written.
    private static func libicalText(_ lines: [RawLine], malformed: Set<Int>, droppingLibICalReports: Bool = false) -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(lines.reduce(0) { $0 + $1.bytes.count + 2 } + 1)
        for (i, l) in lines.enumerated() where !malformed.contains(i) {
            if droppingLibICalReports, l.bytes.first == UInt8(ascii: "X") || l.bytes.first == UInt8(ascii: "x"),
               ContentLineSyntax.name(l.bytes) == "X-LIC-ERROR" { continue }
            text.append(contentsOf: l.bytes)
            text.append(0x0D)
            text.append(0x0A)
        }
        text.append(0)
        return text
    }

    /// Reads `RDATE;VALUE=PERIOD` (RFC 5545 §3.3.9, §3.8.5.2): each instance
    /// starts at its period's start and ends at the period's own end
    /// (`start/end`, one TZID for both) or after its length (`start/PT2H`).
    /// `EXDATE` allows no periods: their starts are excluded, with a warning.
    private mutating func periods(_ p: ParsedLine, _ line: Int, _ item: inout CalendarItem) {
        func one(_ text: Substring) -> ParsedLine {
            var q = p
            q.line.value = String(text)
            q.line.parameters.removeAll { $0.name == "VALUE" }
            return q
        }
        for value in p.valueText.split(separator: ",") {
            let parts = value.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let start = time(one(parts[0]), line, &item) else { continue }
            if p.name == "EXDATE" {
                report(.warning, line, .invalidValue, "EXDATE cannot hold a period (RFC 5545 §3.8.5.1); the period starting \(start.icalValue) excludes the instance at its start")
                item.exceptionDates.append(start)
                continue
            }
            let endText = parts.count > 1 ? parts[1].trimmedBlanks : ""
            var end: CalendarItem.End?
            if start.isDate {
                report(.warning, line, .invalidValue, "RDATE period ‘\(value.prefix(60))’ starts on a date; a period is two date-times (RFC 5545 §3.3.9), so the instance takes the item's length")
            } else if let first = endText.first, first == "P" || first == "+" || first == "-" {
                if let (d, negative) = DurationValue.parse(Substring(endText)), !negative, d.days <= 3_660_000 {
                    end = .duration(d)
                } else {
                    report(.warning, line, .invalidValue, "RDATE period ‘\(value.prefix(60))’ has no usable length; the instance takes the item's length")
                }
            } else if let e = time(one(Substring(endText)), line, &item), !e.isDate {
                if let a = try? start.epochSeconds(floatingZone: .utc, zones: calendar.zones), let b = try? e.epochSeconds(floatingZone: .utc, zones: calendar.zones), b < a {
                    report(.warning, line, .invalidValue, "RDATE period ‘\(value.prefix(60))’ ends before it starts; the instance takes the item's length")
                } else {
                    end = .at(e)
                }
            } else {
                report(.warning, line, .invalidValue, "RDATE period ‘\(value.prefix(60))’ has no usable end; the instance takes the item's length")
            }
            item.recurrenceDates.append(start)
            if let end { item.recurrenceDateEnds.append(.init(start: start, end: end)) }
        }
    }

    /// Records the parameters of a modelled property that the model does not hold.
    private func extraParameters(_ p: ParsedLine, keeping modelled: ParameterNames, into item: inout CalendarItem) {
        guard options.detail == .complete else { return }
        // Most lines have no parameter the model lacks (DTSTART;TZID=…): say so without reading them.
        guard !p.parameterNames.subtracting(modelled).isEmpty else { return }
        let extra = p.parameters.filter { !modelled.contains(ParameterNames(name: $0.name.utf8)) }
        if !extra.isEmpty, item.extraParameters[p.name] == nil { item.extraParameters[p.name] = extra }
    }

    /// The parameters of time properties that the model holds.
    private static let timeParameters: ParameterNames = [.tzid, .value]
    private static let recurrenceIDParameters: ParameterNames = [.tzid, .value, .range]

    /// Reads a date or date-time property, resolving its TZID.
    /// - Parameter keptAsWritten: whether the property stays in the item as
    ///   written whatever its value (`CREATED`), so that a value it cannot read loses nothing.
    private mutating func time(_ p: ParsedLine, _ line: Int, _ item: inout CalendarItem, keptAsWritten: Bool = false) -> CalendarTime? {
        times(p, line, &item, single: true, keptAsWritten: keptAsWritten).first
    }

    private mutating func times(_ p: ParsedLine, _ line: Int, _ item: inout CalendarItem, single: Bool = false, keptAsWritten: Bool = false) -> [CalendarTime] {
        var tzid: String?
        if let raw = p.parameter("TZID") {
            let system: String?
            if let known = systemNames[raw] {
                system = known
            } else {
                system = Self.systemName(raw)
                systemNames[raw] = system
            }
            if let name = system {
                tzid = name
            } else {
                // Resolved in finish(), once every VTIMEZONE has been seen.
                tzid = raw
                if unresolvedTZIDs[raw] == nil { unresolvedTZIDs[raw] = line }
            }
        }
        extraParameters(p, keeping: p.name == "RECURRENCE-ID" ? Self.recurrenceIDParameters : Self.timeParameters, into: &item)
        let values = single ? [p.valueText] : p.valueText.split(separator: ",")
        var out: [CalendarTime] = []
        for value in values {
            do {
                let t = try CalendarTime(icalText: value.trimmedBlanks, tzid: tzid)
                if case .date = t, let v = p.parameter("VALUE"), v.uppercased() == "DATE-TIME" {
                    report(.warning, line, .invalidValue, "\(p.name) says VALUE=DATE-TIME but holds the date \(value)")
                }
                out.append(t)
            } catch {
                report(.error, line, .invalidValue, "\(p.name) ‘\(value)’ cannot be read: \(error.message)\(keptAsWritten ? "; it is kept as written" : "")",
                       keptAsWritten: keptAsWritten)
            }
        }
        return out
    }
}

extension ImportSession {
    /// An alarm's problem on an item (CalendarCore's words, for an app) in
    /// the words of the file that holds it, for a diagnostic at its line.
    static func inFileTerms(_ message: String) -> String {
        [("has no start, so", "has no DTSTART, so"), ("has no due time, so", "has no DUE, so"),
         ("count it from its due time or", "count it from its due time (TRIGGER;RELATED=END:…) or"),
         ("count it from its start or", "count it from its start (TRIGGER:…, RELATED=START) or"),
         ("a date and time of its own or", "a date and time of its own (TRIGGER;VALUE=DATE-TIME:…) or")]
            .reduce(message) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }

    /// The item's `VALARM`s, read (``Alarm/init(component:)``): each one
    /// read an alarm of the item, each other one kept as written
    /// (``CalendarItem/unreadableAlarms``, which an export writes back
    /// unchanged). One that cannot go off is said, as a warning at its line;
    /// the alarm queries name its item among their problems rather than guess.
    mutating func readAlarms(_ item: inout CalendarItem, _ node: RawNode) {
        var alarms: [Alarm] = [], unreadable: [UnreadableAlarm] = []
        for child in node.children where child.name == "VALARM" {
            let component = child.contentComponent
            let problem: AlarmError
            do throws(AlarmError) {
                let alarm = try Alarm(component: component)
                alarms.append(alarm)
                // One counted from a start the item lacks is the item's alarm, which the queries report
                // while the item lacks it; its TRIGGER is at fault. (Asked of the item, not of a copy
                // holding the alarm, which copied the item's fields once for every alarm it has.)
                guard let never = alarm.fieldProblem ?? item.whyNeverRings(alarm, dueNeeded: false) else { continue }
                problem = AlarmError(never.code, property: "TRIGGER", Self.inFileTerms(never.message))
            } catch {
                unreadable.append(UnreadableAlarm(problem: error, component: component))
                problem = error
            }
            let line = problem.property.flatMap { child.first($0)?.1 } ?? child.line
            report(.warning, line, .invalidValue, "\(problem.message); the alarm was kept as written but will not go off", keptAsWritten: true)
        }
        if options.detail == .complete { (item.alarms, item.unreadableAlarms) = (alarms, unreadable) }
    }
}
