import CalendarCore
import Foundation

/// What is coming: occurrences from a date onward, ascending, grouped by
/// month, a page at a time.
///
/// ```swift
/// let options = ListView.Options(timeZone: try .named("Europe/Madrid"), limit: 20)
/// var page = ListView(from: try LocalDate(year: 2026, month: 11, day: 22), schedule: schedule, options: options)
/// while let next = page.nextPage {
///     page = ListView(after: next, schedule: schedule, options: options)
/// }
/// ```
///
/// "Onward" means occurrences that *start* on or after the date (at its
/// midnight in the display zone): a list of what is coming, so something
/// already under way is not repeated at the top of every page. The order is
/// the schedule's (start, then end, then identity), a total order, so pages
/// neither repeat nor skip an occurrence, however many start at the same
/// minute.
///
/// The search looks ahead in growing windows (a month, then doubling) until
/// the page is full or ``Options/lookaheadDays`` have been searched without
/// filling it, so the cost follows the occurrences shown, not the schedule.
///
/// Given the schedule's `ItemTree` (``Options/tree``), an occurrence of an
/// item that is part of another (a match of a round, `RELATED-TO`) carries
/// its ``DisplayOccurrence/parent`` and ``DisplayOccurrence/ordinal``, so
/// that an app can show it under its parent; the order stays the schedule's.
public struct ListView: Hashable, Sendable, Codable {
    /// What a list shows and how far it looks.
    public struct Options: Hashable, Sendable, DisplayZoneOptions {
        /// The display zone: its wall clock decides which day and hour an
        /// occurrence is shown at.
        ///
        /// `nil` (the default) shows the schedule's own calendar zone
        /// (`Schedule.timeZone`); a schedule that has none holds
        /// only all-day, floating and UTC times, and is shown on UTC, where
        /// each reads as written. The machine's zone is never used unless the
        /// caller passes it. See ``timeZone(for:)``.
        public var timeZone: ZoneRules?
        /// The most occurrences on a page.
        public var limit: Int
        /// How far past a page's start the search goes, in days (default ten years).
        public var lookaheadDays: Int
        /// The words to use.
        public var names: CalendarNames
        /// Which items are part of which (ICalendarKit's `ItemTree(schedule)`
        /// reads it from the items' `RELATED-TO`); given, each occurrence of
        /// a part carries its ``DisplayOccurrence/parent`` and
        /// ``DisplayOccurrence/ordinal``. `nil` by default.
        public var tree: ItemTree?

        /// Creates options.
        public init(timeZone: ZoneRules? = nil, limit: Int = 50, lookaheadDays: Int = 3653, names: CalendarNames = .english, tree: ItemTree? = nil) {
            self.timeZone = timeZone
            self.limit = limit
            self.lookaheadDays = lookaheadDays
            self.names = names
            self.tree = tree
        }
    }

    /// The place of an occurrence in the list's order, where the next (or
    /// previous) page continues from.
    public struct Cursor: Hashable, Sendable, Codable {
        /// Unix seconds of the occurrence's start.
        public var startSeconds: Int64
        /// Unix seconds of its end.
        public var endSeconds: Int64
        /// Its identity.
        public var id: Occurrence.ID

        /// The cursor of an occurrence (of the schedule: an all-day
        /// occurrence's instants are the list zone's midnights, which a
        /// ``DisplayOccurrence`` does not keep).
        public init(_ occurrence: Occurrence) {
            startSeconds = occurrence.startSeconds
            endSeconds = occurrence.endSeconds
            id = occurrence.id
        }

        /// The fields a token carries, with short keys.
        private struct Fields: Codable {
            var s: Int64
            var e: Int64
            var u: String
            var r: CalendarTime?
        }

        /// An opaque text that ``init(token:)`` reads back: what an app
        /// passes to the next request (`horari list --page TOKEN`). It is
        /// URL-safe base64 with no padding, and stays the same for the same
        /// place in the list.
        public var token: String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let data = (try? encoder.encode(Fields(s: startSeconds, e: endSeconds, u: id.uid, r: id.recurrenceID))) ?? Data()
            return data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }

