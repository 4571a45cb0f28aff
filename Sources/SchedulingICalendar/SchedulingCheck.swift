import CalendarCore
import CalendarScheduling
import ICalendarKit

extension ICalendar {
    /// The scheduling book this calendar keeps, read as far as it makes
    /// sense, with every inconsistency among its records
    /// (`SchedulingBook.reading(timeZone:items:components:)`).
    ///
    /// `horari validate` prints the problems with their lines
    /// (``SchedulingRecordLines``); `horari validate --repair` saves the book
    /// returned here with ``setScheduling(_:)``, which leaves out what the
    /// book could not read.
    ///
    /// ```swift
    /// let check = try calendar.schedulingCheck()
    /// for p in check.problems { print(lines.line(of: p.record) ?? 0, p) }
    /// ```
    /// - Parameter defaultTimeZone: as for ``schedulingBook(defaultTimeZone:)``.
    /// - Throws: `SchedulingError` only when the calendar's own properties
    ///   that the whole book rests on cannot be read: its zone, its class
    ///   booking rules (``classBookingPolicy()``), the session policy
    ///   (``sessionPolicy()``), the gym's opening hours and closures
    ///   (``openingHours()``, ``gymClosures()``).
    public func schedulingCheck(defaultTimeZone: String? = nil) throws(SchedulingError) -> (book: SchedulingBook, problems: [SchedulingBook.RecordProblem]) {
        let rules = try bookZone(defaultTimeZone: defaultTimeZone)
        var check = SchedulingBook.reading(timeZone: rules, items: items.filter(SchedulingBook.isSchedulingItem),
                                           components: components.filter(SchedulingBook.isSchedulingComponent))
        check.book.classPolicy = try classBookingPolicy()
        try readGymRules(into: &check.book)
        return check
    }

    /// The zone of the book this calendar keeps.
    func bookZone(defaultTimeZone: String?) throws(SchedulingError) -> ZoneRules {
        let zone = properties.first { $0.name == Self.bookZoneProperty }?.value ?? timeZone ?? defaultTimeZone ?? "UTC"
        do { return try zones.rules(forTZID: zone) } catch {
            throw .invalid(field: .timeZone, reason: "‘\(zone)’ is not a time zone this system knows; use an IANA name such as Europe/Madrid")
        }
    }
}

/// Where a calendar file's scheduling records begin: the line of each
/// top-level component (by name and order, as
/// `SchedulingBook.RecordProblem.Record.component(name:index:)` counts them)
/// and of each item (by `UID`), so that a problem can name its line.
///
/// It reads the text's lines only (CRLF or LF, or bare CR in a file whose
/// first line ends so, as the importer reads them; folded lines joined), with
/// no iCalendar parse: any text gives an index, a damaged one a partial one.
public struct SchedulingRecordLines: Sendable {
    private var components: [String: [Int]] = [:]
    private var items: [String: Int] = [:]
    /// Instances: `UID`, and the date their `RECURRENCE-ID` is written on (`YYYYMMDD`).
    private var instances: [String: Int] = [:]
    /// The calendar's own properties (`X-HORARI-CLOSURE`…): their lines and values, by name.
    private var properties: [String: [(line: Int, value: String)]] = [:]

    /// Indexes a calendar file's text.
    public init(bytes: [UInt8]) {
        var depth = 0
        var current: (name: String, line: Int, uid: String?, recurrence: String?)?
        var logical: [UInt8] = []
        var logicalLine = 0
        var lineNumber = 0
        func finish(_ text: [UInt8], _ line: Int) {
            guard let colon = text.firstIndex(of: UInt8(ascii: ":")) else { return }
            let name = String(decoding: text[..<colon], as: UTF8.self).uppercased()
            let value = String(decoding: text[(colon + 1)...], as: UTF8.self)
            switch name {
            case "BEGIN":
                depth += 1
                if depth == 2 {
                    let component = value.uppercased()
                    components[component, default: []].append(line)
                    current = (component, line, nil, nil)
                }
            case "END":
                if depth == 2, let c = current, let uid = c.uid {
                    if let recurrence = c.recurrence {
                        let key = uid + "\u{0}" + recurrence
                        if instances[key] == nil { instances[key] = c.line }
                    } else if items[uid] == nil {
                        items[uid] = c.line
                    }
                    current = nil
                }
                depth = max(0, depth - 1)
            default:
                if depth == 1 {
                    let bare = name.split(separator: ";", maxSplits: 1).first.map(String.init) ?? name
                    properties[bare, default: []].append((line, value))
                }
                guard depth == 2, current != nil else { break }
                // `NAME;PARAMS`: the name is what comes before any parameter.
                let bare = name.split(separator: ";", maxSplits: 1).first.map(String.init) ?? name
                if bare == "UID" { current?.uid = value } else if bare == "RECURRENCE-ID" { current?.recurrence = String(value.prefix(8)) }
            }
        }
        // Lines as the importer numbers them: a file whose first line ends in
        // a bare CR (classic Mac OS) has CR, LF and CRLF as line breaks.
        let (cr, lf) = (UInt8(ascii: "\r"), UInt8(ascii: "\n"))
        let firstBreak = bytes.firstIndex { $0 == cr || $0 == lf }
        let crBreaks = firstBreak.map { bytes[$0] == cr && ($0 + 1 == bytes.count || bytes[$0 + 1] != lf) } ?? false
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != lf, !(crBreaks && bytes[end] == cr) { end += 1 }
            var line = Array(bytes[start..<end])
            if line.last == cr { line.removeLast() }
            // A CRLF in a file of CR breaks is one break.
            if crBreaks, end + 1 < bytes.count, bytes[end] == cr, bytes[end + 1] == lf { end += 1 }
            lineNumber += 1
            if let first = line.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
                logical.append(contentsOf: line.dropFirst())
            } else {
                if !logical.isEmpty { finish(logical, logicalLine) }
                logical = line
                logicalLine = lineNumber
            }
            start = end + 1
        }
        if !logical.isEmpty { finish(logical, logicalLine) }
    }

    /// The line of one of the calendar's own properties (not a component's):
    /// the first of that name whose value holds `text`, else the first of
    /// that name; `nil` when the text has none.
    /// - Parameters:
    ///   - name: the property's name, such as `X-HORARI-CLOSURE`.
    ///   - text: part of its value, as an error quotes it.
    public func line(ofCalendarProperty name: String, holding text: String? = nil) -> Int? {
        guard let found = properties[name.uppercased()] else { return nil }
        return (text.flatMap { t in found.first { $0.value.contains(t) } } ?? found.first)?.line
    }

    /// The line a record begins on, when the text has it.
    public func line(of record: SchedulingBook.RecordProblem.Record) -> Int? {
        switch record {
        case .component(let name, let index):
            guard let lines = components[name], index < lines.count else { return nil }
            return lines[index]
        case .item(let uid):
            return items[uid]
        case .instance(let uid, let date):
            return instances[uid + "\u{0}" + date.basicISO]
        }
    }
}
