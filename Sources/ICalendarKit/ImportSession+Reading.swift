import CalendarCore
import Foundation

/// The line reader's state machine: where each content line goes.
///
/// Lines outside every component are noted once; the calendar's own lines go
/// to ``ImportSession/calendarProperty(_:)``; each top-level component's lines
/// are gathered as a *chunk* and handed to ``ImportSession/finishChunk(_:tooBig:tooDeep:)``
/// when its `END` comes, so only one component is held at a time. A lost `END`
/// is recovered where the text shows it: at the `END` of a component that
/// encloses it, or at the `BEGIN` of a component it cannot hold.
struct ComponentReader {
    /// The components open at this line, outermost first.
    var stack: [(name: String, line: Int)] = []
    /// The lines of the top-level component being read.
    var chunk: [RawLine] = []
    /// The stack depth at which the chunk's root sits; 0: no chunk.
    var chunkDepth = 0
    var chunkBytes = 0
    var chunkLines = 0
    var chunkTooBig = false
    var chunkTooDeep = false
    /// Top-level components seen, for ``ImportOptions/maxComponents``.
    var components = 0
    /// The first line of text outside `BEGIN:VCALENDAR … END:VCALENDAR`.
    var outsideTextLine: Int?

    var inChunk: Bool { chunkDepth > 0 }

    /// Starts gathering a top-level component's lines.
    mutating func startChunk(at depth: Int) {
        chunkDepth = depth
        chunk = []
        chunkLines = 0
        chunkBytes = 0
        chunkTooBig = false
        chunkTooDeep = false
    }
}

extension ImportSession {
    // MARK: Reading

    mutating func read(_ reader: inout ContentLineReader) throws {
        var state = ComponentReader()
        while let line = try reader.next() {
            guard let boundary = screen(line) else { continue }
            if let (begin, name) = boundary {
                if begin { try beginComponent(name, line, &state) } else { endComponent(name, line, &state) }
            } else if state.stack.isEmpty {
                if state.outsideTextLine == nil { state.outsideTextLine = line.number }
            } else if !state.inChunk {
                calendarProperty(line)
            } else {
                gather(line, &state)
            }
        }
        finishReading(&state)
    }

    /// A line's boundary (`BEGIN`/`END` and the name), `.some(nil)` for a
    /// content line, or `nil` for a line that is skipped: one cut at the line
    /// limit, or one shaped like a boundary but not one, reported.
    private mutating func screen(_ line: RawLine) -> (begin: Bool, name: String)?? {
        if line.controlCharactersRemoved > 0 {
            report(.warning, line.number, .malformedLine, "\(line.controlCharactersRemoved) control character\(line.controlCharactersRemoved == 1 ? " was" : "s were") removed from this line (RFC 5545 allows none but the tab; a line break in a text is written \\n)")
        }
        if line.truncated {
            report(.error, line.number, .lineTooLong, "this line is longer than \(options.maxLineBytes) bytes (ImportOptions.maxLineBytes); its property (\(ContentLineSyntax.name(line.bytes).prefix(40))) was not imported")
            return nil
        }
        let boundary = ContentLineSyntax.boundary(line.bytes)
        if boundary?.name.isEmpty ?? ContentLineSyntax.isNamedLikeBoundary(line.bytes) {
            // `END:` with no name, `BEGIN;X=1:VEVENT`: kept as a property, it was
            // written back as a line every other reader takes for a boundary
            // (and libical printed a warning on stderr). Found by fuzzing.
            let preview = String(decoding: line.bytes.prefix(60), as: UTF8.self)
            report(.error, line.number, .malformedLine, "‘\(preview)’ is not a component boundary (BEGIN:NAME or END:NAME, with no parameters); the line was skipped")
            return nil
        }
        return .some(boundary)
    }

    private mutating func beginComponent(_ name: String, _ line: RawLine, _ state: inout ComponentReader) throws {
        if state.stack.isEmpty, name == "VCALENDAR" {
            state.stack.append((name, line.number))
            sawCalendarData = true
            return
        }
        if state.stack.isEmpty {
            // Nothing is lost (`.other`, not `.unbalanced`): a bare event file imported whole
            // and then said part of it "could not be read", exit 1 (issue 41, 4).
            report(.warning, line.number, .other, "BEGIN:\(name) is outside any VCALENDAR; it is read as if it were inside one")
            sawCalendarData = true
        }
        // A calendar component cannot begin inside an event, a task, an
        // alarm…: the one left open lost its END (a misspelt `END:VTOOD`).
        // It is closed here, so that what follows is read as the calendar's,
        // not swallowed to the end of the file.
        while let open = state.stack.last, ComponentNesting.cannotContain(open.name, name) {
            report(.error, open.line, .unbalanced, "BEGIN:\(open.name) is never closed (BEGIN:\(name) on line \(line.number) cannot be inside a \(open.name)); it was closed there")
            if state.inChunk { state.chunk.append(RawLine(bytes: Array("END:\(open.name)".utf8), number: line.number, truncated: false)) }
            state.stack.removeLast()
            if state.inChunk, state.stack.count < state.chunkDepth { handOver(&state) }
        }
        state.stack.append((name, line.number))
        if !state.inChunk {
            state.components += 1
            if state.components > options.maxComponents {
                throw ICalendarError(.tooLarge, "line \(line.number): the calendar holds more than \(options.maxComponents) components (ImportOptions.maxComponents); nothing was imported. Raise the limit to read it whole")
            }
            state.startChunk(at: state.stack.count)
        }
        if state.stack.count - state.chunkDepth + 2 > options.maxDepth, !state.chunkTooDeep {
            state.chunkTooDeep = true
            let root = state.stack[state.chunkDepth - 1]
            report(.error, line.number, .tooDeep, "components are nested more than \(options.maxDepth) deep (ImportOptions.maxDepth); the \(root.name) starting on line \(root.line) was not imported")
        }
        gather(line, &state)  // the BEGIN line is the component's, and counts toward its limits
    }

