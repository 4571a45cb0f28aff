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
    /// The colour to draw it in, if its item has one: the item's own, or
    /// `ItemColor.redStandIn` for one in the red family, which marks busy
    /// days only (`ItemColor.displayed`). The item keeps its own colour:
    /// `schedule.item(uid: id.uid)?.color`.
    public let color: ItemColor?
    /// Where it takes place, if the item says.
    public let location: String?
    /// Whether it is a task marked done (`STATUS:COMPLETED`).
    public let isDone: Bool
    /// Whether it is cancelled (`STATUS:CANCELLED`, `CalendarItem.isCancelled`):
    /// shown marked, and never counted toward its day.
    public let isCancelled: Bool
    /// Whether it is an all-day occurrence (its times are then midnights).
    public let isAllDay: Bool
    /// When it starts on the display zone's wall clock.
    public let start: LocalDateTime
    /// When it ends (exclusive) on the display zone's wall clock; equal to
    /// ``start`` for an instant.
    public let end: LocalDateTime
    /// Unix seconds of the start; for an all-day occurrence, its first
    /// date's midnight read as UTC (a date names no instant, RFC 5545 §3.3.4).
    public let startSeconds: Int64
    /// Unix seconds of the end; for an all-day occurrence, the midnight
    /// after its last date read as UTC.
    public let endSeconds: Int64
    /// The `UID` of the item this one is part of (a match's round,
    /// `ItemTree.parent(of:)`); set by ``ListView`` given the schedule's
    /// tree (``ListView/Options/tree``), `nil` in the other views.
    public let parent: String?
    /// Its place among its parent's children, from 1 (a round's number in
    /// its league, `ItemTree.ordinal(of:)`); set by ``ListView``.
    public let ordinal: Int?

    /// The occurrence read in `zone`. An all-day occurrence keeps its dates
    /// as written, whatever the zone (RFC 5545 §3.6.1).
    public init(_ occurrence: Occurrence, in zone: ZoneRules) {
        self.init(occurrence, in: zone, tree: nil)
    }

    /// The occurrence read in `zone`, with its place in `tree`.
    init(_ occurrence: Occurrence, in zone: ZoneRules, tree: ItemTree?) {
        id = occurrence.id
        parent = tree?.parent(of: occurrence.id.uid)
        ordinal = tree?.ordinal(of: occurrence.id.uid)
        kind = occurrence.item.kind
        title = occurrence.item.title
        color = occurrence.item.color?.displayed
        location = occurrence.item.location
        isDone = occurrence.item.isDone
        isCancelled = occurrence.item.isCancelled
        isAllDay = occurrence.isAllDay
        if occurrence.isAllDay {
            start = occurrence.start.wallTime
            end = occurrence.end.isDate ? occurrence.end.wallTime : LocalDateTime(localSeconds: occurrence.start.wallTime.localSeconds + 86_400)
            (startSeconds, endSeconds) = (start.localSeconds, end.localSeconds)
        } else {
            start = LocalDateTime(localSeconds: zone.wall(atInstant: occurrence.startSeconds))
            end = LocalDateTime(localSeconds: zone.wall(atInstant: occurrence.endSeconds))
            (startSeconds, endSeconds) = (occurrence.startSeconds, occurrence.endSeconds)
        }
    }

    private enum CodingKeys: String, CodingKey { case uid, recurrenceId, kind, title, color, location, done, cancelled, allDay, start, end, parent, ordinal }

    /// Decodes what ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = Occurrence.ID(uid: try c.decode(String.self, forKey: .uid), recurrenceID: try c.decodeIfPresent(CalendarTime.self, forKey: .recurrenceId))
        kind = try c.decode(CalendarItem.Kind.self, forKey: .kind)
        title = try c.decode(String.self, forKey: .title)
        color = try c.decodeIfPresent(ItemColor.self, forKey: .color)
        location = try c.decodeIfPresent(String.self, forKey: .location)
        isDone = try c.decodeIfPresent(Bool.self, forKey: .done) ?? false
        isCancelled = try c.decodeIfPresent(Bool.self, forKey: .cancelled) ?? false
        isAllDay = try c.decode(Bool.self, forKey: .allDay)
        parent = try c.decodeIfPresent(String.self, forKey: .parent)
        ordinal = try c.decodeIfPresent(Int.self, forKey: .ordinal)
        let a = try c.decode(String.self, forKey: .start), b = try c.decode(String.self, forKey: .end)
        do throws(TimeValueError) {
            if isAllDay {
                let (s, e) = (try ISOText.date(a), try ISOText.date(b))
                (start, end) = (LocalDateTime(localSeconds: Int64(s.dayNumber) * 86_400), LocalDateTime(localSeconds: Int64(e.dayNumber) * 86_400))
                (startSeconds, endSeconds) = (start.localSeconds, end.localSeconds)
            } else {
                let (s, e) = (try ISOText.instant(a), try ISOText.instant(b))
                (start, startSeconds, end, endSeconds) = (s.wall, s.seconds, e.wall, e.seconds)
            }
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .start, in: c, debugDescription: error.message)
        }
    }

    /// Encodes the occurrence as schema 1 of `Docs/JSONSchema.md` has it:
    /// `uid` (and `recurrenceId` in a series), `kind`, `title`, `color`,
    /// `location`, `done`, `cancelled` (only when true), `allDay`, and `start` and `end` — dates
    /// (`2026-11-28`, the end exclusive) for an all-day occurrence, else
    /// times with their offset on the view's clock (`2026-11-25T08:00:00+01:00`);
    /// then, for a part of another item, `parent` and `ordinal`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id.uid, forKey: .uid)
        try c.encodeIfPresent(id.recurrenceID, forKey: .recurrenceId)
        try c.encode(kind, forKey: .kind)
        try c.encode(title, forKey: .title)
        try c.encodeIfPresent(color, forKey: .color)
        try c.encodeIfPresent(location, forKey: .location)
        try c.encode(isDone, forKey: .done)
        // Written only when true, so that every other occurrence reads as before.
        if isCancelled { try c.encode(true, forKey: .cancelled) }
        try c.encode(isAllDay, forKey: .allDay)
        if isAllDay {
            try c.encode(start.date.description, forKey: .start)
            try c.encode(end.date.description, forKey: .end)
        } else {
            try c.encode(ISOText.instant(wall: start, seconds: startSeconds), forKey: .start)
            try c.encode(ISOText.instant(wall: end, seconds: endSeconds), forKey: .end)
        }
        try c.encodeIfPresent(parent, forKey: .parent)
        try c.encodeIfPresent(ordinal, forKey: .ordinal)
    }
}

