import CalendarCore

/// An iCalendar document read and changed as text, without importing it:
/// for a document the caller knows well (a sample, a fixture), where an
/// import and an export would cost more than the change and normalise what
/// it does not touch.
public enum ICalendarText {
    /// The value of a calendar-level property written on one line
    /// (`NAME:value`, no parameters), or `nil` when no line begins so.
    ///
    /// - Parameters:
    ///   - name: the property's name, as written.
    ///   - text: the document.
    public static func calendarProperty(_ name: String, in text: String) -> String? {
        let prefix = name + ":"
        return text.split(whereSeparator: \.isNewline).first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    /// The zone a document names for its clock, read from its text as
    /// `ICalendar.calendarZone(namedBy:)` reads it from a calendar: the
    /// first of `zoneProperties` that the document has, else its
    /// `X-WR-TIMEZONE`; `nil` for none.
    ///
    /// - Parameters:
    ///   - text: the document.
    ///   - zoneProperties: the properties that name it first, in order.
    public static func calendarZone(in text: String, namedBy zoneProperties: [String] = []) -> String? {
        (zoneProperties + ["X-WR-TIMEZONE"]).lazy.compactMap { calendarProperty($0, in: text) }.first
    }

    /// The document with every date and date-time value moved by `days`,
    /// except stamps (`DTSTAMP`, `LAST-MODIFIED`, `CREATED`) and time-zone
    /// definitions, whose dates are the zone's rules. Lines are unfolded
    /// first (RFC 5545 §3.1), so that no value is split, and joined with LF.
    ///
    /// Times on a zone's or a floating clock keep their wall time; a UTC
    /// time moved across a DST change keeps its instant's hour, not the wall
    /// time's, so move a document with UTC times by whole weeks only where
    /// that does not matter.
    ///
    /// - Parameters:
    ///   - text: the document.
    ///   - days: how far to move, in days (negative: earlier).
    public static func movingDates(in text: String, byDays days: Int) -> String {
        guard days != 0 else { return text }
        var out: [Substring] = []
        var inZone = false
        let unfolded = text.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\n ", with: "")
        for line in unfolded.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("BEGIN:VTIMEZONE") { inZone = true }
            if line.hasPrefix("END:VTIMEZONE") { inZone = false }
            let name = line.prefix { $0 != ":" && $0 != ";" }
            if inZone || ["DTSTAMP", "LAST-MODIFIED", "CREATED"].contains(String(name)) {
                out.append(line)
            } else {
                out.append(Substring(movingDates(inLine: line, byDays: days)))
            }
        }
        return out.joined(separator: "\n")
    }

    /// Every `YYYYMMDD` run of exactly eight digits that is a date (with or
    /// without a following `THHMMSS`) moved by `days`.
    static func movingDates(inLine line: Substring, byDays days: Int) -> String {
        let chars = Array(line)
        var result = ""
        var i = 0
        while i < chars.count {
            guard chars[i].isASCII, chars[i].isNumber, i == 0 || !chars[i - 1].isNumber else {
                result.append(chars[i])
                i += 1
                continue
            }
            var j = i
            while j < chars.count, chars[j].isASCII, chars[j].isNumber { j += 1 }
            let run = String(chars[i..<j])
            if run.count == 8, let y = Int(run.prefix(4)), let m = Int(run.dropFirst(4).prefix(2)), let d = Int(run.suffix(2)),
               let date = try? LocalDate(year: y, month: m, day: d) {
                let moved = date.adding(days: days)
                result += moved.basicISO
            } else {
                result += run
            }
            i = j
        }
        return result
    }
}

extension CalendarItem.Kind {
    /// The iCalendar component an item of this kind is written as: `VEVENT`
    /// or `VTODO` (RFC 5545 §3.6.1, §3.6.2).
    public var componentName: String { self == .task ? "VTODO" : "VEVENT" }
}
