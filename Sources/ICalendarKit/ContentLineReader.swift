import CalendarCore
import Foundation

/// One unfolded content line and the physical line it starts on.
struct RawLine {
    /// The bytes, unfolded, without the line break.
    var bytes: [UInt8]
    /// 1-based physical line number where the content line starts.
    var number: Int
    /// Whether the line was longer than the limit and was cut.
    var truncated: Bool
    /// How many control characters were removed from it (see ``ContentLineReader/next()``).
    var controlCharactersRemoved = 0
}

/// Splits iCalendar bytes into unfolded content lines (RFC 5545 §3.1),
/// streaming: only the current line and a bounded read buffer are held.
///
/// Line breaks may be CRLF or a bare LF (files edited on Unix); a line
/// starting with a space or a tab continues the previous one.
///
/// A file whose first line ends in a bare CR (classic Mac OS wrote every line
/// so) is read with a bare CR as a line break as well: CR, LF and CRLF each end
/// a line there. Read otherwise it is one line, every CR in it a control
/// character to remove, and its components run together
/// (`BEGIN:VCALENDARVERSION:2.0PRODID:…`). In any other file a bare CR stays
/// what it was, a control character inside a line (removed and reported).
/// ``ICalendarOutline`` reads CRLF alone and gives no outline of such a file,
/// so a change to it rewrites it whole, from these lines.
struct ContentLineReader {
    /// What ends a line in this input, decided by its first line break.
    private enum Breaks {
        /// No line break seen yet.
        case undecided
        /// LF, with or without a CR before it (a bare CR is a control character).
        case lineFeed
        /// CR, LF or CRLF (the first line ended in a bare CR).
        case any
    }

    private var buffer: [UInt8]
    private var position = 0
    private var breaks = Breaks.undecided
    private var finished: Bool
    private var physicalLine = 0
    private let refill: (() throws -> [UInt8]?)?
    private let maxLineBytes: Int

    /// Reads lines from bytes already in memory.
    init(bytes: [UInt8], maxLineBytes: Int) {
        buffer = bytes
        finished = true
        refill = nil
        self.maxLineBytes = maxLineBytes
        skipByteOrderMark()
    }

    /// Reads lines from a source that hands out blocks until it returns `nil`.
    init(maxLineBytes: Int, refill: @escaping () throws -> [UInt8]?) {
        buffer = []
        finished = false
        self.refill = refill
        self.maxLineBytes = maxLineBytes
    }

    private var skippedBOM = false

    private mutating func skipByteOrderMark() {
        skippedBOM = true
        if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { position = 3 }
    }

    /// Makes at least one more byte available; `false` at the end of input.
    private mutating func fill() throws -> Bool {
        if position < buffer.count { return true }
        while !finished {
            guard let block = try refill?() else {
                finished = true
                break
            }
            if block.isEmpty { continue }
            // Drop what has been consumed before appending.
            if position > 0 {
                buffer.removeFirst(position)
                position = 0
            }
            buffer.append(contentsOf: block)
            if !skippedBOM { skipByteOrderMark() }
            if position < buffer.count { return true }
        }
        return position < buffer.count
    }

