import Foundation

/// One occurrence of a repeating event or task, or this one and every later
/// one, changed or deleted, as every calendar client offers (issue 28, 20).
///
/// - One occurrence changed is an override (a `RECURRENCE-ID` instance,
///   RFC 5545 §3.8.4.4); deleted, an `EXDATE` (§3.8.5.1).
/// - This and the following deleted: the series ends before it (`UNTIL`,
///   §3.3.10), and its later additions, exclusions and overrides go.
/// - This and the following changed: the series is split, as Google
///   Calendar and Apple Calendar do, into the series up to it and a new
///   series from it (``splitting(at:newUID:floatingZone:zones:)``). RFC 5545's
///   `RANGE=THISANDFUTURE` says the same in one component, but Google
///   ignores it and many clients apply it to the one instance only, so a
///   split is what every calendar reads alike.
///
/// ```swift
/// let monday = try series.occurrence(on: LocalDate(year: 2026, month: 11, day: 30))
/// try series.removeOccurrence(monday.recurrenceID)        // EXDATE
/// let (head, tail) = try series.splitting(at: monday.recurrenceID, newUID: "standup-2")
/// ```
extension CalendarItem {
    /// The occurrence of this series that the rule puts on `date` (its
    /// recurrence ID's date, as the series writes its times).
    ///
    /// - Parameters:
    ///   - date: the date of the occurrence, by the series.
    ///   - time: its time of day, when the series meets more than once that day.
    ///   - floatingZone: the zone floating and all-day times are read in; by default the machine's (`ZoneRules.current`): RFC 5545 §3.3.5 reads a floating time on the clock of whoever reads it.
    ///   - zones: the calendar's own zones.
    /// - Returns: the instance, with its recurrence ID and start.
    /// - Throws: ``CalendarItemError/Code/notRecurring`` for an item that
    ///   does not repeat, ``CalendarItemError/Code/noSuchOccurrence`` when the
    ///   series does not meet then (or meets several times on the date and no
    ///   time was given), naming the nearest occurrences.
    public func occurrence(on date: LocalDate, at time: LocalDateTime? = nil, floatingZone: ZoneRules = .current,
                           zones: ZoneTable = ZoneTable()) throws(CalendarItemError) -> RecurrenceSet.Instance {
        guard isRecurring, let set = recurrenceSet else {
            throw CalendarItemError(.notRecurring, field: .recurrence, "‘\(title)’ does not repeat, so it has no single occurrence to change", suggestion: "edit or delete the item itself")
        }
        // A day either side, in instants: the recurrence ID's date is read as the series writes it.
        let day = Int64(date.dayNumber) * 86_400
        let from = Date(timeIntervalSince1970: TimeInterval(day - 2 * 86_400)), to = Date(timeIntervalSince1970: TimeInterval(day + 3 * 86_400))
        let near: [RecurrenceSet.Instance]
        do { near = try set.instances(from: from, to: to, limit: 10_000, floatingZone: floatingZone, zones: zones) } catch {
            throw CalendarItemError(.invalidRecurrence, field: .recurrence, error.description)
        }
        var onDate = near.filter { $0.recurrenceID.wallTime.date == date }
        if let time { onDate = onDate.filter { $0.recurrenceID.wallTime == time } }
        if onDate.count == 1 { return onDate[0] }
        if onDate.count > 1 {
            let times = onDate.prefix(4).map { clock($0.recurrenceID.wallTime) }.joined(separator: ", ")
            throw CalendarItemError(.noSuchOccurrence, field: .recurrence, "‘\(title)’ occurs \(onDate.count) times on \(date) (\(times)\(onDate.count > 4 ? ", …" : ""))", suggestion: "give the time too, such as ‘\(date) \(clock(onDate[0].recurrenceID.wallTime))’")
        }
        let what = time.map { "at \(clock($0)) on \(date)" } ?? "on \(date)"
        let others = near.map(\.recurrenceID.wallTime).filter { abs($0.date.dayNumber - date.dayNumber) <= 2 }
        let hint = others.isEmpty ? "" : "; near it: " + others.prefix(3).map { "\($0.date) \(clock($0))" }.joined(separator: ", ")
        throw CalendarItemError(.noSuchOccurrence, field: .recurrence, "‘\(title)’ has no occurrence \(what)\(hint)")
    }

