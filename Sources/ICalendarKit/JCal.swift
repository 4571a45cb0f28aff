import CalendarCore
import Foundation

// jCal, the JSON form of iCalendar (RFC 7265), both ways (issue 44, 8).
//
// jCal is iCalendar's own tree written as JSON — a component is
// `[name, [properties], [components]]`, a property `[name, {parameters},
// type, value…]` — with each value typed: dates as `2026-11-30`, date-times
// as `2026-11-30T18:30:00`, integers and floats as numbers, a recurrence
// rule as an object, a period as `[start, end]`. It is what icalendar,
// ical.js and Google's APIs speak. Both directions work on iCalendar text,
// not on Horari's model: the export is the `.ics` text the exporter writes,
// turned into JSON property by property; the import turns JSON into `.ics`
// text and reads it as any file is read, with the same checks and reports.
// So nothing the model keeps is lost either way, and a calendar exported
// as jCal, imported and exported again is the same `.ics` (Conformance/jcal_check.py
// holds the corpus to that, with icalendar's jCal reader as referee).
//
// Decisions where RFC 7265 leaves room or a peer differs:
// - A property's type is its `VALUE` parameter, else RFC 5545's default for
//   it (RFC 7986's too), else `unknown` (§5): an `X-` property with no
//   `VALUE` is `unknown`, its value the text as written. A value that does
//   not read as its type (`PRIORITY:high`) is also written as `unknown`, as
//   written, rather than lost or refused.
// - `REFRESH-INTERVAL`, `IMAGE` and `CONFERENCE` must carry `VALUE` in
//   iCalendar (RFC 7986): they have no default here, so `VALUE` is written
//   back from the jCal type.
// - A period is `[start, end-or-duration]` (§3.6.9, and ical.js); the RFC's
//   own Appendix B.2 writes it as one string `start/end`, which is read too.
// - Going back to iCalendar, `VALUE` is written first among the parameters
//   when the type is not the property's default (jCal has no place for its
//   position).
// - A recurrence rule's parts keep their order both ways (RFC 7529 writes
//   RSCALE before FREQ).
// - A value is written typed only when it reads back to the same text;
//   any other (`GEO:+51.7;+14.3`, a TEXT value with a comma left
//   unescaped) is `unknown`, as written: jCal readers get a string, and
//   the way back loses nothing.
// - What jCal cannot say is where a `VALUE` parameter stood, or that one
//   named the default type (`DTSTART;VALUE=DATE-TIME`): the way back writes
//   `VALUE` first, and only for a type other than the default.
// - A parameter value is the value, not its iCalendar spelling: RFC 6868's
//   `^n`, `^'` and `^^` are a newline, a double quote and a caret in jCal,
//   and are written back so (as icalendar does).
// - A duration that does not read as RFC 5545's (`PT-2H`) is `unknown`, as
//   written, so a reader of jCal never meets one it cannot parse.

/// Why a jCal document could not be read: where, and what to do.
public struct JCalError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The line of the JSON text, from 1.
    public var line: Int
    /// The column (a UTF-8 byte count), from 1.
    public var column: Int
    /// What is wrong there, for a person.
    public var message: String

    /// Creates an error.
    /// - Parameters:
    ///   - line: the JSON text's line, from 1.
    ///   - column: the column, from 1.
    ///   - message: what is wrong.
    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line L, column C: message`.
    public var description: String { "line \(line), column \(column): \(message)" }
}

/// Converts between iCalendar text and jCal (RFC 7265).
///
/// ```swift
/// let ics = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Example//EN\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTAMP:20261130T100000Z\r\nDTSTART;VALUE=DATE:20261130\r\nSUMMARY:Yoga\\, Sala 2\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
/// let json = JCal.json(fromICalendar: ics)
/// // ["vcalendar",[["version",{},"text","2.0"],…],[["vevent",[…,["dtstart",{},"date","2026-11-30"],["summary",{},"text","Yoga, Sala 2"]],[]]]]
/// let back = try JCal.iCalendarText(fromJSON: Data(json.utf8))  // the same lines, unfolded
/// ```
public enum JCal {
    // MARK: Types