    /// Appends the physical line at `position` to `line` (up to the limit) and
    /// moves past its line break. `false` when there is no more input.
    private mutating func readPhysical(into line: inout RawLine, skipFirst: Bool) throws -> Bool {
        guard try fill() else { return false }
        physicalLine += 1
        if skipFirst { position += 1 }
        while true {
            let start = position
            let end = buffer.count
            let lineFeedOnly = breaks == .lineFeed
            let newline: Int? = buffer.withUnsafeBufferPointer { p -> Int? in
                guard start < end, let base = p.baseAddress else { return nil }
                let lf = memchr(base + start, 0x0A, end - start).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) }
                if lineFeedOnly { return lf }
                let cr = memchr(base + start, 0x0D, (lf ?? end) - start).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) }
                return cr ?? lf
            }
            let stop = newline ?? end
            append(buffer[start..<stop], to: &line)
            if let newline {
                guard buffer[newline] == 0x0D else {
                    if breaks == .undecided { breaks = .lineFeed }
                    position = newline + 1
                    if line.bytes.last == 0x0D { line.bytes.removeLast() }
                    return true
                }
                // A CR: a line break of its own, or the first half of a CRLF.
                // (`more()` keeps what the buffer holds, so `newline` stays valid.)
                if newline + 1 == buffer.count { _ = try more() }
                if newline + 1 < buffer.count, buffer[newline + 1] == 0x0A {
                    if breaks == .undecided { breaks = .lineFeed }
                    position = newline + 2
                    return true
                }
                // A bare CR (only searched for while undecided or in a CR file).
                breaks = .any
                position = newline + 1
                return true
            }
            position = end
            guard try fill() else { return true }
        }
    }

    private func append(_ bytes: ArraySlice<UInt8>, to line: inout RawLine) {
        let room = maxLineBytes - line.bytes.count
        if bytes.count <= room {
            line.bytes.append(contentsOf: bytes)
        } else {
            if room > 0 { line.bytes.append(contentsOf: bytes.prefix(room)) }
            line.truncated = true
        }
    }

    /// Whether the next physical line continues the current one: it starts
    /// with a space or tab, possibly after blank lines (which are skipped).
    private mutating func continuationFollows() throws -> Bool {
        guard try fill() else { return false }
        var probe = position
        var blanks = 0
        while true {
            while probe >= buffer.count {
                guard try more() else { return false }
            }
            let b = buffer[probe]
            if b == 0x20 || b == 0x09 {
                if blanks > 0 {
                    position = probe
                    physicalLine += blanks
                }
                return true
            }
            if b == 0x0A {
                // After a CR that ended a blank line, the LF is the same break.
                if !(breaks == .any && probe > position && buffer[probe - 1] == 0x0D) { blanks += 1 }
                probe += 1
            } else if b == 0x0D {
                if breaks == .any { blanks += 1 }
                probe += 1
            } else {
                return false
            }
        }
    }

    /// Appends another block without dropping anything; `false` at the end.
    private mutating func more() throws -> Bool {
        guard !finished, let block = try refill?() else {
            finished = true
            return false
        }
        buffer.append(contentsOf: block)
        return true
    }

    /// The next unfolded content line, or `nil` at the end. Empty lines are skipped.
    mutating func next() throws -> RawLine? {
        while true {
            var line = RawLine(bytes: [], number: physicalLine + 1, truncated: false)
            guard try readPhysical(into: &line, skipFirst: false) else { return nil }
            // Continuation lines (some writers put blank lines between the parts).
            while try continuationFollows() {
                if line.bytes.last == 0x0D { line.bytes.removeLast() }
                _ = try readPhysical(into: &line, skipFirst: true)
            }
            if line.bytes.last == 0x0D { line.bytes.removeLast() }
            Self.removeControlCharacters(&line)
            if line.bytes.isEmpty && !line.truncated { continue }
            return line
        }
    }
}

extension ContentLineReader {
    /// Removes the control characters RFC 5545 §3.1 does not allow in a
    /// content line (all of U+0000–U+001F but the tab, and U+007F).
    ///
    /// Found by fuzzing: a carriage return inside a value was written back
    /// as it was, and the next import read it as part of a line break where
    /// the writer had folded the line, so the value changed on every round
    /// trip. A line break inside a value is written `\n`; a bare control
    /// character carries nothing a calendar can show. The importer reports
    /// each line that lost some.
    static func removeControlCharacters(_ line: inout RawLine) {
        let found = line.bytes.withUnsafeBufferPointer { p in p.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F } }
        guard found else { return }
        let before = line.bytes.count
        line.bytes.removeAll { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
        line.controlCharactersRemoved = before - line.bytes.count
    }
}

/// The parameters the importer models (`TZID`, `VALUE`, `RANGE`) a line
/// has, and whether it has any other: noted as the line is parsed, so that
/// the usual line is asked about its parameters without reading them again.
struct ParameterNames: OptionSet {
    let rawValue: UInt8
    static let tzid = ParameterNames(rawValue: 1)
    static let value = ParameterNames(rawValue: 2)
    static let range = ParameterNames(rawValue: 4)
    /// Any parameter but those three.
    static let other = ParameterNames(rawValue: 8)

    /// The flag of one parameter name (upper case, or the bytes as written, in any case).
    init(name: some Collection<UInt8>) {
        func equals(_ word: StaticString) -> Bool {
            guard name.count == word.utf8CodeUnitCount else { return false }
            return zip(name, UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)).allSatisfy { $0 & 0xDF == $1 }
        }
        self = equals("TZID") ? .tzid : equals("VALUE") ? .value : equals("RANGE") ? .range : .other
    }

    init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The flags of a line's parameters.
    init(_ parameters: [ContentLine.Parameter]) {
        self = parameters.reduce(into: []) { $0.insert(ParameterNames(name: $1.name.utf8)) }
    }
}