    /// Deletes one occurrence: its recurrence ID becomes an `EXDATE`, and a
    /// changed instance of it goes.
    /// - Parameter recurrenceID: the occurrence's recurrence ID (``occurrence(on:at:floatingZone:zones:)``).
    public mutating func removeOccurrence(_ recurrenceID: CalendarTime) {
        overrides.removeAll { $0.recurrenceID == recurrenceID }
        if !exceptionDates.contains(recurrenceID) { exceptionDates.append(recurrenceID) }
    }

    /// Changes one occurrence: `instance` (its title, time, colour…) becomes
    /// the override of that recurrence ID, replacing any it had.
    /// - Parameters:
    ///   - recurrenceID: the occurrence's recurrence ID.
    ///   - instance: the occurrence as it is to be; its UID and rules are the series'.
    public mutating func changeOccurrence(_ recurrenceID: CalendarTime, to instance: CalendarItem) {
        var one = instance
        one.uid = uid
        one.recurrenceRules = []
        one.recurrenceDates = []
        one.exceptionDates = []
        one.overrides = []
        overrides.removeAll { $0.recurrenceID == recurrenceID }
        overrides.append(RecurrenceOverride(recurrenceID: recurrenceID, item: one))
        overrides.sort { $0.recurrenceID.wallTime < $1.recurrenceID.wallTime }
    }

    /// The series as an item of its own for one occurrence: its fields, at
    /// the occurrence's start, lasting as the series does (or as its
    /// changed instance says), with no rule.
    /// - Parameter instance: the occurrence.
    /// - Returns: the occurrence as an item, to change and give to ``changeOccurrence(_:to:)``.
    public func item(for instance: RecurrenceSet.Instance) -> CalendarItem {
        if let changed = overrides.first(where: { $0.recurrenceID == instance.recurrenceID }) { return changed.item }
        var one = self
        one.recurrenceRules = []
        one.recurrenceDates = []
        one.exceptionDates = []
        one.overrides = []
        return one.starting(at: instance.start)
    }

    /// The item moved to start at `time`, an end given as a time moved by as
    /// much wall time (a length stays a length).
    private func starting(at time: CalendarTime) -> CalendarItem {
        var moved = self
        let shift = time.wallTime.localSeconds - start.wallTime.localSeconds
        moved.start = time
        if case .at(let e) = end { moved.end = .at(e.withWallTime(LocalDateTime(localSeconds: e.wallTime.localSeconds + shift))) }
        return moved
    }

    /// Deletes this occurrence and every later one: the series ends before it.
    ///
    /// Each rule gets an `UNTIL` just before the occurrence, in the form RFC
    /// 5545 §3.3.10 asks (a date for an all-day series, a floating time for a
    /// floating one, else UTC), in place of any `COUNT`; additions,
    /// exclusions and changed instances from it on go.
    /// - Parameters:
    ///   - recurrenceID: the first occurrence to go.
    ///   - floatingZone: the zone floating and all-day times are read in; by default the machine's (`ZoneRules.current`): RFC 5545 §3.3.5 reads a floating time on the clock of whoever reads it.
    ///   - zones: the calendar's own zones.
    /// - Returns: `false` when nothing of the series is left (the occurrence
    ///   was its first): delete the item instead.
    @discardableResult
    public mutating func removeOccurrences(from recurrenceID: CalendarTime, floatingZone: ZoneRules = .current, zones: ZoneTable = ZoneTable()) throws(CalendarItemError) -> Bool {
        let cut = try instant(recurrenceID, floatingZone, zones)
        guard try instant(start, floatingZone, zones) < cut else { return false }
        let until: CalendarTime = switch recurrenceID {
        case .date(let d): .date(LocalDate(dayNumber: d.dayNumber - 1))
        case .floating(let w): .floating(LocalDateTime(localSeconds: w.localSeconds - 1))
        default: .utc(LocalDateTime(localSeconds: cut - 1))
        }
        // A rule that ends before the cut by itself (its COUNT, an earlier
        // UNTIL) is left as it is: COUNT and UNTIL never go together (RFC
        // 5545 §3.3.10), and an UNTIL in place of its COUNT would lengthen it.
        var rules: [RecurrenceRule] = []
        for rule in recurrenceRules {
            var r = rule
            if try reaches(rule, cut, floatingZone, zones) {
                r.count = nil
                r.until = until
            }
            rules.append(r)
        }
        recurrenceRules = rules
        let series = self
        let before = { (t: CalendarTime) in ((try? series.instant(t, floatingZone, zones)) ?? Int64.min) < cut }
        recurrenceDates = recurrenceDates.filter(before)
        recurrenceDateEnds = recurrenceDateEnds.filter { before($0.start) }
        exceptionDates = exceptionDates.filter(before)
        overrides = overrides.filter { before($0.recurrenceID) }
        return true
    }

