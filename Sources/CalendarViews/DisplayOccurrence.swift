import CalendarCore
import Foundation

/// An occurrence as a view shows it: its identity, what to draw, and its
/// times on the display zone's wall clock.
///
/// Views hold this rather than `Occurrence` so that they stay small when
/// encoded (an occurrence of a series carries the whole series, with every
/// rule and override) and so that drawing needs no time-zone work: the times
/// are already read in the zone the view was made for. The full item is one
/// lookup away: `schedule.item(uid: entry.id.uid)`.
public struct DisplayOccurrence: Hashable, Sendable, Codable, Identifiable {
    /// The occurrence's identity (its `UID` and, in a series, its recurrence ID).
    public let id: Occurrence.ID
    /// Event or task.
    public let kind: CalendarItem.Kind
    /// The item's title.
    public let title: String
    /// The item's colour, if it has one.
    public let color: ItemColor?
    /// Where it takes place, if the item says.
    public let location: String?
    /// Whether it is a task marked done (`STATUS:COMPLETED`).
    public let isDone: Bool
    /// Whether it is an all-day occurrence (its times are then midnights).
    public let isAllDay: Bool
    /// When it starts on the display zone's wall clock.
    public let start: LocalDateTime
    /// When it ends (exclusive) on the display zone's wall clock; equal to
    /// ``start`` for an instant.
    public let end: LocalDateTime
    /// Unix seconds of the start.
    public let startSeconds: Int64
    /// Unix seconds of the end.
    public let endSeconds: Int64

    /// The occurrence read in `zone`. An all-day occurrence keeps its dates
    /// as written, whatever the zone (RFC 5545 §3.6.1).
    public init(_ occurrence: Occurrence, zone: ZoneRules) {
        id = occurrence.id
        kind = occurrence.item.kind
        title = occurrence.item.title
        color = occurrence.item.color
        location = occurrence.item.location
        isDone = occurrence.item.isDone
        isAllDay = occurrence.isAllDay
        if occurrence.isAllDay {
            start = occurrence.start.wallTime
            end = occurrence.end.isDate ? occurrence.end.wallTime : LocalDateTime(localSeconds: occurrence.start.wallTime.localSeconds + 86_400)
        } else {
            start = LocalDateTime(localSeconds: zone.wall(atInstant: occurrence.startSeconds))
            end = LocalDateTime(localSeconds: zone.wall(atInstant: occurrence.endSeconds))
        }
        startSeconds = occurrence.startSeconds
        endSeconds = occurrence.endSeconds
    }
}

/// The occurrences touching each of `days` (day numbers) in a display zone,
/// each day's in the schedule's order (start, end, identity).
func occurrencesByDay(_ days: Range<Int>, schedule: Schedule, zone: ZoneRules) -> [[Occurrence]] {
    var byDay = [[Occurrence]](repeating: [], count: days.count)
    guard !days.isEmpty else { return byDay }
    let all = schedule.occurrences(fromDay: LocalDate(dayNumber: days.lowerBound), toDay: LocalDate(dayNumber: days.upperBound), in: zone)
    for o in all {
        for d in coveredDays(o, in: zone).clamped(to: days) { byDay[d - days.lowerBound].append(o) }
    }
    return byDay
}
