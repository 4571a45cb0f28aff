import CalendarCore
import Foundation

// jCal read back into iCalendar text (RFC 7265 §4): every value checked
// against its type, and any mistake said with its line and column in the
// JSON, so a person can find it. Nothing is written until the whole
// document reads.

extension JCal {
    /// The iCalendar text of a jCal document: CRLF lines, unfolded (the
    /// importer reads them so), each value in the form its type takes in
    /// iCalendar.
    /// - Parameter data: a jCal document: one `vcalendar` array, or an array of them.
    /// - Throws: ``JCalError`` with the line and column of the first part
    ///   that is not jCal (JSON that does not parse, a property that is not
    ///   `[name, {parameters}, type, value…]`, a value that is not of its type).
    public static func iCalendarText(fromJSON data: Data) throws(JCalError) -> String {
        let bytes = [UInt8](data)
        var reader = JSONReader(bytes: bytes)
        let root: JSONReader.Value
        do { root = try reader.document() } catch { throw located(error, in: bytes) }
        var out = ""
        do throws(JSONReader.Failure) {
            guard case .array(let top) = root.kind else { throw JSONReader.Failure(at: root.offset, "a jCal document is an array: [\"vcalendar\", [properties], [components]]") }
            if case .string? = top.first?.kind {
                try component(root, into: &out)
            } else {
                guard !top.isEmpty else { throw JSONReader.Failure(at: root.offset, "the document holds no calendar; a jCal document is [\"vcalendar\", [properties], [components]]") }
                for calendar in top { try component(calendar, into: &out) }
            }
        } catch {
            throw located(error, in: bytes)
        }
        return out
    }

    /// A reader's failure at its line and column.
    private static func located(_ failure: JSONReader.Failure, in bytes: [UInt8]) -> JCalError {
        // Lines by their breaks; the column counted in characters, as an editor shows it.
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let upTo = bytes[min(start, failure.offset)..<min(failure.offset, bytes.count)]
        let line = 1 + upTo.lazy.filter { $0 == 0x0A }.count
        let lineStart = upTo.lastIndex(of: 0x0A).map { $0 + 1 } ?? upTo.startIndex
        let column = 1 + String(decoding: bytes[lineStart..<upTo.endIndex], as: UTF8.self).count
        return JCalError(line: line, column: column, message: failure.message)
    }

    private typealias Value = JSONReader.Value
    private typealias Failure = JSONReader.Failure

    private static func component(_ value: Value, into out: inout String) throws(Failure) {
        guard case .array(let parts) = value.kind, parts.count == 3, case .string(let rawName) = parts[0].kind,
              case .array(let properties) = parts[1].kind, case .array(let components) = parts[2].kind else {
            throw Failure(at: value.offset, "a component is [name, [properties], [components]]")
        }
        try checkName(rawName, at: parts[0].offset, of: "component")
        let name = rawName.uppercased()
        out += "BEGIN:\(name)\r\n"
        for p in properties { out += try property(p).text + "\r\n" }
        for c in components { try component(c, into: &out) }
        out += "END:\(name)\r\n"
    }

    /// Names are ASCII letters, digits and `-` (RFC 5545 §3.1), checked as written.
    private static func checkName(_ name: String, at offset: Int, of what: String) throws(Failure) {
        guard isName(name) else {
            throw Failure(at: offset, "‘\(name.prefix(40))’ is not a \(what) name: letters, digits and '-' only")
        }
    }

