import CalendarCore
import Foundation

/// Reads iCalendar (RFC 5545) text into an ``ICalendar``, tolerantly.
///
/// The input is read as a stream of content lines and handled one top-level
/// component at a time: each `VEVENT`/`VTODO` is parsed by libical, mapped
/// to a `CalendarItem` and its tree freed before the next is read, so
/// memory follows the model, not libical's tree of the whole file.
///
/// Real files are messy, so a problem in one component never stops the rest:
/// every problem becomes an ``ICalendarDiagnostic`` with its line, and a
/// component that cannot become an item is kept as written in
/// ``ICalendar/components`` so that nothing is lost on export. With
/// ``ImportOptions/strict`` any problem fails the import instead.
///
/// ```swift
/// let result = try ICalendarImporter().importCalendar(contentsOf: url)
/// if result.hasErrors { result.diagnostics.forEach { print($0) } }
/// ```
public struct ICalendarImporter: Sendable {
    /// Limits and strictness.
    public var options: ImportOptions

    /// Creates an importer.
    public init(options: ImportOptions = ImportOptions()) {
        self.options = options
    }

    /// Imports iCalendar text.
    /// - Throws: ``ICalendarError`` when the text is not iCalendar at all, or
    ///   in strict mode when there is any problem.
    public func importCalendar(from text: String) throws(ICalendarError) -> ImportResult {
        try importCalendar(bytes: Array(text.utf8))
    }

    /// Imports iCalendar bytes.
    /// - Throws: ``ICalendarError``, as ``importCalendar(from:)-(String)``.
    public func importCalendar(from data: Data) throws(ICalendarError) -> ImportResult {
        try importCalendar(bytes: [UInt8](data))
    }

    private func importCalendar(bytes: [UInt8]) throws(ICalendarError) -> ImportResult {
        guard bytes.count <= options.maxFileBytes else {
            throw ICalendarError(.tooLarge, "the input is \(bytes.count) bytes, over the limit of \(options.maxFileBytes) (ImportOptions.maxFileBytes)")
        }
        var reader = ContentLineReader(bytes: bytes, maxLineBytes: options.maxLineBytes)
        return try run(&reader)
    }

    /// Imports an `.ics` file, reading it in blocks so that only one
    /// component is held at a time.
    /// - Throws: ``ICalendarError`` with code ``ICalendarError/Code/io`` when
    ///   the file cannot be read, and as ``importCalendar(from:)-(String)``.
    /// - Parameters:
    ///   - url: the file.
    ///   - progress: called after each block (256 KiB) is read, with the bytes
    ///     read so far, on the calling thread; for a progress line.
    public func importCalendar(contentsOf url: URL, progress: ((Int) -> Void)? = nil) throws(ICalendarError) -> ImportResult {
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: url) } catch {
            // The system's own words (strerror), which say what to check, rather
            // than Foundation's "The operation could not be completed".
            let reason = (error as NSError).userInfo[NSUnderlyingErrorKey].flatMap { ($0 as? NSError)?.domain == NSPOSIXErrorDomain ? String(cString: strerror(Int32(($0 as? NSError)?.code ?? 0))) : nil }
                ?? (FileManager.default.fileExists(atPath: url.path) ? error.localizedDescription : "no such file")
            throw ICalendarError(.io, "cannot open \(url.path): \(reason)")
        }
        defer { try? handle.close() }
        let limit = options.maxFileBytes
        var total = 0
        var reader = ContentLineReader(maxLineBytes: options.maxLineBytes) {
            // 256 KiB at a time: a block is held three times over while it is
            // handed on (as read, as bytes, in the reader's buffer), and at
            // 1 MiB that was 3 MB of the 25 MB benchmark file's peak.
            guard let data = try handle.read(upToCount: 1 << 18), !data.isEmpty else { return nil }
            total += data.count
            guard total <= limit else {
                throw ICalendarError(.tooLarge, "\(url.path) is over the limit of \(limit) bytes (ImportOptions.maxFileBytes)")
            }
            progress?(total)
            return data.withUnsafeBytes { Array($0) }  // `[UInt8](data)` goes byte by byte
        }
        return try run(&reader)
    }

    private func run(_ reader: inout ContentLineReader) throws(ICalendarError) -> ImportResult {
        var session = ImportSession(options: options)
        do {
            try session.read(&reader)
        } catch let error as ICalendarError {
            throw error
        } catch {
            throw ICalendarError(.io, "cannot read the input: \(error.localizedDescription)", underlying: error)
        }
        guard session.sawCalendarData else {
            throw ICalendarError(.notICalendar, "the input is not iCalendar: it has no BEGIN:VCALENDAR (is it empty, binary, or another format?)", diagnostics: session.diagnostics)
        }
        let result = session.finish()
        if options.strict, result.diagnostics.contains(where: { $0.severity != .note }) {
            let all = result.diagnostics.filter { $0.severity != .note }.map { d in ICalendarDiagnostic(.error, line: d.line, d.code, d.message) }
            throw ICalendarError(.rejected, "the calendar has \(all.count) problem\(all.count == 1 ? "" : "s") (strict mode)", diagnostics: all)
        }
        return result
    }
}

/// Which components RFC 5545 lets begin inside which, for recovering from a
/// lost `END`.
enum ComponentNesting {
    /// Components that only a `VCALENDAR` holds (RFC 5545 §3.6, RFC 7953).
    static let calendarLevel: Set<String> = ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE", "VAVAILABILITY"]
    /// Components whose contents RFC 5545 and its extensions define: none of
    /// them holds a calendar-level component. An `X-` or unknown component is
    /// not here: what it holds is its own business (RFC 5545 §3.6), and it is
    /// kept as written.
    static let defined: Set<String> = [
        "VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE", "VAVAILABILITY", "VALARM", "STANDARD", "DAYLIGHT",
        "AVAILABLE", "VLOCATION", "VRESOURCE", "PARTICIPANT",
    ]

    /// Whether a `BEGIN:inner` inside an open `outer` shows that `outer` lost its `END`.
    static func cannotContain(_ outer: String, _ inner: String) -> Bool {
        calendarLevel.contains(inner) && defined.contains(outer)
    }
}