    /// The series split at an occurrence: the series up to it, and a new
    /// series (UID `newUID`) from it on, with the same fields and rules
    /// (a `COUNT` shared between the two), its later additions, exclusions
    /// and changed instances. Change the second and add it; replace the
    /// series with the first (this and the following changed).
    ///
    /// - Parameters:
    ///   - recurrenceID: the first occurrence of the new series.
    ///   - newUID: the new series' UID (Google writes `UID_R20261130T090000`).
    ///   - floatingZone: the zone floating and all-day times are read in; by default the machine's (`ZoneRules.current`): RFC 5545 §3.3.5 reads a floating time on the clock of whoever reads it.
    ///   - zones: the calendar's own zones.
    /// - Returns: `head` (`nil` when the occurrence is the series' first, so
    ///   nothing is left before it) and `tail`.
    public func splitting(at recurrenceID: CalendarTime, newUID: String, floatingZone: ZoneRules = .current,
                          zones: ZoneTable = ZoneTable()) throws(CalendarItemError) -> (head: CalendarItem?, tail: CalendarItem) {
        let cut = try instant(recurrenceID, floatingZone, zones)
        var head = self
        let kept = try head.removeOccurrences(from: recurrenceID, floatingZone: floatingZone, zones: zones)
        var tail = starting(at: recurrenceID)
        tail.uid = newUID
        tail.sequence = 0
        // A COUNT counts what its rule makes, excluded dates included (RFC
        // 5545 §3.3.10, §3.8.5.1): the new series has what the rule had not
        // yet made.
        // The new start is the new series' first instance and counts toward
        // each COUNT (§3.3.10) even where its rule would not make it (an
        // RDATE's, another rule's): such a rule makes one more.
        var rules: [RecurrenceRule] = []
        for rule in recurrenceRules {
            var r = rule
            if let c = rule.count {
                let one = RecurrenceSet(start: start, rules: [rule])
                let had: Int, makesCut: Bool
                do {
                    had = try one.instances(to: Date(timeIntervalSince1970: TimeInterval(cut)), floatingZone: floatingZone, zones: zones).count
                    makesCut = try one.instances(from: Date(timeIntervalSince1970: TimeInterval(cut)), limit: 1, floatingZone: floatingZone, zones: zones)
                        .first?.epochSeconds == cut
                } catch { throw CalendarItemError(.invalidRecurrence, field: .recurrence, error.description) }
                r.count = max(1, c - had + (makesCut ? 0 : 1))
            }
            rules.append(r)
        }
        tail.recurrenceRules = rules
        let from = { (t: CalendarTime) in ((try? self.instant(t, floatingZone, zones)) ?? Int64.min) >= cut }
        tail.recurrenceDates = recurrenceDates.filter(from)
        tail.recurrenceDateEnds = recurrenceDateEnds.filter { from($0.start) }
        tail.exceptionDates = exceptionDates.filter(from)
        tail.overrides = overrides.filter { from($0.recurrenceID) }.map { o in
            var o = o
            o.item.uid = newUID
            return o
        }
        return (kept ? head : nil, tail)
    }

    /// Whether `rule`, from this item's start, makes an instance at or after `cut`.
    private func reaches(_ rule: RecurrenceRule, _ cut: Int64, _ floatingZone: ZoneRules, _ zones: ZoneTable) throws(CalendarItemError) -> Bool {
        do {
            return try !RecurrenceSet(start: start, rules: [rule])
                .instances(from: Date(timeIntervalSince1970: TimeInterval(cut)), limit: 1, floatingZone: floatingZone, zones: zones).isEmpty
        } catch { throw CalendarItemError(.invalidRecurrence, field: .recurrence, error.description) }
    }

    private func instant(_ t: CalendarTime, _ floatingZone: ZoneRules, _ zones: ZoneTable) throws(CalendarItemError) -> Int64 {
        do { return try t.epochSeconds(floatingZone: floatingZone, zones: zones) } catch {
            throw CalendarItemError(.unknownTimeZone, field: .start, error.message, underlying: error)
        }
    }

    private func clock(_ t: LocalDateTime) -> String {
        (t.hour < 10 ? "0" : "") + String(t.hour) + ":" + (t.minute < 10 ? "0" : "") + String(t.minute)
    }
}