        /// Reads a ``token``; `nil` for a text that is not one, or whose
        /// times lie outside the years 1 to 9999 (a page's arithmetic on a
        /// forged one would overflow).
        public init?(token: String) {
            var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            guard let data = Data(base64Encoded: base64), let f = try? JSONDecoder().decode(Fields.self, from: data) else { return nil }
            let years = Int64(-62_135_596_800)...Int64(253_402_300_799)  // 0001-01-01 … 9999-12-31T23:59:59Z
            guard years.contains(f.s), years.contains(f.e) else { return nil }
            (startSeconds, endSeconds, id) = (f.s, f.e, Occurrence.ID(uid: f.u, recurrenceID: f.r))
        }

        /// Decodes a ``token`` string.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            guard let cursor = Cursor(token: try c.decode(String.self)) else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "not a page token of horari's list")
            }
            self = cursor
        }

        /// Encodes the ``token`` string.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            try c.encode(token)
        }
    }

    /// The occurrences of one month.
    public struct Section: Hashable, Sendable, Codable {
        /// The year.
        public var year: Int
        /// The month, 1 through 12.
        public var month: Int
        /// The month and year as the locale titles them ("November 2026").
        public var title: String
        /// The month's occurrences, ascending.
        public var occurrences: [DisplayOccurrence]
    }

    /// The months of this page, ascending.
    public let sections: [Section]
    /// Where the next page starts, or `nil` when nothing more was found
    /// within the lookahead.
    public let nextPage: Cursor?
    /// Where the page before this one ends (this page's first occurrence),
    /// for ``init(before:schedule:options:)``; `nil` when nothing comes
    /// before this page within the lookahead, or the page is empty. (A
    /// position, not a direction: on a page of one occurrence it is the
    /// same token as ``nextPage``, which goes to ``init(after:schedule:options:)``.)
    public let previousPage: Cursor?

    /// Every occurrence on the page, in order.
    public var occurrences: [DisplayOccurrence] { sections.flatMap(\.occurrences) }

    /// The first page: occurrences starting on or after `date`.
    public init(from date: LocalDate, schedule: Schedule, options: Options = Options()) {
        let start = options.timeZone(for: schedule).instant(forWall: Int64(date.dayNumber) * 86_400)
        self.init(schedule: schedule, options: options, forwardFrom: start, after: nil)
    }

    /// The first page of the occurrences that start inside an interval of
    /// instants, such as the one a date-range picker gives.
    ///
    /// The interval's end is exclusive, as every window in Horari is (an
    /// occurrence starting exactly at `interval.end` is not listed); it
    /// takes the place of ``Options/lookaheadDays``. Pages after this one
    /// (``nextPage``) look ahead as far as the options say.
    ///
    /// - Parameters:
    ///   - interval: the instants to list, such as a week's `DateInterval`.
    ///   - schedule: the schedule.
    ///   - options: the zone, page size and names.
    public init(in interval: DateInterval, schedule: Schedule, options: Options = Options()) {
        self.init(schedule: schedule, options: options, forwardFrom: interval.start.clampedEpochSeconds, after: nil,
                  until: interval.end.clampedEpochSecondsRoundedUp)
    }

    /// The page after `cursor`.
    public init(after cursor: Cursor, schedule: Schedule, options: Options = Options()) {
        self.init(schedule: schedule, options: options, forwardFrom: cursor.startSeconds, after: cursor)
    }

    /// The page before `cursor`: the `limit` occurrences that come just before it.
    public init(before cursor: Cursor, schedule: Schedule, options: Options = Options()) {
        let limit = max(0, options.limit)
        let zone = options.timeZone(for: schedule)
        let horizon = cursor.startSeconds - Int64(max(0, options.lookaheadDays)) * 86_400
        var found: [Occurrence] = []
        var width: Int64 = 31 * 86_400
        var windowEnd = cursor.startSeconds + 1
        // Windows going back; each holds the occurrences that start inside it,
        // of which only the last `limit + 1` are kept as they are expanded (a
        // month of an event every second is 2.7 million, issue 42, 3).
        while found.count <= limit, windowEnd > horizon {
            let windowStart = max(horizon, windowEnd - width)
            var batch: [Occurrence] = []
            for o in schedule.occurrenceSequence(from: Date(epochSeconds: windowStart), to: Date(epochSeconds: windowEnd), floatingZone: zone)
            where o.startSeconds >= windowStart && o.startSeconds < windowEnd && Self.comes(o, before: cursor) {
                // Cut back when twice what is kept: one shift per page, not one per occurrence.
                if batch.count >= 2 * (limit + 1) { batch.removeFirst(batch.count - limit - 1) }
                batch.append(o)
            }
            found = batch.suffix(limit + 1) + found
            windowEnd = windowStart
            width *= 2
        }
        self.init(page: Array(found.suffix(limit)), zone: zone, more: found.count > limit, forward: false, options: options)
    }

    /// Whether any occurrence comes before the cursor's within `days`:
    /// windows going back, as ``init(before:schedule:options:)`` takes
    /// them, stopping at the first found.
    private static func anyBefore(_ cursor: Cursor, schedule: Schedule, zone: ZoneRules, days: Int) -> Bool {
        let horizon = cursor.startSeconds - Int64(max(0, days)) * 86_400
        var width: Int64 = 31 * 86_400
        var windowEnd = cursor.startSeconds + 1
        while windowEnd > horizon {
            let windowStart = max(horizon, windowEnd - width)
            // Expanded as it is read, stopping at the first found: a window
            // whole was 2.7 million occurrences and 500 MB for an event
            // every second (issue 42, 3).
            let batch = schedule.occurrenceSequence(from: Date(epochSeconds: windowStart), to: Date(epochSeconds: windowEnd), floatingZone: zone)
            if batch.contains(where: { $0.startSeconds >= windowStart && $0.startSeconds < windowEnd && comes($0, before: cursor) }) { return true }
            windowEnd = windowStart
            width *= 2
        }
        return false
    }

    private init(schedule: Schedule, options: Options, forwardFrom start: Int64, after cursor: Cursor?, until end: Int64? = nil) {
        let limit = max(0, options.limit)
        let zone = options.timeZone(for: schedule)
        let horizon = end ?? start + Int64(max(0, options.lookaheadDays)) * 86_400
        // The schedule's occurrences in order, computed as they are taken:
        // a page costs its own occurrences (and one more, to know whether
        // there are more), not the lookahead's.
        var found: [Occurrence] = []
        var occurrences = schedule.occurrenceSequence(from: Date(epochSeconds: start), to: Date(epochSeconds: horizon), floatingZone: zone).makeIterator()
        while found.count <= limit, let o = occurrences.next() {
            // Only what starts inside: one already under way belongs to an earlier page.
            guard o.startSeconds >= start, o.startSeconds < horizon, cursor.map({ Self.comes(o, after: $0) }) ?? true else { continue }
            found.append(o)
        }
        let page = Array(found.prefix(limit))
        let earlier = page.first.map { Self.anyBefore(Cursor($0), schedule: schedule, zone: zone, days: options.lookaheadDays) } ?? false
        self.init(page: page, zone: zone, more: found.count > limit, forward: true, earlier: earlier, options: options)
    }

    /// - Parameters:
    ///   - more: whether more comes after the page (going forward) or before it (going back).
    ///   - earlier: going forward, whether anything comes before the page.
    private init(page: [Occurrence], zone: ZoneRules, more: Bool, forward: Bool, earlier: Bool = true, options: Options) {
        var sections: [Section] = []
        for o in page.map({ DisplayOccurrence($0, in: zone, tree: options.tree) }) {
            let date = o.start.date
            if let last = sections.last, last.year == date.year, last.month == date.month {
                sections[sections.count - 1].occurrences.append(o)
            } else {
                sections.append(Section(year: date.year, month: date.month, title: options.names.monthTitle(year: date.year, month: date.month),
                                        occurrences: [o]))
            }
        }
        self.sections = sections
        // Going forward, "more" means more after the page; going back, more before it.
        nextPage = forward ? (more ? page.last.map(Cursor.init) : nil) : page.last.map(Cursor.init)
        previousPage = (forward ? earlier : more) ? page.first.map(Cursor.init) : nil
    }

    /// Whether `o` comes after the cursor's occurrence in the schedule's order.
    static func comes(_ o: Occurrence, after cursor: Cursor) -> Bool {
        Occurrence.precedes((cursor.startSeconds, cursor.endSeconds, cursor.id), (o.startSeconds, o.endSeconds, o.id))
    }

    /// Whether `o` comes before the cursor's occurrence in the schedule's order.
    static func comes(_ o: Occurrence, before cursor: Cursor) -> Bool {
        Occurrence.precedes((o.startSeconds, o.endSeconds, o.id), (cursor.startSeconds, cursor.endSeconds, cursor.id))
    }
}