/// A component's lines arranged as a tree, each property with its line.
struct RawNode {
    var name: String
    var line: Int
    var properties: [(ParsedLine, Int)] = []
    var children: [RawNode] = []

    var contentComponent: ContentComponent {
        ContentComponent(name: name, properties: ContentLines(properties.map { $0.0.line }), components: children.map(\.contentComponent))
    }

    func first(_ name: String) -> (ParsedLine, Int)? { properties.first { $0.0.name == name } }
}

/// The state of one import.
struct ImportSession {
    let options: ImportOptions
    var calendar = ICalendar()
    var diagnostics: [ICalendarDiagnostic] = []
    var sawCalendarData = false

    /// Changed instances mapped so far, put with their masters in `finish()`.
    /// Masters go straight into `calendar.items` (one copy of each item, not two).
    private var pending: [PendingItem] = []
    /// The index in `calendar.items` of each master, by UID (the first master of a UID wins).
    private var masterIndex = UIDIndex()
    /// libical's parse of every item, beside ours (see ``LibICalChecker``);
    /// `nil` when ``ImportOptions/checksWithLibICal`` is off.
    private let libical: LibICalChecker?
    /// Each item handed to `libical`, by ticket: its first line and where it went.
    private var checks: [CheckedItem] = []

    /// 8 bytes an item (it was 24: a fifth of the 50,000-event import's peak
    /// was tables like this one). A line number and a position fit in 32 bits:
    /// a 2 GiB file has fewer lines than that.
    struct CheckedItem {
        enum Place { case none, master(Int), override(Int) }
        private var storedLine: Int32
        /// 0 none, n > 0 master n - 1, n < 0 changed instance -n - 1.
        private var storedPlace: Int32 = 0

        init(line: Int) { storedLine = Int32(clamping: line) }

        var line: Int { Int(storedLine) }

        var place: Place {
            get { storedPlace == 0 ? .none : storedPlace > 0 ? .master(Int(storedPlace) - 1) : .override(Int(-storedPlace) - 1) }
            set {
                switch newValue {
                case .none: storedPlace = 0
                case .master(let i): storedPlace = Int32(clamping: i + 1)
                case .override(let i): storedPlace = Int32(clamping: -(i + 1))
                }
            }
        }
    }
    /// TZIDs that are neither IANA nor (yet) defined by a VTIMEZONE, with the first line using each.
    private var unresolvedTZIDs: [String: Int] = [:]
    /// TZIDs defined by this file's VTIMEZONEs.
    private var definedTZIDs: Set<String> = []
    private var seenCalendarProperties: Set<String> = []
    /// The calendar's own properties kept as written, put in `calendar` by `finish()`.
    private var calendarLines: [ContentLine] = []
    /// `systemName(_:)` answers, per TZID as written (a hot path: every time property).
    private var systemNames: [String: String?] = [:]

    struct PendingItem {
        var item: CalendarItem
        var recurrenceID: CalendarTime?
        var thisAndFuture: Bool
        var line: Int
        /// The component as written, in case it loses to a duplicate with a
        /// higher SEQUENCE. Kept only for changed instances: holding it for
        /// every item would double the import's memory.
        var raw: ContentComponent
    }

    init(options: ImportOptions) {
        self.options = options
        libical = options.checksWithLibICal ? LibICalChecker() : nil
    }

    mutating func report(_ severity: ICalendarDiagnostic.Severity, _ line: Int, _ code: ICalendarDiagnostic.Code, _ message: String) {
        diagnostics.append(ICalendarDiagnostic(severity, line: line, code, message))
    }

    // MARK: Reading

