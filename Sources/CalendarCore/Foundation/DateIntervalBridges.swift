import Foundation

// Foundation's `DateInterval` wherever a window of instants is taken, and
// `TimeInterval` beside `Duration`, the one length type of the public API.
//
// Every window in Horari is half-open, [start, end): an occurrence that starts
// exactly at the end is outside, one that ends exactly at the start too. A
// `DateInterval` is read the same way here, although its own `contains(_:)`
// counts the end in; a week's interval (Monday 00:00 to the next Monday 00:00)
// then holds seven days, not seven days and an instant.

extension Schedule {
    /// Every occurrence overlapping an interval, sorted by start, then end, then identity.
    ///
    /// ```swift
    /// let week = DateInterval(start: monday, duration: 7 * 86_400)
    /// let items = schedule.occurrences(in: week, floatingZone: .current)
    /// ```
    ///
    /// - Parameters:
    ///   - interval: the window; its end is exclusive.
    ///   - floatingZone: the zone in which all-day and floating times are placed; by default the schedule's own zone (``timeZone``), else the machine's (`ZoneRules.current`).
    public func occurrences(in interval: DateInterval, floatingZone: ZoneRules? = nil) -> [Occurrence] {
        occurrences(from: interval.start, to: interval.end, floatingZone: floatingZone)
    }

    /// Calls `body` with every occurrence overlapping an interval, in no particular order.
    ///
    /// - Parameters:
    ///   - interval: the window; its end is exclusive.
    ///   - floatingZone: the zone in which all-day and floating times are placed; by default the schedule's own zone (``timeZone``), else the machine's (`ZoneRules.current`).
    ///   - body: what to do with each occurrence.
    public func forEachOccurrence(in interval: DateInterval, floatingZone: ZoneRules? = nil, _ body: (Occurrence) -> Void) {
        forEachOccurrence(from: interval.start, to: interval.end, floatingZone: floatingZone, body)
    }

    /// The occurrences overlapping an interval, computed as they are taken, sorted.
    ///
    /// - Parameters:
    ///   - interval: the window; its end is exclusive.
    ///   - floatingZone: the zone in which all-day and floating times are placed; by default the schedule's own zone (``timeZone``), else the machine's (`ZoneRules.current`).
    public func occurrenceSequence(in interval: DateInterval, floatingZone: ZoneRules? = nil) -> OccurrenceSequence {
        occurrenceSequence(from: interval.start, to: interval.end, floatingZone: floatingZone)
    }
}

extension RecurrenceSet {
    /// The instances that start inside an interval, in order.
    ///
    /// - Parameters:
    ///   - interval: the window of starts; its end is exclusive.
    ///   - limit: the most instances to return.
    ///   - floatingZone: the zone in which all-day and floating times are read; by default the machine's (`ZoneRules.current`): RFC 5545 §3.3.5 reads a floating time on the clock of whoever reads it.
    ///   - zones: the zones the set's calendar defines for itself.
    /// - Throws: ``RecurrenceError``.
    public func instances(in interval: DateInterval, limit: Int? = nil, floatingZone: ZoneRules = .current,
                          zones: ZoneTable = ZoneTable()) throws(RecurrenceError) -> [Instance] {
        try instances(from: interval.start, to: interval.end, limit: limit, floatingZone: floatingZone, zones: zones)
    }
}

extension Occurrence {
    /// The instants it covers, from its start to its end.
    public var dateInterval: DateInterval { DateInterval(start: startInstant, end: endInstant) }

    /// How long it lasts, in exact seconds (a day over a change of clocks is 23 or 25 hours).
    public var duration: Duration { .seconds(endSeconds - startSeconds) }
}

extension Duration {
    /// A length given in Foundation's seconds, to the attosecond a `Double` holds.
    ///
    /// A length no calendar holds — infinite, or past ±2⁶² seconds — is
    /// clamped to ±2⁶² seconds; not-a-number is zero.
    ///
    /// - Parameter timeInterval: the seconds, such as `Date.timeIntervalSince(_:)` gives.
    public init(timeInterval: TimeInterval) {
        let bound = TimeInterval(Int64(1) << 62)
        self = .seconds(timeInterval.isNaN ? 0 : Swift.max(-bound, Swift.min(bound, timeInterval)))
    }

    /// The length in Foundation's seconds, for `Date.addingTimeInterval(_:)` and `DateInterval`.
    public var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

extension ItemDuration {
    /// An exact length given in Foundation's seconds (no nominal days), to the second.
    ///
    /// - Parameter timeInterval: the seconds; fractions are dropped.
    public init(timeInterval: TimeInterval) { self.init(Duration(timeInterval: timeInterval)) }
}
