import Foundation

/// One occurrence of a calendar item in time: a single item, or one instance
/// of a recurring series (with any override applied).
public struct Occurrence: Hashable, Sendable, Identifiable {
    /// The stable identity of an occurrence: the item's `UID` and, for an
    /// instance of a series, its recurrence ID in the series' own zone.
    ///
    /// It never changes when the instance is moved, and never depends on
    /// the viewer's zone, so bookings and selections can hold on to it.
    public struct ID: Hashable, Sendable, Codable, CustomStringConvertible {
        /// The item's `UID`.
        public var uid: String
        /// The instance's `RECURRENCE-ID`; `nil` for an item that does not repeat.
        public var recurrenceID: CalendarTime?

        /// Creates an identity.
        public init(uid: String, recurrenceID: CalendarTime?) {
            self.uid = uid
            self.recurrenceID = recurrenceID
        }

        private enum CodingKeys: String, CodingKey {
            case uid
            case recurrenceID = "recurrenceId"
        }

        /// `uid` or `uid@recurrence-id`.
        public var description: String { recurrenceID.map { "\(uid)@\($0.icalValue)" } ?? uid }
    }

    /// The identity.
    public let id: ID
    /// The item's fields for this occurrence (an override's fields where one applies).
    public let item: CalendarItem
    /// When it starts, in the item's kind of time.
    public let start: CalendarTime
    /// When it ends (exclusive); equal to ``start`` for an instant.
    public let end: CalendarTime
    /// Unix seconds of ``start``.
    public let startSeconds: Int64
    /// Unix seconds of ``end``.
    public let endSeconds: Int64

    /// The instant it starts.
    public var startInstant: Date { Date(timeIntervalSince1970: TimeInterval(startSeconds)) }
    /// The instant it ends.
    public var endInstant: Date { Date(timeIntervalSince1970: TimeInterval(endSeconds)) }
    /// Whether it is an all-day occurrence.
    public var isAllDay: Bool { start.isDate }

    /// Creates an occurrence.
    public init(id: ID, item: CalendarItem, start: CalendarTime, end: CalendarTime, startSeconds: Int64, endSeconds: Int64) {
        self.id = id
        self.item = item
        self.start = start
        self.end = end
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
    }

    /// Whether `x` comes before `y` in a schedule's order: start, then end,
    /// then `UID`, then recurrence ID — a total order that builds no strings.
    public static func precedes(_ x: Occurrence, _ y: Occurrence) -> Bool {
        precedes((x.startSeconds, x.endSeconds, x.id), (y.startSeconds, y.endSeconds, y.id))
    }

    /// The same order on the parts that decide it, for a position kept
    /// without its occurrence (a list's page cursor, say).
    public static func precedes(_ x: (start: Int64, end: Int64, id: ID), _ y: (start: Int64, end: Int64, id: ID)) -> Bool {
        if x.start != y.start { return x.start < y.start }
        if x.end != y.end { return x.end < y.end }
        if x.id.uid != y.id.uid { return x.id.uid < y.id.uid }
        return (x.id.recurrenceID?.wallTime.localSeconds ?? .min) < (y.id.recurrenceID?.wallTime.localSeconds ?? .min)
    }

    /// Whether it overlaps `[from, to)` (an instant overlaps when it lies inside).
    func overlaps(_ from: Int64, _ to: Int64) -> Bool {
        endSeconds > startSeconds ? startSeconds < to && endSeconds > from : startSeconds >= from && startSeconds < to
    }
}