    mutating func read(_ reader: inout ContentLineReader) throws {
        var stack: [(name: String, line: Int)] = []
        var chunk: [RawLine] = []
        var chunkDepth = 0  // stack depth at which the current chunk's root sits; 0 = none
        var chunkBytes = 0
        var chunkTooBig = false
        var chunkTooDeep = false
        var chunkLines = 0
        var components = 0
        var outsideTextLine: Int?

        func inChunk() -> Bool { chunkDepth > 0 }

        while let line = try reader.next() {
            if line.controlCharactersRemoved > 0 {
                report(.warning, line.number, .malformedLine, "\(line.controlCharactersRemoved) control character\(line.controlCharactersRemoved == 1 ? " was" : "s were") removed from this line (RFC 5545 allows none but the tab; a line break in a text is written \\n)")
            }
            if line.truncated {
                report(.error, line.number, .lineTooLong, "this line is longer than \(options.maxLineBytes) bytes (ImportOptions.maxLineBytes); its property (\(ContentLineSyntax.name(line.bytes).prefix(40))) was not imported")
                continue
            }
            let boundary = ContentLineSyntax.boundary(line.bytes)
            if boundary?.name.isEmpty ?? ContentLineSyntax.isNamedLikeBoundary(line.bytes) {
                // `END:` with no name, `BEGIN;X=1:VEVENT`: kept as a property, it was
                // written back as a line every other reader takes for a boundary
                // (and libical printed a warning on stderr). Found by fuzzing.
                let preview = String(decoding: line.bytes.prefix(60), as: UTF8.self)
                report(.error, line.number, .malformedLine, "‘\(preview)’ is not a component boundary (BEGIN:NAME or END:NAME, with no parameters); the line was skipped")
                continue
            }
            if let (begin, name) = boundary {
                if begin {
                    if stack.isEmpty, name == "VCALENDAR" {
                        stack.append((name, line.number))
                        sawCalendarData = true
                        continue
                    }
                    if stack.isEmpty {
                        report(.warning, line.number, .unbalanced, "BEGIN:\(name) is outside any VCALENDAR; it is read as if it were inside one")
                        sawCalendarData = true
                    }
                    // A calendar component cannot begin inside an event, a task, an
                    // alarm…: the one left open lost its END (a misspelt
                    // `END:VTOOD`). It is closed here, so that what follows is read
                    // as the calendar's, not swallowed to the end of the file.
                    while let open = stack.last, ComponentNesting.cannotContain(open.name, name) {
                        report(.error, open.line, .unbalanced, "BEGIN:\(open.name) is never closed (BEGIN:\(name) on line \(line.number) cannot be inside a \(open.name)); it was closed there")
                        if inChunk() { chunk.append(RawLine(bytes: Array("END:\(open.name)".utf8), number: line.number, truncated: false)) }
                        stack.removeLast()
                        if inChunk(), stack.count < chunkDepth {
                            finishChunk(chunk, tooBig: chunkTooBig, tooDeep: chunkTooDeep)
                            chunkDepth = 0
                            chunk = []
                        }
                    }
                    stack.append((name, line.number))
                    if !inChunk() {
                        components += 1
                        if components > options.maxComponents {
                            throw ICalendarError(.tooLarge, "line \(line.number): the calendar holds more than \(options.maxComponents) components (ImportOptions.maxComponents); nothing was imported. Raise the limit to read it whole")
                        }
                        chunkDepth = stack.count
                        chunk = []
                        chunkLines = 0
                        chunkBytes = 0
                        chunkTooBig = false
                        chunkTooDeep = false
                    }
                    if stack.count - chunkDepth + 2 > options.maxDepth, !chunkTooDeep {
                        chunkTooDeep = true
                        report(.error, line.number, .tooDeep, "components are nested more than \(options.maxDepth) deep (ImportOptions.maxDepth); the \(stack[chunkDepth - 1].name) starting on line \(stack[chunkDepth - 1].line) was not imported")
                    }
                } else {
                    guard let index = stack.lastIndex(where: { $0.name == name }) else {
                        report(.error, line.number, .unbalanced, "END:\(name) has no matching BEGIN:\(name); the line was ignored")
                        continue
                    }
                    for open in stack[(index + 1)...].reversed() {
                        report(.error, open.line, .unbalanced, "BEGIN:\(open.name) is never closed (END:\(name) on line \(line.number) closes its parent); it was closed there")
                        if inChunk() { chunk.append(RawLine(bytes: Array("END:\(open.name)".utf8), number: line.number, truncated: false)) }
                    }
                    if inChunk(), index + 1 < chunkDepth {
                        // The END closes something outside the chunk: the chunk ends here too.
                        finishChunk(chunk, tooBig: chunkTooBig, tooDeep: chunkTooDeep)
                        chunkDepth = 0
                    }
                    stack.removeSubrange(index...)
                    if inChunk() {
                        chunk.append(line)
                        if stack.count < chunkDepth {
                            finishChunk(chunk, tooBig: chunkTooBig, tooDeep: chunkTooDeep)
                            chunkDepth = 0
                            chunk = []
                        }
                    }
                    continue
                }
            } else if stack.isEmpty {
                if outsideTextLine == nil { outsideTextLine = line.number }
                continue
            } else if !inChunk() {
                calendarProperty(line)
                continue
            }
            // A line inside a component.
            chunkBytes += line.bytes.count + 2
            chunkLines += 1
            if chunkLines > options.maxPropertiesPerComponent, !chunkTooBig {
                chunkTooBig = true
                report(.error, stack[chunkDepth - 1].line, .tooManyProperties, "the \(stack[chunkDepth - 1].name) starting here has more than \(options.maxPropertiesPerComponent) lines (ImportOptions.maxPropertiesPerComponent); it was not imported")
            }
            if chunkBytes > options.maxComponentBytes, !chunkTooBig {
                chunkTooBig = true
                report(.error, stack[chunkDepth - 1].line, .componentTooLarge, "the \(stack[chunkDepth - 1].name) starting here is over \(options.maxComponentBytes) bytes (ImportOptions.maxComponentBytes); it was not imported")
            }
            if !chunkTooBig, !chunkTooDeep { chunk.append(line) }
        }
        if let open = stack.last {
            report(.warning, open.line, .unbalanced, "the file ends inside BEGIN:\(open.name) (it was cut short?); what was complete was imported")
            if inChunk() {
                for o in stack[(chunkDepth - 1)...].reversed() {
                    chunk.append(RawLine(bytes: Array("END:\(o.name)".utf8), number: o.line, truncated: false))
                }
                finishChunk(chunk, tooBig: chunkTooBig, tooDeep: chunkTooDeep)
            }
        }
        if let outsideTextLine, sawCalendarData {
            report(.warning, outsideTextLine, .malformedLine, "text outside BEGIN:VCALENDAR … END:VCALENDAR was ignored")
        }
    }

    private mutating func finishChunk(_ lines: [RawLine], tooBig: Bool, tooDeep: Bool) {
        guard !tooBig, !tooDeep else { return }
        var index = 0
        var malformed: Set<Int> = []
        guard let node = buildTree(lines, &index, malformed: &malformed) else { return }
        switch node.name {
        case "VTIMEZONE": timeZone(node)
        case "VEVENT", "VTODO": item(node, lines, malformed: malformed)
        default: calendar.components.append(node.contentComponent)
        }
    }

    /// Builds the tree of the component whose BEGIN is `lines[index]`,
    /// adding the indices of lines that are not content lines to `malformed`.
    fileprivate mutating func buildTree(_ lines: [RawLine], _ index: inout Int, malformed: inout Set<Int>) -> RawNode? {
        guard index < lines.count, let (begin, name) = ContentLineSyntax.boundary(lines[index].bytes), begin else { return nil }
        var node = RawNode(name: name, line: lines[index].number)
        index += 1
        while index < lines.count {
            let line = lines[index]
            if let (isBegin, n) = ContentLineSyntax.boundary(line.bytes) {
                if isBegin {
                    if let child = buildTree(lines, &index, malformed: &malformed) { node.children.append(child) }
                    continue
                }
                index += 1
                if n == name { return node }
                continue
            }
            index += 1
            if !ContentLineSyntax.isValidUTF8(line.bytes) {
                report(.warning, line.number, .invalidUTF8, "this line is not valid UTF-8; the bad bytes were replaced with U+FFFD")
            }
            switch ContentLineSyntax.parse(line.bytes) {
            case .success(let parsed): node.properties.append((parsed, line.number))
            case .failure(let problem):
                malformed.insert(index - 1)
                let what: String
                switch problem {
                case .noColon: what = "it has no ‘:’ between the name and the value"
                case .emptyName: what = "it has no property name"
                case .badName(let n): what = "its name ‘\(n)’ has characters other than letters, digits and ‘-’"
                case .badParameter(let p): what = "its parameter \(p.isEmpty ? "list" : p) is not NAME=VALUE"
                }
                let preview = String(decoding: line.bytes.prefix(60), as: UTF8.self)
                report(.error, line.number, .malformedLine, "‘\(preview)’ is not a content line: \(what); it was skipped")
            }
        }
        return node
    }

