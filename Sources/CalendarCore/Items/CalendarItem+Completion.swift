import Foundation

/// Tasks that are done, as RFC 5545 writes it (§3.8.1.11 `STATUS`,
/// §3.8.2.1 `COMPLETED`, §3.8.1.8 `PERCENT-COMPLETE`).
///
/// ```swift
/// var essay = CalendarItem(uid: "essay", kind: .task, title: "Essay", start: .date(due))
/// try essay.markDone(at: .now)      // STATUS:COMPLETED, COMPLETED:…Z, PERCENT-COMPLETE:100
/// try essay.reopen()                 // STATUS:NEEDS-ACTION, the other two removed
/// ```
///
/// A repeating task is done one instance at a time, as a changed instance
/// with its own `STATUS:COMPLETED` (RFC 5545 §3.8.4.4, as Thunderbird
/// writes it; the decision is written down in `CalendarItem+Tasks.swift`).
extension CalendarItem {
    /// Whether the item is a task marked done (`STATUS:COMPLETED`).
    public var isDone: Bool { kind == .task && status == .completed }

    /// Whether the item is cancelled (`STATUS:CANCELLED`, RFC 5545 §3.8.1.11):
    /// a cancelled session, or another program's cancelled event or task.
    ///
    /// Views still show it, marked (``counts``), as Apple Calendar shows a
    /// cancelled event struck through: hiding it would leave a person
    /// wondering where their appointment went.
    public var isCancelled: Bool { status == .cancelled }

    /// Whether the item counts toward its day's items: not a done task and
    /// not cancelled. A day is red when two or more items that count fall
    /// on it; a cancelled session or a finished essay never makes it so, as
    /// a cancelled class date (an `EXDATE`) never did.
    public var counts: Bool { !isDone && !isCancelled }

    /// Marks a task done at `now`: `STATUS:COMPLETED`, `COMPLETED` with the
    /// time (UTC, whole seconds, as §3.8.2.1 requires) and `PERCENT-COMPLETE:100`.
    ///
    /// A repeating task has its earliest instance still to do
    /// (``pendingInstance(floatingZone:zones:)``) marked so, as a changed
    /// instance, and the next instance becomes the one to do; a series with
    /// none left to do is marked done as a whole.
    ///
    /// - Parameters:
    ///   - now: when it was done.
    ///   - floatingZone: the zone floating and all-day times are read in
    ///     (which instance is earliest); by default the machine's (`ZoneRules.current`): RFC 5545 §3.3.5 reads a floating time on the clock of whoever reads it.
    ///   - zones: the calendar's own zones.
    /// - Returns: the recurrence ID of the instance marked done; `nil` when
    ///   the task as a whole was.
    /// - Throws: ``CalendarItemError/Code/notATask`` for an event.
    @discardableResult
    public mutating func markDone(at now: Date, floatingZone: ZoneRules = .current, zones: ZoneTable = ZoneTable()) throws(CalendarItemError) -> CalendarTime? {
        try requireTask("marked done")
        if isRecurring, status != .completed, let instance = try pendingInstance(floatingZone: floatingZone, zones: zones) {
            var one = item(for: instance)
            one.stampDone(at: now)
            changeOccurrence(instance.recurrenceID, to: one)
            return instance.recurrenceID
        }
        stampDone(at: now)
        return nil
    }

    private mutating func stampDone(at now: Date) {
        status = .completed
        completed = .utc(LocalDateTime(localSeconds: Int64(now.timeIntervalSince1970.rounded(.down))))
        percentComplete = 100
    }

    /// Reopens a task: `STATUS:NEEDS-ACTION`, with no `COMPLETED` or
    /// `PERCENT-COMPLETE` left (a reopened task's progress is unknown).
    ///
    /// A repeating task not marked done as a whole has its latest instance
    /// done reopened: the changed instance goes when marking it done was
    /// its only change, and is kept still to do otherwise.
    ///
    /// - Parameters:
    ///   - floatingZone: the zone floating and all-day times are read in; by default the machine's (`ZoneRules.current`): RFC 5545 §3.3.5 reads a floating time on the clock of whoever reads it.
    ///   - zones: the calendar's own zones.
    /// - Returns: the recurrence ID of the instance reopened; `nil` when
    ///   the task as a whole was, or nothing was done.
    /// - Throws: ``CalendarItemError/Code/notATask`` for an event.
    @discardableResult
    public mutating func reopen(floatingZone: ZoneRules = .current, zones: ZoneTable = ZoneTable()) throws(CalendarItemError) -> CalendarTime? {
        try requireTask("reopened")
        if isRecurring, status != .completed {
            guard let latest = doneInstances(floatingZone: floatingZone, zones: zones).first,
                  let index = overrides.firstIndex(where: { $0.recurrenceID == latest }) else { return nil }
            var one = overrides[index].item
            one.clearDone()
            var plain = self
            plain.overrides.remove(at: index)
            // What marking it done wrote, and nothing else: the series' own
            // fields at that instance (its revision fields move on without it).
            if let instance = try? plain.occurrence(on: latest.wallTime.date, at: latest.isDate ? nil : latest.wallTime, floatingZone: floatingZone, zones: zones) {
                let base = plain.item(for: instance)
                var probe = one
                (probe.status, probe.sequence, probe.lastModified) = (base.status, base.sequence, base.lastModified)
                (probe.completed, probe.percentComplete) = (base.completed, base.percentComplete)
                (probe.completedAsWritten, probe.percentCompleteAsWritten) = (base.completedAsWritten, base.percentCompleteAsWritten)
                if probe.hasSameContent(as: base) { overrides.remove(at: index) } else { overrides[index].item = one }
            } else {
                overrides[index].item = one
            }
            return latest
        }
        clearDone()
        return nil
    }

    private mutating func clearDone() {
        status = .needsAction
        (completed, percentComplete) = (nil, nil)
    }

    private func requireTask(_ what: String) throws(CalendarItemError) {
        guard kind == .task else {
            throw CalendarItemError(.notATask, field: .kind, "‘\(uid)’ is an event; only a task can be \(what)")
        }
    }
}

extension CalendarItem {
    /// Whether two items say the same thing, whatever their `DTSTAMP`s.
    ///
    /// `DTSTAMP` records when a copy was written (RFC 5545 §3.8.7.2), not what
    /// it says: the same event exported twice differs only there. A merge
    /// compares with this, so that importing again what was exported
    /// changes nothing (issue 28, 4); every other field, each override's
    /// included, must be equal.
    ///
    /// - Parameter other: the item to compare with.
    /// - Returns: `true` when the two differ at most in their own and their
    ///   overrides' `DTSTAMP`.
    public func hasSameContent(as other: CalendarItem) -> Bool {
        if self == other { return true }
        guard uid == other.uid, overrides.count == other.overrides.count else { return false }
        return withoutTimestamps == other.withoutTimestamps
    }

    /// The item with no `DTSTAMP`, nor any on its overrides.
    private var withoutTimestamps: CalendarItem {
        var copy = self
        copy.timestamp = nil
        if !copy.overrides.isEmpty {
            copy.overrides = copy.overrides.map { o in
                var o = o
                o.item.timestamp = nil
                return o
            }
        }
        return copy
    }
}