    private mutating func endComponent(_ name: String, _ line: RawLine, _ state: inout ComponentReader) {
        guard let index = state.stack.lastIndex(where: { $0.name == name }) else {
            report(.error, line.number, .unbalanced, "END:\(name) has no matching BEGIN:\(name); the line was ignored")
            return
        }
        for open in state.stack[(index + 1)...].reversed() {
            report(.error, open.line, .unbalanced, "BEGIN:\(open.name) is never closed (END:\(name) on line \(line.number) closes its parent); it was closed there")
            if state.inChunk { state.chunk.append(RawLine(bytes: Array("END:\(open.name)".utf8), number: line.number, truncated: false)) }
        }
        if state.inChunk, index + 1 < state.chunkDepth {
            // The END closes something outside the chunk: the chunk ends here too.
            finishChunk(state.chunk, tooBig: state.chunkTooBig, tooDeep: state.chunkTooDeep)
            state.chunkDepth = 0
        }
        state.stack.removeSubrange(index...)
        if state.inChunk {
            state.chunk.append(line)
            if state.stack.count < state.chunkDepth { handOver(&state) }
        }
    }

    /// A line inside a component, gathered unless its component is over a limit.
    private mutating func gather(_ line: RawLine, _ state: inout ComponentReader) {
        state.chunkBytes += line.bytes.count + 2
        state.chunkLines += 1
        let root = state.stack[state.chunkDepth - 1]
        if state.chunkLines > options.maxPropertiesPerComponent, !state.chunkTooBig {
            state.chunkTooBig = true
            report(.error, root.line, .tooManyProperties, "the \(root.name) starting here has more than \(options.maxPropertiesPerComponent) lines (ImportOptions.maxPropertiesPerComponent); it was not imported")
        }
        if state.chunkBytes > options.maxComponentBytes, !state.chunkTooBig {
            state.chunkTooBig = true
            report(.error, root.line, .componentTooLarge, "the \(root.name) starting here is over \(options.maxComponentBytes) bytes (ImportOptions.maxComponentBytes); it was not imported")
        }
        if !state.chunkTooBig, !state.chunkTooDeep { state.chunk.append(line) }
    }

    /// Hands the gathered component over and starts afresh.
    private mutating func handOver(_ state: inout ComponentReader) {
        finishChunk(state.chunk, tooBig: state.chunkTooBig, tooDeep: state.chunkTooDeep)
        state.chunkDepth = 0
        state.chunk = []
    }

    /// The end of the text: a component still open was cut short.
    private mutating func finishReading(_ state: inout ComponentReader) {
        if let open = state.stack.last {
            report(.warning, open.line, .unbalanced, "the file ends inside BEGIN:\(open.name) (it was cut short?); what was complete was imported")
            if state.inChunk {
                for o in state.stack[(state.chunkDepth - 1)...].reversed() {
                    state.chunk.append(RawLine(bytes: Array("END:\(o.name)".utf8), number: o.line, truncated: false))
                }
                finishChunk(state.chunk, tooBig: state.chunkTooBig, tooDeep: state.chunkTooDeep)
            }
        }
        if let line = state.outsideTextLine, sawCalendarData {
            report(.warning, line, .malformedLine, "text outside BEGIN:VCALENDAR … END:VCALENDAR was ignored")
        }
    }

    mutating func finishChunk(_ lines: [RawLine], tooBig: Bool, tooDeep: Bool) {
        guard !tooBig, !tooDeep else { return }
        var index = 0
        var malformed: Set<Int> = []
        guard let node = buildTree(lines, &index, malformed: &malformed) else { return }
        switch node.name {
        case "VTIMEZONE": timeZone(node)
        case "VEVENT", "VTODO": item(node, lines, malformed: malformed)
        default:
            sourceLines.noteComponent(node)
            calendar.components.append(node.contentComponent)
        }
    }

    /// Builds the tree of the component whose BEGIN is `lines[index]`,
    /// adding the indices of lines that are not content lines to `malformed`.
    mutating func buildTree(_ lines: [RawLine], _ index: inout Int, malformed: inout Set<Int>) -> RawNode? {
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

    /// A property of the calendar itself (`X-WR-CALNAME`, `METHOD`…).
    mutating func calendarProperty(_ line: RawLine) {
        guard case .success(let p) = ContentLineSyntax.parse(line.bytes) else {
            report(.error, line.number, .malformedLine, "‘\(String(decoding: line.bytes.prefix(60), as: UTF8.self))’ is not a content line; it was skipped")
            return
        }
        sourceLines.noteCalendarProperty(p.name, line: line.number, value: p.value)
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
}
