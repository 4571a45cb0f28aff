/// Where an imported text put a calendar's parts: the line each top-level
/// component begins on, and the line of each of the calendar's own
/// properties, as the importer numbered them while it read (CRLF, LF or a
/// bare CR; a folded line counted where it starts).
///
/// An error about a record then names its line without reading the text a
/// second time, which could find another text there (a file another process
/// saved meanwhile) and would double an import's peak memory. A result made
/// of several texts (a folder, a collection) has none: its records name
/// their resources instead.
public struct ICalendarSourceLines: Hashable, Sendable {
    /// A top-level component (`VEVENT`, `VJOURNAL`, `VFREEBUSY`…) as the text has it.
    public struct Component: Hashable, Sendable {
        /// Its name, upper case.
        public var name: String
        /// The line of its `BEGIN`, counted from 1.
        public var line: Int
        /// Its `UID`, when it has one.
        public var uid: String?
        /// The date its `RECURRENCE-ID` is written on (`YYYYMMDD`), for a changed instance.
        public var recurrenceDate: String?
        /// The lines and values of its `FREEBUSY` periods, for a `VFREEBUSY`
        /// (whose errors quote a period): empty for any other component.
        public var periods: [Property] = []
    }

    /// A content line's line number, name and value as written.
    public struct Property: Hashable, Sendable {
        /// Its name, upper case, without parameters.
        public var name: String
        /// Its line, counted from 1.
        public var line: Int
        /// Its value as written (escaped).
        public var value: String
    }

    /// The top-level components the import kept, in the text's order
    /// (time zones, events and tasks too).
    public package(set) var components: [Component] = []
    /// The calendar's own properties (`X-WR-CALNAME`, `X-HORARI-CLOSURE`…), in the text's order.
    public package(set) var calendarProperties: [Property] = []

    /// No lines: a calendar that was not read from one text.
    public init() {}

    /// The line the `index`-th component named `name` begins on (counted
    /// from 0 among those of that name), as `ICalendar.components` holds them.
    /// - Parameters:
    ///   - name: the component's name, such as `VJOURNAL`.
    ///   - index: its place among the components of that name.
    public func line(ofComponent name: String, index: Int) -> Int? {
        var seen = 0
        for c in components where c.name == name {
            if seen == index { return c.line }
            seen += 1
        }
        return nil
    }

    /// The line an event or task begins on: the series (or lone item) with
    /// this `UID`, or its instance changed on `recurrenceDate` (`YYYYMMDD`).
    /// - Parameters:
    ///   - uid: the item's `UID`.
    ///   - recurrenceDate: the date of a changed instance's `RECURRENCE-ID`; `nil` for the series.
    public func line(ofItem uid: String, recurrenceDate: String? = nil) -> Int? {
        components.first { $0.uid == uid && $0.recurrenceDate == recurrenceDate }?.line
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
        for c in components {
            if let p = c.periods.first(where: { $0.value.contains(text) }) { return p.line }
        }
        return nil
    }

    /// Notes a component the import kept.
    mutating func note(_ node: RawNode) {
        var component = Component(name: node.name, line: node.line)
        for (p, line) in node.properties {
            switch p.name {
            case "UID" where component.uid == nil: component.uid = ContentLineSyntax.unescape(p.valueText)  // as the item holds it
            case "RECURRENCE-ID" where component.recurrenceDate == nil: component.recurrenceDate = String(p.valueText.prefix(8))
            case "FREEBUSY" where node.name == "VFREEBUSY": component.periods.append(Property(name: p.name, line: line, value: p.value))
            default: break
            }
        }
        components.append(component)
    }
}