    private static func property(_ value: Value) throws(Failure) -> ContentLine {
        guard case .array(let parts) = value.kind, parts.count >= 4, case .string(let rawName) = parts[0].kind,
              case .object(let rawParameters) = parts[1].kind, case .string(let rawType) = parts[2].kind else {
            throw Failure(at: value.offset, "a property is [name, {parameters}, type, value…]")
        }
        try checkName(rawName, at: parts[0].offset, of: "property")
        let name = rawName.uppercased()
        // BEGIN and END are a component's edges, written from the arrays; as a property they would open or close one.
        guard name != "BEGIN", name != "END" else {
            throw Failure(at: parts[0].offset, "‘\(rawName)’ cannot be a property: a component is an array of its own, [name, [properties], [components]]")
        }
        let type = rawType.lowercased()
        var parameters: [ContentLine.Parameter] = []
        for (key, v, keyOffset) in rawParameters {
            try checkName(key, at: keyOffset, of: "parameter")
            let pname = key.uppercased()
            guard pname != "VALUE" else { throw Failure(at: v.offset, "a jCal property gives its VALUE as its type (the third element), not as a parameter") }
            let values: [Value]
            if case .array(let list) = v.kind { values = list } else { values = [v] }
            var texts: [String] = []
            for item in values {
                let text: String
                switch item.kind {
                case .string(let s): text = s
                case .number(let n): text = n
                case .bool(let b): text = b ? "TRUE" : "FALSE"
                default: throw Failure(at: item.offset, "parameter ‘\(key)’: a value is a string, or an array of strings")
                }
                let written = caretEncoded(text)
                try checkOneLine(written, at: item.offset)
                texts.append(written)
            }
            parameters.append(.init(name: pname, values: texts))
        }
        if type != "unknown", type != defaultTypes[name] {
            try checkName(type, at: parts[2].offset, of: "value type")
            parameters.insert(.init(name: "VALUE", values: [type.uppercased()]), at: 0)
        }
        let values = Array(parts[3...])
        var texts: [String] = []
        for v in values { texts.append(try text(of: v, property: name, type: type)) }
        return ContentLine(name: name, parameters: parameters, value: texts.joined(separator: ","))
    }

