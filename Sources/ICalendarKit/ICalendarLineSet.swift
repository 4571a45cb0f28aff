import Foundation

/// iCalendar text as a set of content lines, each with the component it is
/// in, for telling whether a change to a resource still holds in what a
/// server now has (CalendarStore's three-way check of a CalDAV write).
///
/// A line is taken unfolded (read with the importer's own lexer), its name
/// upper case and its parameters in one order, after the names, `UID`s and
/// `RECURRENCE-ID`s of the components around it; the properties a server or
/// another client rewrites on every write (`DTSTAMP`, `LAST-MODIFIED`,
/// `SEQUENCE`, `PRODID`) are left out, and so is the calendar's own line.
package enum ICalendarLineSet {
    /// Properties that change on every write, whoever makes it.
    private static let volatile: Set<String> = ["DTSTAMP", "LAST-MODIFIED", "SEQUENCE", "PRODID"]

    /// Each content line of `text` with its component's identity:
    /// `VCALENDAR/VEVENT[UID:a][RECURRENCE-ID:…]|SUMMARY:Yoga`.
    package static func lines(of text: [UInt8]) -> Set<String> {
        var out: Set<String> = []
        var stack: [(name: String, lines: [String], id: String)] = []
        var reader = ContentLineReader(bytes: text, maxLineBytes: ImportOptions().maxLineBytes)
        while let raw = try? reader.next() {
            let line = String(decoding: raw.bytes, as: UTF8.self)
            let (name, rest) = split(line)
            if name == "BEGIN" {
                stack.append((rest.uppercased(), [], ""))
            } else if name == "END" {
                guard let top = stack.popLast() else { continue }
                let context = (stack.map(\.name) + [top.name + top.id]).joined(separator: "/")
                for l in top.lines { out.insert(context + "|" + l) }
            } else if !stack.isEmpty, !volatile.contains(name) {
                let normal = normalised(line)
                stack[stack.count - 1].lines.append(normal)
                if name == "UID" || name == "RECURRENCE-ID" { stack[stack.count - 1].id += "[" + normal + "]" }
            }
        }
        return out
    }

    /// A line's name, upper case, and its value.
    private static func split(_ line: String) -> (String, String) {
        let head = line.prefix { $0 != ":" && $0 != ";" }
        let value = line.firstIndex(of: ":").map { String(line[line.index(after: $0)...]) } ?? ""
        return (head.uppercased(), value)
    }

    /// A line with its name upper case and its parameters sorted (none holds a quoted `:` or `;` in what Horari writes).
    private static func normalised(_ line: String) -> String {
        guard let colon = line.firstIndex(of: ":") else { return line.uppercased() }
        var parts = line[..<colon].split(separator: ";").map(String.init)
        guard !parts.isEmpty else { return String(line) }
        let name = parts.removeFirst().uppercased()
        return ([name] + parts.sorted()).joined(separator: ";") + line[colon...]
    }
}
