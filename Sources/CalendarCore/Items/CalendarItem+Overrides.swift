import Foundation

extension CalendarItem {
    /// The changed instances whose `RECURRENCE-ID` names no instance of the series.
    ///
    /// RFC 5545 §3.8.4.4 has `RECURRENCE-ID` identify "a specific instance"
    /// of a recurring component. One that names none — the series was edited
    /// after the change (a new start, a shorter rule, an `EXDATE`), or it was
    /// written wrongly — changes nothing the series has; the expansion still
    /// shows it at its own start. The importer reports each as a warning
    /// (`ICalendarDiagnostic.Code.unmatchedOverride`), and ``validate(_:zones:)``
    /// refuses an item that has one.
    ///
    /// A series with a few changes is checked instance by instance, two days
    /// either side of each; one with many expands once over the span of its
    /// changes, so a daily series with a thousand changes costs one walk.
    ///
    /// - Parameter zones: the zones the item's calendar defines for itself.
    /// - Returns: the unmatched changes, in the item's order; empty for an
    ///   item that is not a series or has no series master (an invitation to
    ///   some instances only, whose instances are its changes).
    public func unmatchedOverrides(zones: ZoneTable = ZoneTable()) -> [RecurrenceOverride] {
        guard hasMaster, !overrides.isEmpty else { return [] }
        if let produced = instancesProduced(around: overrides.map(\.recurrenceID), zones: zones) {
            return overrides.filter { !produced.contains(Schedule.normalised($0.recurrenceID, like: start, zones: zones)) }
        }
        return overrides.filter { !produces($0.recurrenceID, zones: zones) }
    }

    /// Whether the series (without its changed instances) has an instance
    /// with this recurrence ID, matched as the expansion matches a change to
    /// its instance: the ID expressed in the series' own kind of time (a UTC
    /// or other-zone ID read on the series' zone, a date-time ID on a date
    /// series its date) equals the instance's. An ID that cannot be placed
    /// counts as produced.
    ///
    /// - Parameters:
    ///   - id: the recurrence ID.
    ///   - zones: the zones the item's calendar defines for itself.
    package func produces(_ id: CalendarTime, zones: ZoneTable) -> Bool {
        let own = Schedule.normalised(id, like: start, zones: zones)
        guard let set = recurrenceSet else { return own == start }
        guard let t = try? id.epochSeconds(floatingZone: .utc, zones: zones) else { return true }
        // Two days either side: a wall reading is within 14 hours of its instant anywhere.
        let from = Date(timeIntervalSince1970: TimeInterval(t - 2 * 86_400)), to = Date(timeIntervalSince1970: TimeInterval(t + 2 * 86_400))
        guard let instances = try? set.instances(from: from, to: to, floatingZone: .utc, zones: zones) else { return true }
        return instances.contains { $0.recurrenceID == own }
    }

    /// The recurrence IDs the series has over the span of many changes (two
    /// days either side), or `nil` for few changes, or a span of too many
    /// instances to list (then each is checked on its own).
    private func instancesProduced(around ids: [CalendarTime], zones: ZoneTable) -> Set<CalendarTime>? {
        guard ids.count > 8, let set = recurrenceSet else { return nil }
        let seconds = ids.compactMap { try? $0.epochSeconds(floatingZone: .utc, zones: zones) }
        guard seconds.count == ids.count, let low = seconds.min(), let high = seconds.max() else { return nil }
        let from = Date(timeIntervalSince1970: TimeInterval(low - 2 * 86_400)), to = Date(timeIntervalSince1970: TimeInterval(high + 2 * 86_400))
        let limit = 100_000
        guard let instances = try? set.instances(from: from, to: to, limit: limit + 1, floatingZone: .utc, zones: zones),
              instances.count <= limit else { return nil }
        return Set(instances.map(\.recurrenceID))
    }
}