    // MARK: Calendar properties

    private mutating func calendarProperty(_ line: RawLine) {
        guard case .success(let p) = ContentLineSyntax.parse(line.bytes) else {
            report(.error, line.number, .malformedLine, "‘\(String(decoding: line.bytes.prefix(60), as: UTF8.self))’ is not a content line; it was skipped")
            return
        }
        let first = seenCalendarProperties.insert(p.name).inserted
        switch p.name {
        case "VERSION" where first:
            if p.value.trimmedValue != "2.0" {
                report(.warning, line.number, .invalidValue, "VERSION is ‘\(p.value)’; this reader expects iCalendar 2.0 (RFC 5545) and read the file as such")
            }
        case "PRODID" where first: calendar.productID = p.value
        case "METHOD" where first: calendar.method = p.value
        case "CALSCALE" where first:
            // Found by fuzzing: a non-Gregorian scale was kept and written after
            // our own CALSCALE:GREGORIAN, and the next import dropped it as a repeat.
            if p.value.trimmedValue.uppercased() != "GREGORIAN" {
                report(.warning, line.number, .invalidValue, "CALSCALE is ‘\(p.value)’; this reader knows only GREGORIAN and read the dates as Gregorian (the value is kept and written back)")
                calendarLines.append(p.line)
            }
        case "X-WR-CALNAME" where first: calendar.name = ContentLineSyntax.unescape(Substring(p.value))
        case "NAME":
            if calendar.name == nil { calendar.name = ContentLineSyntax.unescape(Substring(p.value)) }
            calendarLines.append(p.line)
        case "X-WR-TIMEZONE" where first: calendar.timeZone = p.value.trimmedValue
        case "COLOR" where first:
            if let c = try? ItemColor.named(p.value.trimmedValue) { calendar.color = c } else { calendarLines.append(p.line) }
        case "X-APPLE-CALENDAR-COLOR" where first:
            if let rgb = appleColor(p.value) {
                if calendar.color == nil { calendar.color = ItemColor(rgb: rgb) }
            } else {
                calendarLines.append(p.line)
            }
        case let name where !first && ["VERSION", "PRODID", "METHOD", "CALSCALE"].contains(name):
            break  // a second VCALENDAR in the same file repeats them
        default: calendarLines.append(p.line)
        }
    }

    private func appleColor(_ value: String) -> ItemColor.RGB? {
        var v = value.trimmedValue
        if v.count == 9, v.hasPrefix("#") { v = String(v.prefix(7)) }  // #RRGGBBAA
        return ItemColor.RGB(hex: v)
    }

    // MARK: Time zones

    private mutating func timeZone(_ node: RawNode) {
        guard let (tzidLine, _) = node.first("TZID") else {
            report(.warning, node.line, .missingProperty, "this VTIMEZONE has no TZID; it was kept as written but nothing can refer to it")
            calendar.components.append(node.contentComponent)
            return
        }
        let tzid = tzidLine.value.trimmedValue
        // An exact IANA name (or one behind a vendor prefix): the system's data is
        // used, as icalendar does, and export writes the zone afresh. Any other
        // name (custom, Windows, another letter case) is what this VTIMEZONE
        // says it is: RFC 5545 §3.2.19 makes the file's VTIMEZONE the definition.
        if Self.systemName(tzid) != nil { return }
        calendar.timeZoneDefinitions.append(node.contentComponent)
        do {
            let rules = try VTimeZone.rules(from: node, tzid: tzid)
            // The zone is this calendar's (ICalendar.zones), not the process's:
            // another calendar may define the same TZID otherwise, and keeps
            // its own rules. Only a second definition in this same file can
            // clash, and RFC 5545 §3.6.5 gives a TZID one VTIMEZONE.
            if let first = calendar.zones[tzid] {
                if first != rules {
                    report(.warning, node.line, .duplicate, "the zone ‘\(tzid)’ is defined a second time in this file, differently; the first definition is used (both are kept as written)")
                }
            } else {
                calendar.zones[tzid] = rules
            }
            definedTZIDs.insert(tzid)
        } catch {
            report(.error, error.line, .invalidValue, "the VTIMEZONE ‘\(tzid)’ cannot be used: \(error.message); times in it are read as floating")
        }
    }

