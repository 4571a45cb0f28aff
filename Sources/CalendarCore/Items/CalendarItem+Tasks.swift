import Foundation

/// Tasks as students keep them (issue 31, 2): tasks with no date, subjects,
/// and a repeating task done one instance at a time.
///
/// **A task with no date.** RFC 5545 §3.6.2 allows a `VTODO` with neither
/// `DTSTART` nor `DUE`: it "will be associated with each successive
/// calendar date, until it is completed" — a task for some day. It is an
/// item (``isUndated``) that no schedule places on a date: views leave it
/// out, and a task list shows it apart, as *someday*.
///
/// **A repeating task done.** RFC 5545 has one way to say that one instance
/// of a series is done: a changed instance (`RECURRENCE-ID`, §3.8.4.4) with
/// its own `STATUS:COMPLETED` and `COMPLETED`. Thunderbird writes exactly
/// that; Apple Reminders instead moves the series' `DUE` on and writes the
/// done instance as a separate task, which changes what the series means
/// (a `COUNT` then counts from the new start) and loses the link between
/// them. Horari does as RFC 5545 and Thunderbird: ``markDone(at:floatingZone:zones:)``
/// completes the earliest instance still to do (``pendingInstance(floatingZone:zones:)``)
/// and the next becomes the one to do; the series itself is never marked
/// done (a master `STATUS:COMPLETED`, as another program may write, still
/// means the whole series is). The cost is one changed instance per
/// instance done — 365 a year for a daily task, as in Thunderbird.
///
/// ```swift
/// var laundry = CalendarItem(uid: "laundry", kind: .task, title: "Laundry", start: .date(monday),
///                            recurrenceRules: [try RecurrenceRule(parsing: "FREQ=WEEKLY")])
/// try laundry.markDone(at: .now)                 // this Monday's is done
/// laundry.pendingInstance()?.recurrenceID        // next Monday
/// ```
extension CalendarItem {
    /// Whether the item is a task with no date at all: no `DTSTART`, no
    /// `DUE` and no rule (RFC 5545 §3.6.2). Its ``start`` is a placeholder
    /// that nothing reads; a ``Schedule`` keeps it (``Schedule/item(uid:)``)
    /// but places it on no date.
    public var isUndated: Bool { kind == .task && !hasStart && end == nil && !isRecurring }

    /// Creates a task with no date (``isUndated``).
    ///
    /// - Parameters:
    ///   - uid: the `UID`.
    ///   - title: the title.
    ///   - notes: the notes (`DESCRIPTION`).
    ///   - color: the colour.
    ///   - categories: its subjects (`CATEGORIES`).
    ///   - status: its status; still to do by default.
    public init(undatedTask uid: String, title: String, notes: String? = nil, color: ItemColor? = nil,
                categories: [String] = [], status: ItemStatus? = .needsAction) {
        self.init(uid: uid, kind: .task, title: title, start: Self.undatedStart, notes: notes, color: color,
                  categories: categories, status: status, hasStart: false)
    }

    /// A task due at a time, with no start of its own: a `VTODO` with `DUE`
    /// and no `DTSTART`, as Apple Reminders and Thunderbird write one. It is
    /// due, and then overdue, at that time (``due(floatingZone:zones:)``),
    /// and its alarms count from it (`Alarm.Trigger.relative(_:to:)` with
    /// `.end`, RFC 5545's `RELATED=END`).
    ///
    /// ```swift
    /// var essay = CalendarItem(task: "essay", title: "Hand in the essay", due: .utc(try LocalDateTime(year: 2026, month: 12, day: 4, hour: 12)))
    /// try essay.addAlarm(try Alarm(.relative(.before(.hours(3)), to: .end), message: "The essay is due at noon"))
    /// ```
    ///
    /// (`CalendarItem(uid:kind:title:start:)` with `.task` makes a task that
    /// *starts* then and is never due.)
    /// - Parameters:
    ///   - uid: the `UID`.
    ///   - title: the title.
    ///   - due: when it is due.
    ///   - notes: the notes (`DESCRIPTION`).
    ///   - color: the colour.
    ///   - categories: its subjects (`CATEGORIES`).
    ///   - status: its status; still to do by default.
    public init(task uid: String, title: String, due: CalendarTime, notes: String? = nil, color: ItemColor? = nil,
                categories: [String] = [], status: ItemStatus? = .needsAction) {
        self.init(uid: uid, kind: .task, title: title, start: due, end: .at(due), notes: notes, color: color,
                  categories: categories, status: status, hasStart: false)
    }

    /// The placeholder ``start`` of an undated task: 1970-01-01, a date no
    /// view reads (the task has no `DTSTART` to write).
    package static let undatedStart = CalendarTime.date(LocalDate(dayNumber: 0))