    /// RFC 5545's (and RFC 7986's) default value type of each property.
    static let defaultTypes: [String: String] = {
        var t: [String: String] = [:]
        for n in ["CALSCALE", "METHOD", "PRODID", "VERSION", "CATEGORIES", "CLASS", "COMMENT", "DESCRIPTION", "LOCATION", "RESOURCES",
                  "STATUS", "SUMMARY", "TRANSP", "TZID", "TZNAME", "CONTACT", "RELATED-TO", "UID", "ACTION", "REQUEST-STATUS", "NAME", "COLOR"] {
            t[n] = "text"
        }
        for n in ["COMPLETED", "DTEND", "DUE", "DTSTART", "RECURRENCE-ID", "EXDATE", "RDATE", "CREATED", "DTSTAMP", "LAST-MODIFIED", "ACKNOWLEDGED"] {
            t[n] = "date-time"
        }
        for n in ["DURATION", "TRIGGER"] { t[n] = "duration" }
        t["FREEBUSY"] = "period"
        for n in ["TZOFFSETFROM", "TZOFFSETTO"] { t[n] = "utc-offset" }
        for n in ["TZURL", "URL", "ATTACH", "SOURCE"] { t[n] = "uri" }
        for n in ["ATTENDEE", "ORGANIZER"] { t[n] = "cal-address" }
        for n in ["PERCENT-COMPLETE", "PRIORITY", "REPEAT", "SEQUENCE"] { t[n] = "integer" }
        t["GEO"] = "float"
        for n in ["RRULE", "EXRULE"] { t[n] = "recur" }
        return t
    }()

    /// The properties whose value is a list (RFC 5545): each item is a value of its own in jCal (§3.4.1.2).
    static let listProperties: Set<String> = ["CATEGORIES", "RESOURCES", "EXDATE", "RDATE", "FREEBUSY"]
    /// The properties whose value has parts separated by `;`: one array in jCal (§3.4.1.3).
    static let structuredProperties: Set<String> = ["REQUEST-STATUS", "GEO"]
    /// The types RFC 5545 defines, as jCal names them.
    static let knownTypes: Set<String> = ["binary", "boolean", "cal-address", "date", "date-time", "duration", "float", "integer", "period",
                                          "recur", "text", "time", "uri", "utc-offset", "unknown"]
    /// The recurrence rule parts whose values are integers (§3.6.10).
    static let numericRuleParts: Set<String> = ["count", "interval", "bysecond", "byminute", "byhour", "bymonthday", "byyearday", "byweekno", "bymonth", "bysetpos"]

    // MARK: iCalendar to jCal

    /// The jCal form of iCalendar text: one `vcalendar` array, or an array
    /// of them when the text holds several. Lines that are not content
    /// lines (outside any component, or with no `:`) are left out, as any
    /// reader of the text would.
    /// - Parameter text: iCalendar text, folded or not.
    public static func json(fromICalendar text: String) -> String {
        var roots: [Node] = []
        var stack: [Node] = []
        for raw in unfoldedLines(text) where !raw.isEmpty {
            guard case .success(let parsed) = ContentLineSyntax.parse(Array(raw.utf8)) else { continue }
            let line = parsed.line
            switch line.name {
            case "BEGIN":
                stack.append(Node(name: line.value.trimmedValue.lowercased()))
            case "END":
                guard let done = stack.popLast() else { continue }
                if stack.isEmpty { roots.append(done) } else { stack[stack.count - 1].components.append(done) }
            default:
                guard !stack.isEmpty else { continue }
                stack[stack.count - 1].properties.append(property(line))
            }
        }
        // A component left open at the end of the text is still written.
        while let open = stack.popLast() {
            if stack.isEmpty { roots.append(open) } else { stack[stack.count - 1].components.append(open) }
        }
        var out = ""
        if roots.count == 1 {
            write(roots[0], to: &out)
        } else {
            out += "["
            for (i, root) in roots.enumerated() {
                if i > 0 { out += "," }
                write(root, to: &out)
            }
            out += "]"
        }
        return out
    }