/// A content line as the importer reads it: its name (read once, as the
/// importer switches on it) and the line in canonical form.
struct ParsedLine {
    var name: String
    var line: ContentLine {
        didSet {
            valueOffset = nil
            hasParameters = line.hasParameters
            parameterNames = ParameterNames(line.parameters)
        }
    }
    /// Where the value starts in the line's text, as `parse` found it (`nil` once the line is changed).
    private var valueOffset: Int?
    /// Whether the line has parameters, as `parse` found it.
    private(set) var hasParameters: Bool
    /// Which parameters it has, as `parse` found them.
    private(set) var parameterNames: ParameterNames

    init(name: String, line: ContentLine, valueOffset: Int?, parameterNames: ParameterNames) {
        self.name = name
        self.line = line
        self.valueOffset = valueOffset
        self.hasParameters = !parameterNames.isEmpty
        self.parameterNames = parameterNames
    }

    /// The value as written.
    var value: String { String(valueText) }
    /// The value as written, without a copy.
    var valueText: Substring {
        guard let valueOffset else { return line.valueText }
        let u = line.text.utf8
        return line.text[u.index(u.startIndex, offsetBy: valueOffset)...]
    }

    /// The parameters (read from the line; most lines have none).
    var parameters: [ContentLine.Parameter] { hasParameters ? line.parameters : [] }

    /// The first value of the parameter `name`; the line's text is read only
    /// when it has such a parameter (or one the importer does not model).
    func parameter(_ name: String) -> String? {
        let flag = ParameterNames(name: name.utf8)
        return parameterNames.contains(flag) ? line.parameter(name) : nil
    }
}

enum ContentLineSyntax {
    /// Why a line could not be split.
    enum Problem: Error { case noColon, emptyName, badName(String), badParameter(String) }

    /// Checks `name *(";" param) ":" value` (RFC 5545 §3.1) and makes the
    /// ``ContentLine``: names upper case, a parameter value quoted exactly
    /// when it needs to be, the value as written.
    ///
    /// Most lines are already written that way, and their bytes become the
    /// line's text as they are: one string, nothing else. Only a line written
    /// otherwise (a lower-case name, quotes a value does not need) is split
    /// into its parts and written afresh.
    static func parse(_ bytes: [UInt8]) -> Result<ParsedLine, Problem> {
        let n = bytes.count
        var i = 0
        while i < n, bytes[i] != 0x3B, bytes[i] != 0x3A { i += 1 }
        guard i < n else { return .failure(.noColon) }
        let name = upper(bytes[0..<i])
        guard !name.isEmpty else { return .failure(.emptyName) }
        // RFC 5545 §3.1: names are letters, digits and '-'.
        var canonical = true
        for b in bytes[0..<i] {
            if b >= 0x61 && b <= 0x7A { canonical = false; continue }
            if !(b == 0x2D || (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A)) { return .failure(.badName(name)) }
        }
        let nameEnd = i
        var names: ParameterNames = []
        while i < n, bytes[i] == 0x3B {
            i += 1
            let nameStart = i
            while i < n, bytes[i] != 0x3D, bytes[i] != 0x3A, bytes[i] != 0x3B {
                if bytes[i] >= 0x61 && bytes[i] <= 0x7A { canonical = false }
                i += 1
            }
            guard i < n, bytes[i] == 0x3D, i > nameStart else { return .failure(.badParameter(upper(bytes[nameStart..<i]))) }
            let pname = bytes[nameStart..<i]
            names.insert(ParameterNames(name: pname))
            i += 1
            while true {
                if i < n, bytes[i] == 0x22 {
                    let s = i + 1
                    i = s
                    while i < n, bytes[i] != 0x22 { i += 1 }
                    guard i < n else { return .failure(.badParameter(upper(pname))) }
                    // Quotes the value does not need: the canonical form has none.
                    if !ContentLine.needsQuotes(bytes[s..<i]) { canonical = false }
                    i += 1
                } else {
                    while i < n, bytes[i] != 0x2C, bytes[i] != 0x3B, bytes[i] != 0x3A {
                        if bytes[i] == 0x22 { canonical = false }  // stored as '
                        i += 1
                    }
                }
                if i < n, bytes[i] == 0x2C { i += 1; continue }
                break
            }
        }
        guard i < n, bytes[i] == 0x3A else { return .failure(.noColon) }
        if canonical {
            let line = ContentLine(canonicalText: text(bytes[...]))
            // The offset holds unless invalid UTF-8 was repaired (U+FFFD is three bytes).
            return .success(ParsedLine(name: name, line: line, valueOffset: line.text.utf8.count == n ? i + 1 : nil, parameterNames: names))
        }
        let line = ContentLine(name: name, parameters: splitParameters(bytes[nameEnd..<i]), value: text(bytes[(i + 1)...]))
        return .success(ParsedLine(name: name, line: line, valueOffset: nil, parameterNames: names))
    }