/// The occurrences touching each of `days` (day numbers) in a display zone,
/// each day's in the schedule's order (start, end, identity), expanded as
/// they are placed: at most `limitPerSeries` of any one series, whose
/// `UID` is then in `capped` (in the order the series reached it), and its
/// rule is expanded no further. A single item is never cut.
func occurrencesByDay(_ days: Range<Int>, schedule: Schedule, zone: ZoneRules, limitPerSeries: Int) -> (byDay: [[Occurrence]], capped: [String]) {
    var byDay = [[Occurrence]](repeating: [], count: days.count)
    guard !days.isEmpty else { return (byDay, []) }
    let read = schedule.occurrences(fromDay: LocalDate(dayNumber: days.lowerBound), toDay: LocalDate(dayNumber: days.upperBound), in: zone,
                                    limitPerSeries: limitPerSeries)
    for o in read.occurrences {
        for d in coveredDays(o, in: zone).clamped(to: days) { byDay[d - days.lowerBound].append(o) }
    }
    return (byDay, read.capped)
}

extension DisplayOccurrence {
    /// Appends the occurrence as `JSONEncoder` writes it with
    /// `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`, every line
    /// after the first indented by `indent` more spaces: the same bytes,
    /// written directly (tested against the encoder on Linux, whose
    /// Foundation writes `\u00xx` in lower case and leaves `/`, DEL and
    /// U+2028 as they are), for a document of many occurrences streamed one
    /// at a time. On Apple platforms the bytes are the same valid JSON,
    /// though that Foundation's encoder may write some escapes otherwise. The encoder's machinery per
    /// occurrence cost seven times the bytes' own writing (issue 42, 4).
    /// - Parameters:
    ///   - out: the bytes to append to.
    ///   - indent: the spaces before each line after the first.
    package func appendJSON(to out: inout [UInt8], indent: Int) {
        var first = true
        func key(_ name: StaticString) {
            if !first { out.append(0x2C) }
            first = false
            out.append(0x0A)
            out.append(contentsOf: repeatElement(0x20, count: indent + 2))
            out.append(0x22)
            out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            out.append(contentsOf: "\" : ".utf8)
        }
        func quoted(_ write: (inout [UInt8]) -> Void) {
            out.append(0x22)
            write(&out)
            out.append(0x22)
        }
        out.append(0x7B)
        key("allDay")
        out.append(contentsOf: (isAllDay ? "true" : "false").utf8)
        if isCancelled {
            key("cancelled")
            out.append(contentsOf: "true".utf8)
        }
        if let color {
            key("color")
            out.append(0x7B)
            out.append(0x0A)
            out.append(contentsOf: repeatElement(0x20, count: indent + 4))
            out.append(contentsOf: "\"hex\" : ".utf8)
            ISOText.appendJSONString(color.rgb.hex, to: &out)
            if let name = color.cssName {
                out.append(0x2C)
                out.append(0x0A)
                out.append(contentsOf: repeatElement(0x20, count: indent + 4))
                out.append(contentsOf: "\"name\" : ".utf8)
                ISOText.appendJSONString(name, to: &out)
            }
            out.append(0x0A)
            out.append(contentsOf: repeatElement(0x20, count: indent + 2))
            out.append(0x7D)
        }
        key("done")
        out.append(contentsOf: (isDone ? "true" : "false").utf8)
        key("end")
        quoted { isAllDay ? ISOText.append(end.date, to: &$0) : ISOText.appendInstant(wall: end, seconds: endSeconds, to: &$0) }
        key("kind")
        ISOText.appendJSONString(kind.rawValue, to: &out)
        if let location {
            key("location")
            ISOText.appendJSONString(location, to: &out)
        }
        if let recurrenceID = id.recurrenceID {
            key("recurrenceId")
            if case .zoned = recurrenceID {
                // A zone's name is a TZID's text, which may hold anything: escaped.
                ISOText.appendJSONString(recurrenceID.isoText, to: &out)
            } else {
                quoted { ISOText.append(recurrenceID, to: &$0) }
            }
        }
        key("start")
        quoted { isAllDay ? ISOText.append(start.date, to: &$0) : ISOText.appendInstant(wall: start, seconds: startSeconds, to: &$0) }
        key("title")
        ISOText.appendJSONString(title, to: &out)
        key("uid")
        ISOText.appendJSONString(id.uid, to: &out)
        out.append(0x0A)
        out.append(contentsOf: repeatElement(0x20, count: indent))
        out.append(0x7D)
    }

}
