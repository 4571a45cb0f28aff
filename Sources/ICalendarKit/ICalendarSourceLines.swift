/// Where an imported text put a calendar's parts: the line each item and
/// each other top-level component begins on, and the line of each of the
/// calendar's own properties, as the importer numbered them while it read
/// (CRLF, LF or a bare CR; a folded line counted where it starts).
///
/// An error about a record then names its line without reading the text a
/// second time, which could find another text there (a file another process
/// saved meanwhile) and would double an import's peak memory. A result made
/// of several texts (a folder, a collection) has none: its records name
/// their resources instead.
///
/// It is noted on every import, so it holds only what a line is looked up
/// by, indexed: an item's line under its `UID` (the string the item holds,
/// not a copy), a component's by name and place.
public struct ICalendarSourceLines: Hashable, Sendable {
    /// A content line's line number and value as written.
    struct Property: Hashable, Sendable {
        var name: String
        var line: Int
        var value: String
    }

    /// The line of each item the calendar holds: a series or a lone item
    /// under its `UID`, a changed instance under ``instanceKey(_:_:)``.
    private var items: [String: Int] = [:]
    /// The lines of the components `ICalendar.components` holds (neither
    /// items nor time zones), by name, in order.
    private var components: [String: [Int]] = [:]
    /// The `FREEBUSY` periods of the `VFREEBUSY`s, whose errors quote one.
    private var periods: [Property] = []
    /// The calendar's own properties (`X-WR-CALNAME`, `X-HORARI-CLOSURE`…), in order.
    private var calendarProperties: [Property] = []

    /// No lines: a calendar that was not read from one text.
    public init() {}

    /// The line the `index`-th component named `name` begins on (counted
    /// from 0 among those of that name), as `ICalendar.components` holds them.
    /// - Parameters:
    ///   - name: the component's name, such as `VJOURNAL`.
    ///   - index: its place among the components of that name.
    public func line(ofComponent name: String, index: Int) -> Int? {
        guard let lines = components[name], lines.indices.contains(index) else { return nil }
        return lines[index]
    }

    /// The line an event or task the calendar holds begins on: the series
    /// (or lone item) with this `UID` — the newer version where the text
    /// had two — or its instance changed on `recurrenceDate` (`YYYYMMDD`).
    /// - Parameters:
    ///   - uid: the item's `UID`, as the item holds it (one the importer made up, too).
    ///   - recurrenceDate: the date of a changed instance's `RECURRENCE-ID`, as written; `nil` for the series.
    public func line(ofItem uid: String, recurrenceDate: String? = nil) -> Int? {
        items[recurrenceDate.map { Self.instanceKey(uid, $0) } ?? uid]
    }

    /// The line of one of the calendar's own properties: the first of that
    /// name whose value holds `text`, else the first of that name; `nil`
    /// when the calendar has none.
    /// - Parameters:
    ///   - name: the property's name, such as `X-HORARI-CLOSURE`.
    ///   - text: part of its value, as an error quotes it.
    public func line(ofCalendarProperty name: String, holding text: String? = nil) -> Int? {
        let name = name.uppercased()
        let named = calendarProperties.filter { $0.name == name }
        return (text.flatMap { t in named.first { $0.value.contains(t) } } ?? named.first)?.line
    }

    /// The line of the `FREEBUSY` period whose value holds `text` (as a
    /// ``FreeBusyError`` quotes it), in any `VFREEBUSY`.
    /// - Parameter text: the period, or part of it.
    public func line(ofPeriod text: String) -> Int? {
        // No text names no period (a cap reached, not a period at fault).
        guard !text.isEmpty else { return nil }
        return periods.first { $0.value.contains(text) }?.line
    }

    // MARK: Noted by the importer

    /// A changed instance's key: its `UID` and date, apart (a `UID` holds no NUL).
    private static func instanceKey(_ uid: String, _ date: String) -> String { uid + "\u{0}" + date }

    /// Notes the line of an item the calendar holds (a newer version replaces the older one's).
    mutating func noteItem(_ uid: String, line: Int) { items[uid] = line }

    /// Notes the line of a changed instance, the first with its `UID` and date.
    mutating func noteInstance(_ uid: String, date: String, line: Int) {
        let key = Self.instanceKey(uid, date)
        if items[key] == nil { items[key] = line }
    }

    /// Notes a component `ICalendar.components` holds, and a `VFREEBUSY`'s periods.
    mutating func noteComponent(_ node: RawNode) {
        components[node.name, default: []].append(node.line)
        guard node.name == "VFREEBUSY" else { return }
        for (p, line) in node.properties where p.name == "FREEBUSY" {
            periods.append(Property(name: p.name, line: line, value: p.value))
        }
    }

    /// Notes one of the calendar's own properties.
    mutating func noteCalendarProperty(_ name: String, line: Int, value: String) {
        calendarProperties.append(Property(name: name, line: line, value: value))
    }
}
