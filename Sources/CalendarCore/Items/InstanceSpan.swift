import Foundation

/// The length of an item's instances, computed once per item and applied to
/// each instance: with an explicit end the same *exact* duration applies to
/// every instance; with a `DURATION` the same *nominal* one (RFC 5545 §3.8.5.3).
struct InstanceSpan {
    private enum Kind {
        /// No end: one day for an all-day start, an instant otherwise (§3.6.1).
        case unspecified
        /// An explicit end: the master's own end, and its exact length
        /// (whole days for an all-day start, seconds otherwise).
        case explicit(end: CalendarTime, endSeconds: Int64, days: Int, seconds: Int64)
        /// A `DURATION`.
        case nominal(ItemDuration)
    }

    private let kind: Kind
    private let masterStart: CalendarTime
    let floatingZone: ZoneRules
    /// The calendar's own zones, for an end or a shifted time in another zone than the start's.
    let zones: ZoneTable
    /// The zone of a zoned start, resolved once: instances of a series share
    /// it, and looking a zone up by name for each instance cost a fifth of a
    /// month view's time (measured with `perf`, HorariBench --views-only).
    private let startZone: ZoneRules?

    init(_ item: CalendarItem, floatingZone: ZoneRules, zones: ZoneTable) {
        masterStart = item.start
        self.floatingZone = floatingZone
        self.zones = zones
        if case .zoned(_, let id) = item.start { startZone = try? zones.rules(forTZID: id) } else { startZone = nil }
        switch item.end {
        case .none: kind = .unspecified
        case .duration(let d): kind = .nominal(d)
        case .at(let endTime):
            let base = (try? item.start.epochSeconds(floatingZone: floatingZone, zones: zones)) ?? 0
            let endSeconds = (try? endTime.epochSeconds(floatingZone: floatingZone, zones: zones)) ?? base
            kind = .explicit(end: endTime, endSeconds: endSeconds, days: item.start.localDate.days(to: endTime.localDate), seconds: endSeconds - base)
        }
    }

    /// Every instance's length in exact seconds, when it does not depend on
    /// the instance: a timed start with no end, an explicit end, or a
    /// `DURATION` without days. `nil` for all-day starts and nominal days,
    /// which follow the wall clock.
    var exactSeconds: Int64? {
        if masterStart.isDate { return nil }
        switch kind {
        case .unspecified: return 0
        case .explicit(_, _, _, let seconds): return seconds
        case .nominal(let d): return d.days == 0 ? Int64(d.seconds) : nil
        }
    }

    /// The end of an instance that starts at `instanceStart` (Unix seconds
    /// `startSeconds`), and the instant it falls on.
    func end(startingAt instanceStart: CalendarTime, startSeconds: Int64) -> (CalendarTime, Int64) {
        switch kind {
        case .unspecified:
            guard instanceStart.isDate else { return (instanceStart, startSeconds) }
            let next = CalendarTime.date(instanceStart.localDate.adding(days: 1))
            return (next, (try? next.epochSeconds(floatingZone: floatingZone)) ?? startSeconds + 86_400)
        case .explicit(let endTime, let endSeconds, let days, let length):
            if instanceStart == masterStart { return (endTime, endSeconds) }
            if instanceStart.isDate {
                let e = CalendarTime.date(instanceStart.localDate.adding(days: days))
                return (e, (try? e.epochSeconds(floatingZone: floatingZone)) ?? startSeconds + Int64(days) * 86_400)
            }
            return (shifted(instanceStart, toInstant: startSeconds + length), startSeconds + length)
        case .nominal(let d):
            guard d.days != 0 else {
                return (shifted(instanceStart, toInstant: startSeconds + Int64(d.seconds)), startSeconds + Int64(d.seconds))
            }
            let wall = instanceStart.wallTime.localSeconds + Int64(d.days) * 86_400
            let dayEnd = instanceStart.withWallTime(LocalDateTime(localSeconds: wall))
            let dayEndSeconds: Int64
            if case .zoned = dayEnd, let startZone {
                dayEndSeconds = startZone.instant(forWall: wall)
            } else {
                dayEndSeconds = (try? dayEnd.epochSeconds(floatingZone: floatingZone)) ?? startSeconds + Int64(d.days) * 86_400
            }
            let endSeconds = dayEndSeconds + Int64(d.seconds)
            return (shifted(dayEnd, toInstant: endSeconds), endSeconds)
        }
    }

    /// `time` moved to the instant `t`, in its own kind of time; a zoned time
    /// of the item's own zone uses the zone resolved once.
    private func shifted(_ time: CalendarTime, toInstant t: Int64) -> CalendarTime {
        if case .zoned(_, let id) = time, let startZone, case .zoned(_, let own) = masterStart, own == id {
            return .zoned(LocalDateTime(localSeconds: startZone.wall(atInstant: t)), id)
        }
        return time.shifted(toInstant: t, floatingZone: floatingZone, zones: zones)
    }
}
