import Foundation

/// The time zones one calendar defines for itself: each `TZID` its own
/// `VTIMEZONE`s give rules for, with those rules.
///
/// A zone a file defines (a custom name such as `My Office`, or a Windows
/// name with its `VTIMEZONE`) belongs to that calendar: RFC 5545 §3.2.19
/// makes the calendar's `VTIMEZONE` the definition of its `TZID`, and says
/// nothing of other calendars. So the table is a value the calendar owns
/// (`ICalendar.zones`, ``Schedule/zones``), not a registry of the process:
/// two calendars may both define `My Office`, one at +01:00 and one at
/// +05:30, and each one's times are read with its own rules, whichever was
/// read first.
///
/// A zoned time is resolved by ``rules(forTZID:)``: the table first, then
/// the system's zone data (``ZoneRules/named(_:)``). An empty table — the
/// default everywhere one is taken — resolves through the system alone, as
/// a calendar of IANA names needs.
///
/// ```swift
/// var zones = ZoneTable()
/// zones["My Office"] = ZoneRules(identifier: "My Office", fixedOffset: 19_800)
/// let nine = CalendarTime.zoned(try LocalDateTime(year: 2026, month: 3, day: 2, hour: 9), "My Office")
/// let seconds = try nine.epochSeconds(floatingZone: .utc, zones: zones)  // 03:30Z
/// ```
///
/// - Complexity: looking a `TZID` up is one dictionary look-up when the
///   table is not empty, nothing when it is; expansion resolves a series'
///   zone once, not per instance.
public struct ZoneTable: Hashable, Sendable {
    private var definitions: [String: ZoneRules]

    /// An empty table: every `TZID` resolves through the system's zone data.
    public init() { definitions = [:] }

    /// A table of the given definitions.
    ///
    /// - Parameter definitions: each `TZID` with its rules.
    public init(_ definitions: [String: ZoneRules]) { self.definitions = definitions }

    /// Whether the table defines no zone.
    public var isEmpty: Bool { definitions.isEmpty }

    /// The `TZID`s the table defines, sorted.
    public var tzids: [String] { definitions.keys.sorted() }

    /// The rules this table defines for a `TZID`, or `nil` (the system's zone
    /// data is not consulted; see ``rules(forTZID:)``). Setting `nil` removes
    /// the definition.
    ///
    /// - Parameter tzid: the `TZID` exactly as the calendar's times write it.
    public subscript(tzid: String) -> ZoneRules? {
        get { definitions.isEmpty ? nil : definitions[tzid] }
        set { definitions[tzid] = newValue }
    }

    /// The rules a zoned time in this calendar is read with: the table's own
    /// definition of the `TZID`, else the system's zone (``ZoneRules/named(_:)``,
    /// which also reads vendor-prefixed and Windows names).
    ///
    /// - Parameter tzid: the `TZID` exactly as the calendar's times write it.
    /// - Throws: ``TimeValueError/Code/unknownTimeZone`` when neither the
    ///   table nor the system knows the name.
    @inline(__always)
    public func rules(forTZID tzid: String) throws(TimeValueError) -> ZoneRules {
        if !definitions.isEmpty, let own = definitions[tzid] { return own }
        return try ZoneRules.named(tzid)
    }
}