    /// A component as jCal holds it: its properties written already.
    private struct Node {
        var name: String
        var properties: [String] = []
        var components: [Node] = []
    }

    private static func write(_ node: Node, to out: inout String) {
        out += "[" + quoted(node.name) + ",["
        out += node.properties.joined(separator: ",")
        out += "],["
        for (i, c) in node.components.enumerated() {
            if i > 0 { out += "," }
            write(c, to: &out)
        }
        out += "]]"
    }

    /// The lines of iCalendar text with their folds undone (RFC 5545 §3.1).
    static func unfoldedLines(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        var current = ""
        var started = false
        for physical in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            var line = physical
            if line.last == "\r" { line = line.dropLast() }
            if let first = line.first, first == " " || first == "\t", started {
                current += line.dropFirst()
            } else {
                if started { lines.append(Substring(current)) }
                current = String(line)
                started = true
            }
        }
        if started { lines.append(Substring(current)) }
        return lines
    }

    /// One property as jCal writes it: `[name, {parameters}, type, value…]`.
    static func property(_ line: ContentLine) -> String {
        let name = line.name
        var parameters = line.parameters
        var type = defaultTypes[name] ?? "unknown"
        let valueParameters = parameters.filter { $0.name == "VALUE" }
        if !valueParameters.isEmpty {
            // One VALUE of one type name is the type; a VALUE jCal cannot say (empty, two, not a name) leaves the value unknown, as written.
            let given = valueParameters.count == 1 && valueParameters[0].values.count == 1 ? valueParameters[0].values[0] : ""
            type = isName(given) ? given.lowercased() : "unknown"
            parameters.removeAll { $0.name == "VALUE" }
        }
        let raw = line.value
        var values = typedValues(raw, of: name, as: type)
        // A value that is not of its type, or that would not read back to
        // the same text (`+51.7` is no JSON number, a comma left unescaped
        // in TEXT is escaped once read): kept as written, as RFC 7265 §5
        // keeps an unknown one, so nothing changes on the way back.
        if let typed = values, readBack(typed, property: name, type: type) != raw { values = nil }
        if values == nil {
            type = "unknown"
            values = [quoted(raw)]
        }
        var out = "[" + quoted(name.lowercased()) + ",{"
        for (i, p) in parameters.enumerated() {
            if i > 0 { out += "," }
            out += quoted(p.name.lowercased()) + ":"
            let values = p.values.map(caretDecoded)
            out += values.count == 1 ? quoted(values[0]) : "[" + values.map(quoted).joined(separator: ",") + "]"
        }
        out += "}," + quoted(type)
        for v in values ?? [] { out += "," + v }
        return out + "]"
    }

    /// A value of a type, as JSON values (several for a list property);
    /// `nil` when the text is not one of that type.
    static func typedValues(_ raw: String, of name: String, as type: String) -> [String]? {
        if structuredProperties.contains(name) {
            let parts = type == "text" ? splitUnescaped(raw, on: ";").map { TextEscaping.unescape(Substring($0)) } : raw.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            if type == "float" {
                let numbers = parts.compactMap(number)
                guard numbers.count == parts.count else { return nil }
                return ["[" + numbers.joined(separator: ",") + "]"]
            }
            return ["[" + parts.map(quoted).joined(separator: ",") + "]"]
        }
        let items: [String]
        if type == "text" {
            items = listProperties.contains(name) ? ContentLineSyntax.splitTextList(raw) : [TextEscaping.unescape(Substring(raw))]
            return items.map(quoted)
        }
        items = listProperties.contains(name) ? raw.split(separator: ",", omittingEmptySubsequences: false).map(String.init) : [raw]
        var out: [String] = []
        for item in items {
            guard let v = typedValue(item, as: type) else { return nil }
            out.append(v)
        }
        return out
    }

    /// One value of a type as JSON; `nil` when the text is not one.
    static func typedValue(_ text: String, as type: String) -> String? {
        switch type {
        case "date": return date(text).map(quoted)
        case "date-time": return dateTime(text).map(quoted)
        case "time": return time(text).map(quoted)
        case "utc-offset": return utcOffset(text).map(quoted)
        case "integer": return Int(text).map(String.init)
        case "float": return number(text)
        case "boolean":
            switch text.uppercased() {
            case "TRUE": return "true"
            case "FALSE": return "false"
            default: return nil
            }
        case "period":
            let halves = text.split(separator: "/", omittingEmptySubsequences: false)
            guard halves.count == 2, let start = dateTime(String(halves[0])) else { return nil }
            let end = String(halves[1])
            guard let second = end.hasPrefix("P") || end.hasPrefix("-P") || end.hasPrefix("+P") ? end : dateTime(end) else { return nil }
            return "[" + quoted(start) + "," + quoted(second) + "]"
        case "recur": return rule(text)
        case "duration": return isDuration(text) ? quoted(text) : nil
        default:
            // duration, uri, cal-address, binary, unknown, an X- type: the text as written.
            return quoted(text)
        }
    }

    /// Whether text is an RFC 5545 duration: `[+-]P` then weeks, or days
    /// and a time, or a time (`P1W`, `-PT15M`, `P1DT2H`).
    static func isDuration(_ text: String) -> Bool {
        var s = Substring(text)
        if s.first == "+" || s.first == "-" { s = s.dropFirst() }
        guard s.first == "P" else { return false }
        s = s.dropFirst()
        func unit(_ letters: String) -> Bool {
            // Digits then one of the letters, in order, each at most once.
            var seen = false, allowed = Substring(letters)
            while !s.isEmpty {
                let n = s.prefix { $0.isASCII && $0.isNumber }
                guard !n.isEmpty, let u = s.dropFirst(n.count).first, let at = allowed.firstIndex(of: u) else { return false }
                s = s.dropFirst(n.count + 1)
                allowed = allowed[allowed.index(after: at)...]
                seen = true
                if s.first == "T" { break }
            }
            return seen
        }
        if s.hasSuffix("W") { return unit("W") && s.isEmpty }
        if s.first != "T" {
            guard unit("D") else { return false }
            if s.isEmpty { return true }
        }
        guard s.first == "T" else { return false }
        s = s.dropFirst()
        return unit("HMS") && s.isEmpty
    }

    /// A parameter value as written in iCalendar, RFC 6868's escapes undone.
    static func caretDecoded(_ v: String) -> String {
        guard v.contains("^") else { return v }
        var out = "", chars = Array(v), i = 0
        while i < chars.count {
            if chars[i] == "^", i + 1 < chars.count, let meant = ["^": "^", "n": "\n", "N": "\n", "'": "\""][chars[i + 1]] {
                out += meant
                i += 2
            } else {
                out.append(chars[i])
                i += 1
            }
        }
        return out
    }

    /// A parameter value as iCalendar writes it, RFC 6868's way: a caret
    /// doubled only where it would otherwise start an escape (`^a` stays).
    static func caretEncoded(_ v: String) -> String {
        guard v.contains(where: { $0 == "^" || $0 == "\n" || $0 == "\"" }) else { return v }
        var out = "", chars = Array(v)
        for (i, c) in chars.enumerated() {
            switch c {
            case "\n": out += "^n"
            case "\"": out += "^'"
            case "^":
                let next = i + 1 < chars.count ? chars[i + 1] : nil
                out += next.map { "^nN'\"\n".contains($0) } == true ? "^^" : "^"
            default: out.append(c)
            }
        }
        return out
    }

    private static func digits(_ s: Substring) -> Bool { !s.isEmpty && s.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }

    /// `20261130` as `2026-11-30`.
    static func date(_ t: String) -> String? {
        let s = Substring(t)
        guard s.count == 8, digits(s) else { return nil }
        return "\(s.prefix(4))-\(s.dropFirst(4).prefix(2))-\(s.suffix(2))"
    }

    /// `20261130T183000Z` as `2026-11-30T18:30:00Z`.
    static func dateTime(_ t: String) -> String? {
        let parts = t.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let d = date(String(parts[0])), let time = time(String(parts[1])) else { return nil }
        return d + "T" + time
    }

    /// `183000Z` as `18:30:00Z`.
    static func time(_ t: String) -> String? {
        var s = Substring(t)
        let utc = s.last == "Z"
        if utc { s = s.dropLast() }
        guard s.count == 6, digits(s) else { return nil }
        return "\(s.prefix(2)):\(s.dropFirst(2).prefix(2)):\(s.suffix(2))" + (utc ? "Z" : "")
    }

    /// `+0100` as `+01:00`, `-013015` as `-01:30:15`.
    static func utcOffset(_ t: String) -> String? {
        guard let sign = t.first, sign == "+" || sign == "-" else { return nil }
        let s = t.dropFirst()
        guard s.count == 4 || s.count == 6, digits(s) else { return nil }
        return "\(sign)\(s.prefix(2)):\(s.dropFirst(2).prefix(2))" + (s.count == 6 ? ":\(s.suffix(2))" : "")
    }

    /// A number as JSON writes it: the text when it is already one, else
    /// as the number it reads as; `nil` for text that is no number.
    static func number(_ t: String) -> String? {
        let s = t.trimmingCharacters(in: .whitespaces)
        guard let d = Double(s), d.isFinite else { return nil }
        var body = Substring(s)
        if body.first == "-" { body = body.dropFirst() }
        let pieces = body.split(separator: ".", omittingEmptySubsequences: false)
        let isJSON = (pieces.count == 1 || pieces.count == 2) && digits(pieces[0]) && (pieces[0].count == 1 || pieces[0].first != "0")
            && (pieces.count == 1 || digits(pieces[1]))
        return isJSON ? s : "\(d)"
    }

    /// A recurrence rule as a jCal object (§3.6.10), its parts in the order written.
    static func rule(_ text: String) -> String? {
        var out = "{"
        var first = true
        for part in text.split(separator: ";") {
            let kv = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard kv.count == 2 else { return nil }
            let key = kv[0].lowercased()
            let items = kv[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            var values: [String] = []
            for item in items {
                if key == "until" {
                    guard let v = item.contains("T") ? dateTime(item) : date(item) else { return nil }
                    values.append(quoted(v))
                } else if numericRuleParts.contains(key), let n = Int(item) {
                    values.append(String(n))
                } else {
                    values.append(quoted(item))
                }
            }
            if !first { out += "," }
            first = false
            out += quoted(key) + ":" + (values.count == 1 ? values[0] : "[" + values.joined(separator: ",") + "]")
        }
        return out + "}"
    }

    /// Splits at separators no backslash escapes.
    static func splitUnescaped(_ s: String, on separator: Character) -> [String] {
        var parts: [String] = [], current = "", escaping = false
        for c in s {
            if escaping { escaping = false; current.append(c); continue }
            if c == "\\" { escaping = true; current.append(c); continue }
            if c == separator { parts.append(current); current = ""; continue }
            current.append(c)
        }
        parts.append(current)
        return parts
    }

    /// A JSON string literal, by the CLI's one JSON escaper (`ISOText.appendJSONString`).
    static func quoted(_ s: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count + 2)
        ISOText.appendJSONString(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether text is an iCalendar name as written: ASCII letters, digits and `-` (RFC 5545 §3.1).
    static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
    }
}