    /// The parameters of `;NAME=value…` that ``parse(_:)`` has found well formed, split into names and values.
    private static func splitParameters(_ bytes: ArraySlice<UInt8>) -> [ContentLine.Parameter] {
        var parameters: [ContentLine.Parameter] = []
        var i = bytes.startIndex
        let n = bytes.endIndex
        while i < n, bytes[i] == 0x3B {
            i += 1
            let nameStart = i
            while i < n, bytes[i] != 0x3D { i += 1 }
            let pname = upper(bytes[nameStart..<i])
            i += 1
            var values: [String] = []
            while true {
                if i < n, bytes[i] == 0x22 {
                    let s = i + 1
                    i = s
                    while i < n, bytes[i] != 0x22 { i += 1 }
                    values.append(text(bytes[s..<i]))
                    i += 1
                } else {
                    let s = i
                    while i < n, bytes[i] != 0x2C, bytes[i] != 0x3B { i += 1 }
                    values.append(text(bytes[s..<i]))
                }
                if i < n, bytes[i] == 0x2C { i += 1; continue }
                break
            }
            parameters.append(.init(name: pname, values: values))
        }
        return parameters
    }

    /// The property name of a line (upper case), without parsing the rest.
    static func name(_ bytes: [UInt8]) -> String {
        var i = 0
        while i < bytes.count, bytes[i] != 0x3B, bytes[i] != 0x3A { i += 1 }
        return upper(bytes[0..<i])
    }

    /// Whether a line that is not a boundary is named `BEGIN` or `END` (with
    /// parameters, say): cheap for the other lines, which start otherwise.
    static func isNamedLikeBoundary(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first, first | 0x20 == 0x62 || first | 0x20 == 0x65 else { return false }
        let n = name(bytes)
        return n == "BEGIN" || n == "END"
    }

    /// For `BEGIN:X` / `END:X` lines, the marker and the component name.
    static func boundary(_ bytes: [UInt8]) -> (begin: Bool, name: String)? {
        func hasPrefix(_ p: StaticString) -> Bool {
            let count = p.utf8CodeUnitCount
            guard bytes.count >= count else { return false }
            let ptr = p.utf8Start
            for k in 0..<count where bytes[k] & 0xDF != ptr[k] & 0xDF { return false }
            return true
        }
        if hasPrefix("BEGIN:") { return (true, upper(bytes[6...]).trimmedValue) }
        if hasPrefix("END:") { return (false, upper(bytes[4...]).trimmedValue) }
        return nil
    }

    static func upper(_ bytes: ArraySlice<UInt8>) -> String {
        // Names are ASCII; written straight into the string (no array in between,
        // and no allocation at all for the usual names of up to 15 bytes).
        if bytes.allSatisfy({ $0 < 0x80 }) {
            return String(unsafeUninitializedCapacity: bytes.count) { out in
                for (k, b) in bytes.enumerated() { out[k] = b >= 0x61 && b <= 0x7A ? b - 0x20 : b }
                return bytes.count
            }
        }
        return String(decoding: bytes.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
    }

    static func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Whether the bytes are valid UTF-8 (fast for ASCII).
    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        if !bytes.contains(where: { $0 >= 0x80 }) { return true }
        return String(validating: bytes, as: UTF8.self) != nil
    }

    // MARK: TEXT values (RFC 5545 §3.3.11)

    /// Undoes TEXT escapes: `\\`, `\;`, `\,`, `\n`/`\N`.
    static func unescape(_ s: Substring) -> String { TextEscaping.unescape(s) }

    /// Splits a TEXT list at commas that are not escaped, and unescapes each item.
    static func splitTextList(_ s: String) -> [String] {
        var items: [String] = []
        var current = Substring(s).startIndex
        var i = current
        var escaping = false
        while i < s.endIndex {
            let c = s[i]
            if escaping {
                escaping = false
            } else if c == "\\" {
                escaping = true
            } else if c == "," {
                items.append(unescape(s[current..<i]))
                current = s.index(after: i)
            }
            i = s.index(after: i)
        }
        items.append(unescape(s[current...]))
        return items
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    var trimmedBlanks: Substring {
        var s = self
        while let f = s.utf8.first, f == 0x20 || f == 0x09 { s = s.dropFirst() }
        while let l = s.utf8.last, l == 0x20 || l == 0x09 { s = s.dropLast() }
        return s
    }
}

extension String {
    package var trimmedValue: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