    /// A parameter's or a raw value's text may not hold a line break or another control character.
    private static func checkOneLine(_ text: String, at offset: Int) throws(Failure) {
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\t" }) {
            throw Failure(at: offset, "a line break or another control character here would end the iCalendar line; only a text value may hold one")
        }
    }

    /// One value as iCalendar text.
    /// The iCalendar text of values written as JSON (`"a","b"`), as the
    /// reader reads them back: `nil` when they do not read.
    static func readBack(_ json: [String], property name: String, type: String) -> String? {
        var reader = JSONReader(bytes: Array(("[" + json.joined(separator: ",") + "]").utf8))
        guard let all = try? reader.document(), case .array(let values) = all.kind else { return nil }
        var texts: [String] = []
        for v in values {
            guard let t = try? text(of: v, property: name, type: type) else { return nil }
            texts.append(t)
        }
        return texts.joined(separator: ",")
    }

    private static func text(of v: Value, property name: String, type: String) throws(Failure) -> String {
        func string() throws(Failure) -> String {
            guard case .string(let s) = v.kind else { throw Failure(at: v.offset, "property ‘\(name.lowercased())’: a \(type) value is a string") }
            return s
        }
        if structuredProperties.contains(name), case .array(let parts) = v.kind {
            var texts: [String] = []
            for p in parts {
                switch p.kind {
                case .string(let s): texts.append(type == "text" ? ContentWriter.escape(s) : s)
                case .number(let n):
                    guard Self.isDecimal(n) else { throw Failure(at: p.offset, "‘\(n.prefix(40))’: iCalendar writes a number without an exponent, as 41.375") }
                    texts.append(n)
                default: throw Failure(at: p.offset, "property ‘\(name.lowercased())’: each part of a structured value is a string or a number")
                }
            }
            let joined = texts.joined(separator: ";")
            try checkOneLine(joined, at: v.offset)
            return joined
        }
        switch type {
        case "text":
            let escaped = ContentWriter.escape(try string())
            if escaped.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\t" }) {
                throw Failure(at: v.offset, "iCalendar text cannot hold a control character other than a line break or a tab; take it out")
            }
            return escaped
        case "date":
            return try compact(try string(), at: v.offset, as: "date", JCal.date)
        case "date-time":
            return try compact(try string(), at: v.offset, as: "date-time", JCal.dateTime)
        case "time":
            return try compact(try string(), at: v.offset, as: "time", JCal.time)
        case "utc-offset":
            return try compact(try string(), at: v.offset, as: "utc-offset", JCal.utcOffset)
        case "integer":
            guard case .number(let n) = v.kind, Int(n) != nil else { throw Failure(at: v.offset, "property ‘\(name.lowercased())’: an integer value is a whole number") }
            return n
        case "float":
            guard case .number(let n) = v.kind else { throw Failure(at: v.offset, "property ‘\(name.lowercased())’: a float value is a number") }
            guard Self.isDecimal(n) else { throw Failure(at: v.offset, "‘\(n.prefix(40))’: iCalendar writes a float without an exponent, as 41.375") }
            return n
        case "boolean":
            guard case .bool(let b) = v.kind else { throw Failure(at: v.offset, "property ‘\(name.lowercased())’: a boolean value is true or false") }
            return b ? "TRUE" : "FALSE"
        case "period":
            let halves: [Value]
            switch v.kind {
            case .array(let pair): halves = pair
            // RFC 7265's own Appendix B.2 writes a period as one string.
            case .string(let s):
                let cut = s.split(separator: "/", omittingEmptySubsequences: false)
                halves = cut.map { Value(kind: .string(String($0)), offset: v.offset) }
            default: halves = []
            }
            guard halves.count == 2, case .string(let start) = halves[0].kind, case .string(let end) = halves[1].kind else {
                throw Failure(at: v.offset, "property ‘\(name.lowercased())’: a period is [start, end] or [start, duration]")
            }
            let first = try compact(start, at: halves[0].offset, as: "date-time", JCal.dateTime)
            let isLength = end.hasPrefix("P") || end.hasPrefix("-P") || end.hasPrefix("+P")
            if isLength, !isDuration(end) { throw Failure(at: halves[1].offset, "‘\(end.prefix(40))’ is not a duration as RFC 5545 writes one (PT1H, P1D)") }
            let second = isLength ? end : try compact(end, at: halves[1].offset, as: "date-time", JCal.dateTime)
            return first + "/" + second
        case "recur":
            return try rule(v, property: name)
        case "duration":
            let s = try string()
            guard isDuration(s) else { throw Failure(at: v.offset, "‘\(s.prefix(40))’ is not a duration as RFC 5545 writes one (PT1H, -PT15M, P1D)") }
            return s
        default:
            // duration, uri, cal-address, binary, unknown, an X- type: as written.
            let s: String
            switch v.kind {
            case .string(let text): s = text
            case .number(let n): s = n
            case .bool(let b): s = b ? "TRUE" : "FALSE"
            default: throw Failure(at: v.offset, "property ‘\(name.lowercased())’: a \(type) value is a string")
            }
            try checkOneLine(s, at: v.offset)
            return s
        }
    }

    /// Whether a JSON number is written as iCalendar writes one: digits, a point, digits.
    static func isDecimal(_ n: String) -> Bool { !n.contains("e") && !n.contains("E") }

    /// A jCal date, date-time, time or UTC offset in iCalendar's compact
    /// form, checked by writing it back: `2026-11-30` is `20261130`.
    private static func compact(_ s: String, at offset: Int, as type: String, _ expand: (String) -> String?) throws(Failure) -> String {
        // A UTC offset keeps its sign; a time has no dashes.
        let keepsDashes = type == "utc-offset" || type == "time"
        let candidate = (keepsDashes ? s : s.replacingOccurrences(of: "-", with: "")).replacingOccurrences(of: ":", with: "")
        guard expand(candidate) == s else {
            let shape = ["date": "2026-11-30", "date-time": "2026-11-30T18:30:00 (Z for UTC)", "time": "18:30:00", "utc-offset": "+01:00"][type] ?? type
            throw Failure(at: offset, "‘\(s.prefix(40))’ is not a \(type) as jCal writes one: \(shape)")
        }
        return candidate
    }

    /// A recurrence rule object as iCalendar's `FREQ=…;…`, its parts in the order given.
    private static func rule(_ v: Value, property name: String) throws(Failure) -> String {
        guard case .object(let parts) = v.kind else { throw Failure(at: v.offset, "property ‘\(name.lowercased())’: a recur value is an object such as {\"freq\": \"WEEKLY\"}") }
        var texts: [(key: String, text: String)] = []
        for (key, value, keyOffset) in parts {
            let items: [Value]
            if case .array(let list) = value.kind { items = list } else { items = [value] }
            var out: [String] = []
            for item in items {
                switch item.kind {
                case .string(let s) where key.lowercased() == "until":
                    out.append(s.contains("T") ? try compact(s, at: item.offset, as: "date-time", JCal.dateTime) : try compact(s, at: item.offset, as: "date", JCal.date))
                case .string(let s):
                    guard !s.contains(";"), !s.contains(","), !s.contains("=") else { throw Failure(at: item.offset, "‘\(s.prefix(40))’ cannot be a rule part's value (no ';', ',' or '=')") }
                    try checkOneLine(s, at: item.offset)
                    out.append(s)
                case .number(let n): out.append(n)
                default: throw Failure(at: item.offset, "rule part ‘\(key)’: a value is a string or a number, or an array of them")
                }
            }
            try checkName(key, at: keyOffset, of: "rule part")
            let upper = key.uppercased()
            texts.append((upper, out.joined(separator: ",")))
        }
        guard texts.contains(where: { $0.key == "FREQ" }) else { throw Failure(at: v.offset, "property ‘\(name.lowercased())’: a rule has a freq") }
        return texts.map { "\($0.key)=\($0.text)" }.joined(separator: ";")
    }
}