    /// When a task is due: its `DUE`, else its start plus its `DURATION`
    /// (RFC 5545 §3.8.2.5: the two together say when it is due, the days
    /// on the wall clock and the rest exact); `nil` for a task with a start
    /// alone, one with no date, and an event.
    ///
    /// - Parameters:
    ///   - floatingZone: the zone floating and all-day times are read in; by default the machine's (`ZoneRules.current`): RFC 5545 §3.3.5 reads a floating time on the clock of whoever reads it.
    ///   - zones: the calendar's own zones.
    public func due(floatingZone: ZoneRules = .current, zones: ZoneTable = ZoneTable()) -> CalendarTime? {
        guard kind == .task else { return nil }
        switch end {
        case .at(let time): return time
        case .duration:
            guard let seconds = try? start.epochSeconds(floatingZone: floatingZone, zones: zones) else { return nil }
            return span(floatingZone: floatingZone, zones: zones).end(startingAt: start, startSeconds: seconds).0
        case nil: return nil
        }
    }

    /// Whether one of the item's categories is `name`, ignoring case
    /// ("Maths" and "maths" are one subject, as in Apple Reminders' tags).
    ///
    /// - Parameter name: the category.
    public func isInCategory(_ name: String) -> Bool {
        categories.contains { $0.compare(name, options: [.caseInsensitive]) == .orderedSame }
    }

    /// The longest category (a subject) the library accepts: 255 characters.
    ///
    /// RFC 5545 sets no limit. A subject is a word or a few; 255 is where
    /// most stores' short text ends, and a 10,000-character "category" is a
    /// paste gone wrong, refused with its length rather than written into
    /// every view's row.
    public static let maximumCategoryLength = 255

    /// Checks a category a person typed: not empty, not longer than
    /// ``maximumCategoryLength``, no line breaks.
    ///
    /// ``validate(_:zones:)`` checks each of an item's categories' length;
    /// this checks a new one (an option, a form's field) before it is used.
    /// - Parameter name: the category.
    /// - Throws: ``CalendarItemError/Code/invalidCategory``.
    public static func checkCategory(_ name: String) throws(CalendarItemError) {
        if name.trimmedWhitespace.isEmpty {
            throw CalendarItemError(.invalidCategory, field: .categories, "a category cannot be empty", suggestion: "name a subject, such as ‘Maths’")
        }
        if name.count > maximumCategoryLength {
            throw CalendarItemError(.invalidCategory, field: .categories, "the category ‘\(name.prefix(20))…’ is \(name.count) characters long, longer than the \(maximumCategoryLength) a category may be",
                                    suggestion: "name the subject in a few words")
        }
        if name.contains(where: \.isNewline) {
            throw CalendarItemError(.invalidCategory, field: .categories, "the category ‘\(name.prefix(20))…’ holds a line break", suggestion: "name the subject on one line")
        }
    }

    /// The instance of a repeating task still to do: the earliest that is
    /// neither done nor cancelled by a changed instance of its own. `nil`
    /// for an item that does not repeat, a series marked done or cancelled
    /// as a whole, or one whose every instance is done.
    ///
    /// - Parameters:
    ///   - floatingZone: the zone floating and all-day times are read in; by default the machine's (`ZoneRules.current`): RFC 5545 §3.3.5 reads a floating time on the clock of whoever reads it.
    ///   - zones: the calendar's own zones.
    /// - Throws: ``CalendarItemError/Code/invalidRecurrence`` when the
    ///   series cannot be expanded (its zone is unknown).
    /// - Complexity: O(d), d the instances done: each skipped instance is
    ///   a distinct changed instance.
    public func pendingInstance(floatingZone: ZoneRules = .current, zones: ZoneTable = ZoneTable()) throws(CalendarItemError) -> RecurrenceSet.Instance? {
        guard kind == .task, counts, isRecurring, let set = recurrenceSet else { return nil }
        let closed = overrides.filter { !$0.item.counts }
        let closedIDs = Set(closed.map(\.recurrenceID))
        let closedSeconds = Set(closed.compactMap { try? $0.recurrenceID.epochSeconds(floatingZone: floatingZone, zones: zones) })
        var iterator: RecurrenceSet.Iterator
        do { iterator = try set.makeIterator(floatingZone: floatingZone, zones: zones) } catch {
            throw CalendarItemError(.invalidRecurrence, field: .recurrence, error.description, underlying: error)
        }
        var skipped = 0
        while skipped <= closed.count, let instance = iterator.next() {
            let seconds = try? instance.recurrenceID.epochSeconds(floatingZone: floatingZone, zones: zones)
            guard closedIDs.contains(instance.recurrenceID) || seconds.map(closedSeconds.contains) == true else { return instance }
            skipped += 1
        }
        return nil
    }

    /// The recurrence IDs of a repeating task's instances marked done by
    /// changed instances of their own, latest first.
    ///
    /// - Parameters:
    ///   - floatingZone: the zone floating and all-day times are read in; by default the machine's (`ZoneRules.current`): RFC 5545 §3.3.5 reads a floating time on the clock of whoever reads it.
    ///   - zones: the calendar's own zones.
    public func doneInstances(floatingZone: ZoneRules = .current, zones: ZoneTable = ZoneTable()) -> [CalendarTime] {
        overrides.filter { $0.item.isDone }
            .map { ($0.recurrenceID, (try? $0.recurrenceID.epochSeconds(floatingZone: floatingZone, zones: zones)) ?? $0.recurrenceID.wallTime.localSeconds) }
            .sorted { $0.1 > $1.1 }
            .map(\.0)
    }
}