    // MARK: Items

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
        default: nil
        }
    }

    private mutating func item(_ node: RawNode, _ lines: [RawLine], malformed: Set<Int>) {
        let kind: CalendarItem.Kind = node.name == "VTODO" ? .task : .event
        // libical reads the component (without the lines we found malformed).
        let ticket = checks.count
        if let libical {
            checks.append(CheckedItem(line: node.line))
            libical.submit(Self.libicalText(lines, malformed: malformed, droppingLibICalReports: true), properties: node.properties.map { ($0.0.name, $0.1) }, line: node.line, ticket: ticket)
        }

        // TEXT values are read from the raw lines: libical strips leading and
        // trailing white space from them (" Some event" becomes "Some event").
        func textValue(_ name: String) -> String? { node.first(name).map { ContentLineSyntax.unescape($0.0.valueText) } }
        var item = CalendarItem(uid: "", kind: kind, title: textValue("SUMMARY") ?? "", start: .date(LocalDate(dayNumber: 0)))
        let complete = options.detail == .complete
        if complete {
            item.notes = textValue("DESCRIPTION")
            item.location = textValue("LOCATION")
        }
        if let status = textValue("STATUS") { item.status = ItemStatus(status) }
        var duration: (line: Int, value: String)?
        var start: CalendarTime?
        var endAt: CalendarTime?
        var recurrenceID: CalendarTime?
        var thisAndFuture = false
        var seen: UInt32 = 0
        var created: CalendarTime?
        var failed = false
        // The properties kept as written, put in the item at once (each change to
        // `ContentLines` copies its block).
        var kept: [ContentLine] = []

        for (p, line) in node.properties {
            var first = true
            if let bit = Self.singleFieldBit(p.name) {
                first = seen & bit == 0
                seen |= bit
            }
            switch p.name {
            case "UID", "SUMMARY", "DESCRIPTION", "LOCATION", "STATUS", "SEQUENCE", "DURATION":
                if !first {
                    report(.warning, line, .duplicate, "\(p.name) appears more than once (RFC 5545 allows one); the first is used and this one ignored")
                    continue
                }
                extraParameters(p, keeping: [], into: &item)
                // An unreadable SEQUENCE is libical's X-LIC-ERROR (reported by the checker) and reads as 0.
                if p.name == "SEQUENCE" { item.sequence = Int(p.valueText.trimmedBlanks) ?? 0 }
                if p.name == "DURATION" { duration = (line, p.value) }
            case "DTSTART", "DTEND", "DUE", "RECURRENCE-ID", "DTSTAMP", "LAST-MODIFIED", "CREATED":
                if !first {
                    report(.warning, line, .duplicate, "\(p.name) appears more than once (RFC 5545 allows one); the first is used and this one ignored")
                    continue
                }
                if p.name == "CREATED" {
                    kept.append(p.line)
                    // Google writes `CREATED:00001231T000000Z` when it does not know:
                    // valid RFC 5545 (a 4-digit year), outside the years 1…9999 a
                    // time here holds, and only ever informational. Kept as written.
                    if p.valueText.hasPrefix("0000"), p.parameters.isEmpty {
                        report(.note, line, .invalidValue, "CREATED \(p.valueText.prefix(20)) is in the year 0 (Google's placeholder for an unknown creation time); it is kept as written")
                        continue
                    }
                }
                guard let t = time(p, line, &item) else {
                    if p.name == "DTSTART" || p.name == "RECURRENCE-ID" { failed = true }
                    continue
                }
                switch p.name {
                case "DTSTART": start = t
                case "DTEND", "DUE": endAt = t
                case "RECURRENCE-ID":
                    recurrenceID = t
                    thisAndFuture = p.parameter("RANGE")?.uppercased() == "THISANDFUTURE"
                case "DTSTAMP": item.timestamp = t
                case "LAST-MODIFIED": item.lastModified = t
                default: created = t
                }
            case "RRULE":
                do {
                    let parsed = try RecurrenceRule.parse(p.value, mode: .lenient)
                    if let scale = parsed.rule.extensionParts.first(where: { $0.name == "RSCALE" })?.value, scale.uppercased() != "GREGORIAN" {
                        // RFC 7529 §4.1: a calendar system the reader does not support
                        // makes the rule unusable; expanding it as Gregorian would be wrong.
                        report(.error, line, .invalidValue, "RRULE uses the \(scale) calendar (RFC 7529 RSCALE), which this library does not support; the rule was kept as written but does not repeat the item")
                        kept.append(p.line)
                        continue
                    }
                    for issue in parsed.issues {
                        report(.warning, line, .invalidValue, "RRULE \(issue.description); repaired")
                    }
                    item.recurrenceRules.append(parsed.rule)
                    extraParameters(p, keeping: [], into: &item)
                } catch {
                    report(.error, line, .invalidValue, "RRULE ‘\(p.value)’ cannot be read: \(error.description); it was ignored and the item does not repeat")
                }
            case "EXDATE", "RDATE":
                if p.parameter("VALUE")?.uppercased() == "PERIOD" {
                    periods(p, line, &item)
                } else if p.name == "EXDATE" {
                    item.exceptionDates += times(p, line, &item)
                } else {
                    item.recurrenceDates += times(p, line, &item)
                }
            case "CATEGORIES":
                guard complete else { continue }
                item.categories += ContentLineSyntax.splitTextList(p.value)
                extraParameters(p, keeping: [], into: &item)
            case "COLOR":
                if first, let c = try? ItemColor.named(p.value.trimmedValue) {
                    if item.color == nil { item.color = c }
                    extraParameters(p, keeping: [], into: &item)
                } else {
                    if first { report(.warning, line, .invalidValue, "COLOR ‘\(p.value)’ is not a CSS3 colour name (RFC 7986); it was kept as written") }
                    kept.append(p.line)
                }
            case "X-HORARI-COLOR":
                if first, let rgb = ItemColor.RGB(hex: p.value.trimmedValue) { item.color = ItemColor(rgb: rgb) } else { kept.append(p.line) }
            case "CLASS" where p.value.trimmedValue.isEmpty:
                // Google writes `CLASS:`; RFC 5545 (§3.8.1.3) gives CLASS a
                // value, and an item without one is PUBLIC. Said once here,
                // left out, so that what we write is valid.
                report(.warning, line, .invalidValue, "CLASS has no value (RFC 5545 §3.8.1.3: PUBLIC, PRIVATE or CONFIDENTIAL; none means PUBLIC); it was left out")
            default:
                kept.append(p.line)
            }
        }
        if complete {
            item.properties = ContentLines(kept)
            if !node.children.isEmpty { item.components = node.children.map(\.contentComponent) }
        }
        if let (line, value) = duration {
            if let (d, negative) = DurationValue.parse(Substring(value)) {
                if negative {
                    report(.error, line, .invalidValue, "DURATION is negative; it was ignored")
                } else if d.days > 3_660_000 {
                    report(.error, line, .invalidValue, "DURATION lasts \(d.days / 365) years, past the year 9999 that iCalendar can write; it was ignored")
                } else if endAt != nil {
                    report(.error, line, .invalidValue, "both \(kind == .task ? "DUE" : "DTEND") and DURATION are given (RFC 5545 allows one); the end was used and DURATION ignored")
                } else {
                    item.end = .duration(d)
                }
            } else {
                report(.error, line, .invalidValue, "DURATION ‘\(value.prefix(40))’ is not a duration such as PT1H30M or P2D (RFC 5545 §3.3.6); it was ignored")
            }
        }
        if let endAt { item.end = .at(endAt) }

        // UID.
        if let uid = textValue("UID"), !uid.isEmpty {
            item.uid = uid
        } else {
            item.uid = generatedUID(for: Self.libicalText(lines, malformed: malformed))
            report(.warning, node.line, .missingProperty, "this \(node.name) has no UID; it was given ‘\(item.uid)’, derived from its content so the same file always gets the same one")
        }
        if item.timestamp == nil {
            item.timestamp = item.lastModified ?? created
            report(.warning, node.line, .missingProperty, "this \(node.name) (UID \(item.uid)) has no DTSTAMP\(item.timestamp == nil ? "; one is written on export" : "; its \(item.lastModified != nil ? "LAST-MODIFIED" : "CREATED") is used")")
        }
        // Start.
        if let start {
            item.start = start
        } else if kind == .task, case .at(let due)? = item.end {
            item.start = due
            item.hasStart = false
        } else if let recurrenceID, !failed {
            item.start = recurrenceID
            item.hasStart = false
        } else {
            if kind == .task && !failed {
                report(.warning, node.line, .missingProperty, "the task ‘\(item.title)’ has neither DTSTART nor DUE, so it has no place on a calendar; it was kept as written")
                calendar.components.append(node.contentComponent)
            } else {
                report(.error, node.line, .missingProperty, "this \(node.name) (UID \(item.uid)) has no usable DTSTART; it was kept as written but is not shown")
                calendar.rejected.append(node.contentComponent)
            }
            return
        }
        // RFC 5545 §3.3.10: UNTIL must be a date when DTSTART is one, and a
        // date-time when it is one. Real files get this wrong both ways.
        for i in item.recurrenceRules.indices {
            guard let until = item.recurrenceRules[i].until else { continue }
            let line = node.first("RRULE")?.1 ?? node.line
            if case .zoned(_, let zone) = item.start, case .floating = until {
                // A wall-clock UNTIL under a TZID (Google writes these): compared
                // on the series' clock, as the peers do; the export writes its instant.
                report(.warning, line, .invalidValue, "RRULE UNTIL=\(until.icalValue) is not in UTC but DTSTART is in \(zone) (RFC 5545 wants a UTC date-time ending in Z); read on \(zone)'s clock, as other calendars read it")
                continue
            }
            guard until.isDate != item.start.isDate else { continue }
            if item.start.isDate {
                // A date-time UNTIL on an all-day series: its date, which is what
                // the peers compare (and what an all-day rule can hold).
                let repaired = CalendarTime.date(until.localDate)
                report(.warning, line, .invalidValue, "RRULE UNTIL=\(until.icalValue) is not the same kind of value as DTSTART \(item.start.icalValue); read as UNTIL=\(repaired.icalValue)")
                item.recurrenceRules[i].until = repaired
            } else {
                // A date UNTIL on a timed series is kept as written: the recurrence
                // engine reads it as the start of that day on the series' clock,
                // as dateutil, recurring-ical-events and libical do, and the
                // export writes back what the file said.
                report(.warning, line, .invalidValue, "RRULE UNTIL=\(until.icalValue) is a date but DTSTART \(item.start.icalValue) has a time (RFC 5545 wants \(item.start.zoneIdentifier != nil ? "a UTC date-time" : "a date-time")); read as the start of \(until.localDate), so that day is not included, as other calendars read it")
            }
        }
        if case .at(let e) = item.end {
            if e.isDate != item.start.isDate {
                report(.warning, node.first(kind == .task ? "DUE" : "DTEND")?.1 ?? node.line, .invalidValue, "the end \(e) and the start \(item.start) are not both dates or both date-times")
            } else if let a = try? item.start.epochSeconds(floatingIn: .utc, zones: calendar.zones), let b = try? e.epochSeconds(floatingIn: .utc, zones: calendar.zones), b < a {
                report(.error, node.first(kind == .task ? "DUE" : "DTEND")?.1 ?? node.line, .invalidValue, "the end \(e) is before the start \(item.start); the item is imported as written, fix its end")
            }
        }
        if let recurrenceID {
            if libical != nil { checks[ticket].place = .override(pending.count) }
            pending.append(PendingItem(item: item, recurrenceID: recurrenceID, thisAndFuture: thisAndFuture, line: node.line, raw: node.contentComponent))
        } else if let i = masterIndex.position(of: item.uid, in: calendar.items) {
            // Two versions of one item, as files that keep an item's history
            // hold (recurring-ical-events' issue_148): the newer one — higher
            // SEQUENCE (RFC 5545 §3.8.7.4, RFC 5546 §2.1.4), then LAST-MODIFIED,
            // then DTSTAMP, as a sync decides — is the item; the other is kept
            // as written but not shown. Equal versions: the first stays.
            let old = calendar.items[i]
            if ICalendar.compareVersions(item, old) == .orderedDescending {
                report(.warning, node.line, .duplicate, "a second \(node.name) with UID \(item.uid) is a newer version (SEQUENCE \(item.sequence) over \(old.sequence)); it replaces the earlier one, which was kept as written but not shown")
                calendar.rejected.append(contentsOf: Self.components(ICalendarExporter().itemText(old, zones: calendar.zones), options: options))
                if libical != nil {
                    if let k = checks.firstIndex(where: { if case .master(i) = $0.place { true } else { false } }) { checks[k].place = .none }
                    checks[ticket].place = .master(i)
                }
                calendar.items[i] = item
            } else {
                report(.error, node.line, .duplicate, "a second item with UID \(item.uid), not newer than the first (SEQUENCE \(item.sequence)); it was kept as written but not shown (give it its own UID, or a higher SEQUENCE if it is a newer version)")
                calendar.rejected.append(node.contentComponent)
            }
        } else {
            if libical != nil { checks[ticket].place = .master(calendar.items.count) }
            masterIndex.insert(item.uid, at: calendar.items.count)
            calendar.items.append(item)
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
                end = .at(e)
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
    private mutating func time(_ p: ParsedLine, _ line: Int, _ item: inout CalendarItem) -> CalendarTime? {
        times(p, line, &item, single: true).first
    }

    private mutating func times(_ p: ParsedLine, _ line: Int, _ item: inout CalendarItem, single: Bool = false) -> [CalendarTime] {
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
                report(.error, line, .invalidValue, "\(p.name) ‘\(value)’ cannot be read: \(error.message)")
            }
        }
        return out
    }

    // MARK: Finishing

    mutating func finish() -> ImportResult {
        calendar.properties.append(contentsOf: calendarLines)
        applyLibICalOutcomes()
        // TZIDs that are not exact IANA names: the file's VTIMEZONE defines
        // them; without one, a name the time model resolves (Windows, another
        // letter case) becomes that IANA name; anything else is read as
        // floating (as icalendar does), keeping the TZID as an extra parameter
        // so that export writes it back.
        var zones: [String: String?] = [:]
        for (tzid, line) in unresolvedTZIDs.sorted(by: { $0.value < $1.value }) where !definedTZIDs.contains(tzid) {
            if let iana = ZoneRules.ianaIdentifier(forTZID: tzid), (try? ZoneRules.named(iana)) != nil {
                zones[tzid] = .some(iana)
            } else {
                zones[tzid] = .some(nil)
                report(.warning, line, .unknownTimeZone, "the TZID ‘\(tzid)’ is not a known zone and the file has no VTIMEZONE for it; its times are read as floating (local) times")
            }
        }
        for (tzid, iana) in ianaEquivalentsOfDefinedZones() {
            zones[tzid] = .some(iana)
        }
        if !zones.isEmpty {
            for i in calendar.items.indices {
                calendar.items[i] = calendar.items[i].rezoned(zones)
            }
            for i in pending.indices {
                pending[i].item = pending[i].item.rezoned(zones)
                if let rid = pending[i].recurrenceID {
                    pending[i].recurrenceID = rid.rezoned(zones)
                    pending[i].item.noteFloating("RECURRENCE-ID", rid, zones)
                }
            }
        }
        // Changed instances join their masters.
        var index = masterIndex
        /// The as-written text of each override in place, by UID and recurrence ID.
        var placedRaw: [Occurrence.ID: ContentComponent] = [:]
        for p in pending {
            guard let rid = p.recurrenceID else { continue }
            let cancelled = p.item.status == .cancelled
            let o = RecurrenceOverride(recurrenceID: rid, thisAndFuture: p.thisAndFuture, item: p.item, isCancelled: cancelled)
            if let i = index.position(of: p.item.uid, in: calendar.items) {
                // An instance is the same kind of component as its series
                // (RFC 5545 §3.8.4.4 names "the specific instance of a
                // recurring VEVENT, VTODO or VJOURNAL"): a VTODO cannot change
                // a VEVENT's instance, nor the other way round (fuzzing: one
                // was written back as a VEVENT with DUE, read again as DTEND).
                if calendar.items[i].kind != p.item.kind {
                    func name(_ k: CalendarItem.Kind) -> String { k == .task ? "VTODO" : "VEVENT" }
                    report(.error, p.line, .duplicate, "a \(name(p.item.kind)) changes the instance \(rid) of UID \(p.item.uid), whose series is a \(name(calendar.items[i].kind)); an instance must be the same kind of component as its series, so this one was kept as written and not applied")
                    calendar.rejected.append(p.raw)
                    continue
                }
                if calendar.items[i].hasMaster, p.item.sequence < calendar.items[i].sequence, !Self.produces(calendar.items[i], rid, zones: calendar.zones) {
                    // The series was revised after this change (a higher SEQUENCE,
                    // RFC 5546 §2.1.4) and no longer has the instance — excluded or
                    // cut off (recurring-ical-events' issue_163, issue_253): the
                    // change is superseded. Kept as written, not shown.
                    report(.warning, p.line, .orphanOverride, "the changed instance \(rid) of UID \(p.item.uid) (SEQUENCE \(p.item.sequence)) is older than its series (SEQUENCE \(calendar.items[i].sequence)), which no longer has that instance; it was kept as written but not shown")
                    calendar.rejected.append(p.raw)
                    continue
                }
                if let same = calendar.items[i].overrides.firstIndex(where: { $0.recurrenceID == rid }) {
                    let old = calendar.items[i].overrides[same]
                    report(.error, p.line, .duplicate, "a second change to the instance \(rid) of UID \(p.item.uid); the one with the higher SEQUENCE was kept, the other kept as written")
                    let key = Occurrence.ID(uid: p.item.uid, recurrenceID: rid)
                    let loser: ContentComponent?
                    if p.item.sequence > old.item.sequence {
                        calendar.items[i].overrides[same] = o
                        loser = placedRaw[key]
                        placedRaw[key] = p.raw
                    } else {
                        loser = p.raw
                    }
                    if let loser { calendar.rejected.append(loser) }
                    continue
                }
                calendar.items[i].overrides.append(o)
                placedRaw[Occurrence.ID(uid: p.item.uid, recurrenceID: rid)] = p.raw
            } else {
                // Valid: RFC 4791 §4.1 and RFC 6638 let a calendar object hold only
                // the instances an attendee was invited to. A note, not a warning.
                report(.note, p.line, .orphanOverride, "the changed instance \(rid) of UID \(p.item.uid) has no series master in this file (as an invitation to one instance has); it is shown on its own")
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
        // A master-less series: its instances are its overrides' recurrence IDs.
        for i in calendar.items.indices where !calendar.items[i].hasMaster {
            let ids = calendar.items[i].overrides.map(\.recurrenceID)
            if let first = ids.first {
                calendar.items[i].start = first
                calendar.items[i].recurrenceDates = Array(ids.dropFirst())
            }
        }
        diagnostics.sort { ($0.line, $0.severity == .error ? 1 : 0) < ($1.line, $1.severity == .error ? 1 : 0) }
        return ImportResult(calendar: calendar, diagnostics: diagnostics)
    }
}

extension ImportSession {
    /// The file's `VTIMEZONE`s under a name that stands for an IANA zone
    /// (Exchange's and Outlook's Windows names, `GMT Standard Time`) whose
    /// rules are that zone's wherever the calendar uses them: each is read
    /// as the IANA zone, and its definition is dropped, so that the export
    /// names the zone every client knows (with the tz database's own
    /// `VTIMEZONE`). The comparison runs from the earliest time in the zone
    /// to 2150: Exchange writes today's rule from 1601, which differs from
    /// the IANA zone's history but not where the events are. A definition
    /// that differs there is the file's own zone (RFC 5545 §3.2.19) and is kept.
    mutating func ianaEquivalentsOfDefinedZones() -> [String: String] {
        var candidates: [String: (iana: String, own: ZoneRules, system: ZoneRules)] = [:]
        for tzid in definedTZIDs {
            guard let iana = ZoneRules.ianaIdentifier(forTZID: tzid), iana != tzid, let own = calendar.zones[tzid],
                  let system = try? ZoneRules.named(iana) else { continue }
            candidates[tzid] = (iana, own, system)
        }
        guard !candidates.isEmpty else { return [:] }
        var earliest: [String: Int64] = [:]
        func use(_ t: CalendarTime?) {
            guard case .zoned(let wall, let z)? = t, candidates[z] != nil else { return }
            earliest[z] = min(earliest[z] ?? .max, wall.localSeconds)
        }
        func useAll(_ item: CalendarItem) {
            use(item.start)
            if case .at(let e) = item.end { use(e) }
            item.recurrenceDates.forEach(use)
            item.exceptionDates.forEach(use)
        }
        calendar.items.forEach(useAll)
        for p in pending {
            useAll(p.item)
            use(p.recurrenceID)
        }
        var out: [String: String] = [:]
        for (tzid, c) in candidates {
            guard let first = earliest[tzid] else { continue }
            let from = first - 86_400, to = VTimeZone.horizon
            let same = c.own.offset(atInstant: from) == c.system.offset(atInstant: from)
                && c.own.transitions(from: from, to: to).map { [$0.instant, Int64($0.offsetAfter)] }
                == c.system.transitions(from: from, to: to).map { [$0.instant, Int64($0.offsetAfter)] }
            guard same else { continue }
            out[tzid] = c.iana
            calendar.zones[tzid] = nil
            calendar.timeZoneDefinitions.removeAll { $0.properties.first { $0.name == "TZID" }?.value.trimmedValue == tzid }
        }
        return out
    }

    /// Reports libical's findings, and rejects (as written) the items libical could not read at all.
    private mutating func applyLibICalOutcomes() {
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
    }

    /// Whether a series (without its changed instances) has an instance with this recurrence ID.
    static func produces(_ series: CalendarItem, _ id: CalendarTime, zones: ZoneTable) -> Bool {
        guard let t = try? id.epochSeconds(floatingIn: .utc, zones: zones) else { return true }
        guard let set = series.recurrenceSet else { return (try? series.start.epochSeconds(floatingIn: .utc, zones: zones)) == t }
        let around = (Date(timeIntervalSince1970: TimeInterval(t - 86_400)), Date(timeIntervalSince1970: TimeInterval(t + 86_400)))
        guard let instances = try? set.instances(from: around.0, to: around.1, floatingZone: .utc, zones: zones) else { return true }
        return instances.contains { (try? $0.recurrenceID.epochSeconds(floatingIn: .utc, zones: zones)) == t }
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

    /// The zone name to use for a TZID that needs no VTIMEZONE: an exact
    /// IANA name, UTC, or an exact IANA name behind quotes or a vendor prefix
    /// (`/mozilla.org/20070129_1/Europe/Berlin`). Other names resolve later.
    static func systemName(_ tzid: String) -> String? {
        // Through `ZoneRules`, which asks the system's tz files before ICU
        // (ICU's zone tables cost 2 MB of a process on the first question).
        guard let iana = ZoneRules.ianaIdentifier(forTZID: tzid) else { return nil }
        if iana == tzid { return tzid }
        var name = tzid.trimmedValue
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
        return name == iana || name.hasSuffix("/" + iana) || ZoneRules.utcNames.contains(iana) ? iana : nil
    }
}

extension CalendarTime {
    /// This time with its zone renamed (`.some(name)`) or made floating (`.some(nil)`).
    func rezoned(_ zones: [String: String?]) -> CalendarTime {
        guard case .zoned(let wall, let z) = self, let change = zones[z] else { return self }
        if let name = change { return .zoned(wall, name) }
        return .floating(wall)
    }
}

extension CalendarItem {
    /// Records an unknown TZID of a property that became floating, as the
    /// parameter `X-HORARI-TZID`, so export keeps it without being invalid.
    mutating func noteFloating(_ property: String, _ t: CalendarTime?, _ zones: [String: String?]) {
        guard case .zoned(_, let z)? = t, case .some(nil) = zones[z] else { return }
        // Not `TZID`: a TZID with no VTIMEZONE is invalid RFC 5545 (§3.2.19).
        var params = extraParameters[property] ?? []
        if !params.contains(where: { $0.name == "X-HORARI-TZID" }) { params.insert(.init(name: "X-HORARI-TZID", values: [z]), at: 0) }
        extraParameters[property] = params
    }

    /// The item with its zones renamed or made floating (see ``CalendarTime/rezoned(_:)``),
    /// an unknown TZID noted on each property that held one.
    func rezoned(_ zones: [String: String?]) -> CalendarItem {
        var noted = self
        noted.noteFloating("DTSTART", start, zones)
        if case .at(let e) = end { noted.noteFloating(kind == .task ? "DUE" : "DTEND", e, zones) }
        noted.noteFloating("RDATE", recurrenceDates.first, zones)
        noted.noteFloating("EXDATE", exceptionDates.first, zones)
        for i in noted.overrides.indices {
            noted.overrides[i].item.noteFloating("RECURRENCE-ID", overrides[i].recurrenceID, zones)
            noted.overrides[i].item = noted.overrides[i].item.rezonedNotes(zones)
        }
        return noted.mappingTimes(includingUntil: true) { $0.rezoned(zones) }
    }

    /// The notes of ``rezoned(_:)`` on an override's own properties, without moving times.
    private func rezonedNotes(_ zones: [String: String?]) -> CalendarItem {
        var noted = self
        noted.noteFloating("DTSTART", start, zones)
        if case .at(let e) = end { noted.noteFloating(kind == .task ? "DUE" : "DTEND", e, zones) }
        return noted
    }
}
