import CalendarCore
import Foundation

/// What a day cell shows about the items on it: nothing, one item's colour, or
/// that there are several (drawn red — the colour `ItemColor` reserves for it).
public enum DayMarker: Hashable, Sendable, Codable {
    /// No item touches the day.
    case none
    /// Exactly one occurrence touches the day: its item's colour, or the
    /// view's colour for items without one (``MonthView/Options/uncolored``),
    /// so every item marks its day — as `ItemColor.displayed` draws it:
    /// a colour in the red family becomes `ItemColor.redStandIn`, since red
    /// means several.
    case single(ItemColor)
    /// Two or more occurrences touch the day (same colour or not): drawn red.
    /// Done tasks are not counted (nor do they make a day ``single(_:)``).
    case several(count: Int)

    private enum CodingKeys: String, CodingKey { case kind, color, count }

    /// Decodes `{"kind": "none"}`, `{"kind": "single", "color": …}` or `{"kind": "several", "count": 2}`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .kind) {
        case "none": self = .none
        case "single": self = .single(try c.decode(ItemColor.self, forKey: .color))
        case "several": self = .several(count: try c.decode(Int.self, forKey: .count))
        case let other: throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "‘\(other)’ is not none, single or several")
        }
    }

    /// Encodes `{"kind": …}` with the colour of a single item or the count of several.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .none: try c.encode("none", forKey: .kind)
        case .single(let color):
            try c.encode("single", forKey: .kind)
            try c.encode(color, forKey: .color)
        case .several(let count):
            try c.encode("several", forKey: .kind)
            try c.encode(count, forKey: .count)
        }
    }

    /// The colour to draw: the item's (or the uncoloured items' colour), red for several, `nil` for none.
    public var color: ItemColor? {
        switch self {
        case .none: nil
        case .single(let c): c
        case .several: .red
        }
    }
}

/// The days an occurrence covers in a display time zone, as day numbers
/// (days since 1970-01-01), end exclusive.
///
/// An all-day occurrence covers its dates as written (`DTEND` is exclusive,
/// RFC 5545 §3.6.1), whatever the display zone. A timed one covers every day
/// its instants touch on the display zone's wall clock: an event from 22:00 to
/// 02:00 covers two days; one ending exactly at midnight does not reach the
/// next day; an instant (no length) covers its one day.
func coveredDays(_ o: Occurrence, in zone: ZoneRules) -> Range<Int> {
    coveredDays(Schedule.Extent(o), in: zone)
}

/// The day number of a wall time in seconds since 1970-01-01T00:00.
func floorDay(_ wallSeconds: Int64) -> Int {
    Int(wallSeconds >= 0 ? wallSeconds / 86_400 : (wallSeconds - 86_399) / 86_400)
}

/// The days an occurrence's extent covers in a display time zone (the rule
/// of ``coveredDays(_:in:)``, which reads it from an `Occurrence`'s extent).
func coveredDays(_ x: Schedule.Extent, in zone: ZoneRules) -> Range<Int> {
    if let days = x.allDayDays { return days }
    let first = floorDay(zone.wall(atInstant: x.startSeconds))
    let lastInstant = x.endSeconds > x.startSeconds ? x.endSeconds - 1 : x.startSeconds
    return first..<(max(first, floorDay(zone.wall(atInstant: lastInstant))) + 1)
}

/// The occurrences touching each day of `days`, counted and coloured.
///
/// Done tasks and cancelled items are left out: a day's mark answers "what
/// is still to do that day", so a day with one class and a finished essay,
/// or a cancelled session, shows the class's colour, not red (the
/// CalendarViews article, "Done tasks").
///
/// One unsorted visit of the range's occurrences, as extents (no
/// `Occurrence` is built for a plain series): the cost follows the
/// occurrences in range, not the schedule's size.
func markers(for days: Range<Int>, schedule: Schedule, zone: ZoneRules, uncolored: ItemColor) -> [DayMarker] {
    guard !days.isEmpty else { return [] }
    var counts = [Int](repeating: 0, count: days.count)
    var colors = [ItemColor?](repeating: nil, count: days.count)
    schedule.forEachExtent(fromDay: LocalDate(dayNumber: days.lowerBound), toDay: LocalDate(dayNumber: days.upperBound), in: zone) { x in
        guard x.counts else { return }
        let covered = coveredDays(x, in: zone).clamped(to: days)
        for d in covered {
            counts[d - days.lowerBound] += 1
            colors[d - days.lowerBound] = x.color
        }
    }
    return zip(counts, colors).map { count, color in
        switch count {
        case 0: .none
        case 1: .single((color ?? uncolored).displayed)
        default: .several(count: count)
        }
    }
}