/// A JSON reader that keeps where each value starts and the order of an
/// object's members (a rule's parts keep theirs), for jCal's errors. Its
/// cursor, its string reading and its step over a value are the package's
/// one JSON reading: the collection cache's `StateJSONReader` walks its own
/// shape with them.
package struct JSONReader {
    struct Value {
        indirect enum Kind {
            case string(String), number(String), bool(Bool), null
            case array([Value])
            /// Members in the order written, each with where its name starts.
            case object([(key: String, value: Value, keyOffset: Int)])
        }
        var kind: Kind
        var offset: Int
    }

    package struct Failure: Error {
        var offset: Int
        var message: String
        init(at offset: Int, _ message: String) {
            self.offset = offset
            self.message = message
        }
    }

    package let bytes: [UInt8]
    /// Where the next byte is read.
    package var i = 0
    /// How deep arrays and objects may nest: jCal needs a few levels; a
    /// document nested deeper is refused, not read into a stack overflow.
    static let maxDepth = 64

    /// A reader at the start of `bytes` (after a byte order mark: see below).
    package init(bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte order mark is not JSON, and some editors write one.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    }

    mutating func document() throws(Failure) -> Value {
        let v = try value(depth: 0)
        skipSpace()
        guard i == bytes.count else { throw Failure(at: i, "more text after the document's end") }
        return v
    }

    /// Steps over JSON's white space (RFC 8259 §2).
    package mutating func skipSpace() {
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
    }

    /// Steps over one value of any type, nested at most ``maxDepth`` deep; `false` when it is not one.
    package mutating func skipValue() -> Bool {
        (try? value(depth: 0)) != nil
    }

    private mutating func value(depth: Int) throws(Failure) -> Value {
        skipSpace()
        guard i < bytes.count else { throw Failure(at: i, "the document ends where a value should be") }
        let start = i
        switch bytes[i] {
        case UInt8(ascii: "["):
            guard depth < Self.maxDepth else { throw Failure(at: i, "nested more than \(Self.maxDepth) deep; no jCal document is") }
            i += 1
            var items: [Value] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return Value(kind: .array(items), offset: start) }
            while true {
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard i < bytes.count else { throw Failure(at: i, "the document ends inside an array; a ']' is missing") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "]") { i += 1; return Value(kind: .array(items), offset: start) }
                throw Failure(at: i, "expected ',' or ']' in an array")
            }
        case UInt8(ascii: "{"):
            guard depth < Self.maxDepth else { throw Failure(at: i, "nested more than \(Self.maxDepth) deep; no jCal document is") }
            i += 1
            var members: [(key: String, value: Value, keyOffset: Int)] = []
            var seen = Set<String>()
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return Value(kind: .object(members), offset: start) }
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw Failure(at: i, "expected a member's name in quotes") }
                let keyOffset = i
                let key = try string()
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw Failure(at: i, "expected ':' after a member's name") }
                i += 1
                let v = try value(depth: depth + 1)
                guard seen.insert(key.lowercased()).inserted else { throw Failure(at: keyOffset, "‘\(key.prefix(40))’ is given twice in one object") }
                members.append((key, v, keyOffset))
                skipSpace()
                guard i < bytes.count else { throw Failure(at: i, "the document ends inside an object; a '}' is missing") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "}") { i += 1; return Value(kind: .object(members), offset: start) }
                throw Failure(at: i, "expected ',' or '}' in an object")
            }
        case UInt8(ascii: "\""):
            return Value(kind: .string(try string()), offset: start)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            for (word, kind) in [("true", Value.Kind.bool(true)), ("false", .bool(false)), ("null", .null)] where bytes[i...].starts(with: word.utf8) {
                i += word.utf8.count
                return Value(kind: kind, offset: start)
            }
            throw Failure(at: i, "not a JSON value (true, false, null, a number, a string, an array or an object)")
        default:
            return Value(kind: .number(try number()), offset: start)
        }
    }

    private mutating func number() throws(Failure) -> String {
        let start = i
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
        func digits() -> Int {
            let s = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            return i - s
        }
        let intStart = i
        guard digits() > 0, !(bytes[intStart] == 0x30 && i - intStart > 1) else { throw Failure(at: start, "not a JSON value (true, false, null, a number, a string, an array or an object)") }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { throw Failure(at: i, "a number needs digits after its '.'") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { throw Failure(at: i, "a number's exponent needs digits") }
        }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    /// The string whose opening quote is at the cursor, its escapes read (RFC 8259 §7), the cursor after it.
    package mutating func string() throws(Failure) -> String {
        let start = i
        i += 1  // the opening quote
        // A run with no escape (nearly every string) is taken whole.
        while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\"), bytes[i] >= 0x20 { i += 1 }
        var out = Array(bytes[min(start + 1, i)..<i])
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                guard let s = String(validating: out, as: UTF8.self) else { throw Failure(at: start, "the string is not UTF-8") }
                return s
            }
            if b < 0x20 { throw Failure(at: i, "a control character inside a string must be escaped (\\n, \\u0009…)") }
            if b != UInt8(ascii: "\\") { out.append(b); i += 1; continue }
            i += 1
            guard i < bytes.count else { break }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800...0xDBFF).contains(code) {
                    // A surrogate pair: the low half must follow.
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else { throw Failure(at: i, "a lone surrogate (\\uD800-\\uDBFF) is not a character") }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw Failure(at: i, "a lone surrogate (\\uD800-\\uDBFF) is not a character") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw Failure(at: i, "\\u escape of a lone surrogate is not a character") }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                throw Failure(at: i - 2, "‘\\\(Character(Unicode.Scalar(e)))’ is not a JSON escape")
            }
        }
        throw Failure(at: start, "the string is not closed with '\"'")
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        // Four hexadecimal digits, no sign (`UInt32(_:radix:)` would take "+fff").
        guard i + 4 <= bytes.count, bytes[i..<(i + 4)].allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }),
              let v = UInt32(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16) else {
            throw Failure(at: i, "\\u takes four hexadecimal digits")
        }
        i += 4
        return v
    }
}
