import CalendarCore
import Foundation

/// A class series changed from a date on: a new time, length, capacity,
/// room, instructor or weekdays (issue 28, 19). What is not given stays.
public struct ClassChange: Hashable, Sendable {
    /// A new start time.
    public var time: TimeOfDay?
    /// A new length.
    public var duration: Duration?
    /// A new number of places.
    public var capacity: Int?
    /// A new room (`.some(nil)` for none).
    public var location: String??
    /// A new instructor (`.some(nil)` for none).
    public var instructor: String??
    /// New weekdays.
    public var weekdays: [Weekday]?

    /// Creates a change; every field left `nil` stays as it is.
    public init(time: TimeOfDay? = nil, duration: Duration? = nil, capacity: Int? = nil, location: String?? = nil,
                instructor: String?? = nil, weekdays: [Weekday]? = nil) {
        self.time = time
        self.duration = duration
        self.capacity = capacity
        self.location = location
        self.instructor = instructor
        self.weekdays = weekdays
    }

    /// Whether it changes nothing.
    public var isEmpty: Bool { self == ClassChange() }
}

/// What changing a class from a date on, or ending it, did.
public struct ClassChangeReport: Hashable, Sendable {
    /// The class's dates before the change, kept as a class of their own
    /// (`yoga-until-20261129`), with their bookings; `nil` when the change
    /// took the whole series (it met on no earlier date).
    public var earlierPart: String?
    /// The bookings released, by occurrence: every booking and waitlist
    /// place on a date the class no longer meets, and the places past a
    /// smaller capacity (the last booked go first), so the gym can tell the
    /// members. Every other booking is kept: bookings belong to an
    /// occurrence's date, not its time.
    public var released: [AffectedBookings]
    /// The members who moved up from a waitlist into places a larger
    /// capacity opened (in ``AffectedBookings/confirmed``), first waiting
    /// first, as a cancellation moves them up; the gym can tell them too.
    public var promoted: [AffectedBookings]

    /// Creates a report.
    public init(earlierPart: String?, released: [AffectedBookings], promoted: [AffectedBookings] = []) {
        self.earlierPart = earlierPart
        self.released = released
        self.promoted = promoted
    }
}

extension ClassTimetable {
    /// Changes a class from a date on; see ``SchedulingBook/changeClass(_:from:_:)``.
    mutating func changeClass(_ id: String, from date: LocalDate, _ change: ClassChange) throws(SchedulingError) -> ClassChangeReport {
        let old = try classSeries(id)
        let (earlier, changed) = try parts(of: old, from: date, changedBy: change)
        // Nothing is changed until both series are known to be good.
        var released: [AffectedBookings] = []
        if let earlier {
            classesByID[earlier.id] = earlier
            seriesSequence[earlier.id] = seriesSequence[id]  // what its dates were told, they keep
            moveRosters(of: id, before: date, to: earlier.id)
        }
        classesByID[id] = changed
        let from = earlier == nil ? LocalDate(dayNumber: Int.min / 2) : date
        released += removeRosters { $0.classID == id && $0.date >= from && !changed.meets(on: $0.date) }
        let promoted = fitRosters(of: changed, from: from, released: &released)
        return ClassChangeReport(earlierPart: earlier?.id, released: released.sorted { $0.occurrence < $1.occurrence }, promoted: promoted)
    }

    /// The class's earlier dates as a class of their own (when it met before
    /// `date`), and the class from `date` on with the change, both checked.
    private func parts(of old: ClassSeries, from date: LocalDate, changedBy change: ClassChange) throws(SchedulingError) -> (earlier: ClassSeries?, changed: ClassSeries) {
        var new = old
        if let t = change.time { new.time = t }
        if let d = change.duration { new.duration = d }
        if let c = change.capacity { new.capacity = c }
        if let l = change.location { new.location = l }
        if let i = change.instructor { new.instructor = i }
        if let w = change.weekdays { new.weekdays = w }
        try SchedulingBook.checkLength(new.duration, "a class")
        var earlier: ClassSeries?
        if date > old.firstDate {
            var part = old
            part.id = freeClassID("\(old.id)-until-\(date.adding(days: -1).basicISO)")
            part.partOf = old.partOf ?? old.id
            part.lastDate = min(old.lastDate ?? date.adding(days: -1), date.adding(days: -1))
            part.changes = old.changes.filter { $0.key < date }
            earlier = try? Self.normalised(part)
        }
        if earlier != nil {
            new.firstDate = date
            new.changes = old.changes.filter { $0.key >= date }
        }
        new.changes = new.changes.filter { new.meets(on: $0.key) }
        return (earlier, try Self.normalised(new))
    }

    /// Hands the rosters of a class's dates before `date` to its earlier part.
    private mutating func moveRosters(of id: String, before date: LocalDate, to partID: String) {
        for key in rosters.keys.filter({ $0.classID == id && $0.date < date }) {
            guard let roster = rosters.removeValue(forKey: key) else { continue }
            let moved = ClassOccurrence.ID(classID: partID, date: key.date)
            rosters[moved] = roster
            for m in roster.confirmed + roster.waitlist {
                occurrencesByMember[m]?.remove(key)
                occurrencesByMember[m, default: []].insert(moved)
            }
        }
    }

    /// Fits the rosters from `from` on to the class's capacity: past a
    /// smaller one, the last places booked are released; a larger one moves
    /// the first waiting up into the places it opens, who are returned.
    private mutating func fitRosters(of changed: ClassSeries, from: LocalDate, released: inout [AffectedBookings]) -> [AffectedBookings] {
        var promoted: [AffectedBookings] = []
        for key in rosters.keys.filter({ $0.classID == changed.id && $0.date >= from }).sorted() {
            guard var roster = rosters[key] else { continue }
            if roster.confirmed.count > changed.capacity {
                let over = Array(roster.confirmed.suffix(roster.confirmed.count - changed.capacity))
                roster.confirmed.removeLast(over.count)
                rosters[key] = roster
                for m in over { occurrencesByMember[m]?.remove(key) }
                released.append(AffectedBookings(occurrence: key, confirmed: over, waitlisted: []))
            } else if roster.confirmed.count < changed.capacity, !roster.waitlist.isEmpty {
                let up = Array(roster.waitlist.prefix(changed.capacity - roster.confirmed.count))
                roster.waitlist.removeFirst(up.count)
                roster.confirmed += up
                rosters[key] = roster
                promoted.append(AffectedBookings(occurrence: key, confirmed: up, waitlisted: []))
            }
        }
        return promoted
    }

    /// Ends a class on a date; see ``SchedulingBook/endClass(_:on:)``.
    mutating func endClass(_ id: String, on lastDate: LocalDate) throws(SchedulingError) -> [AffectedBookings] {
        var series = try classSeries(id)
        guard lastDate >= series.firstDate else {
            throw .invalid(field: .lastDate, reason: "\(series.title) starts on \(series.firstDate), after \(lastDate); remove the class instead, or end it on a later date")
        }
        series.lastDate = min(series.lastDate ?? lastDate, lastDate)
        return try updateClass(series)
    }

    /// `base`, or `base-2`, `base-3`… when a class has that ID.
    private func freeClassID(_ base: String) -> String {
        var id = base, n = 1
        while classesByID[id] != nil {
            n += 1
            id = "\(base)-\(n)"
        }
        return id
    }
}

// MARK: - The book's calls on its classes' changes, forwarded

extension SchedulingBook {
    /// Changes a class from a date on, keeping its earlier dates as they were.
    ///
    /// The class keeps its ID from `date` on, with the change; its earlier
    /// dates become a class of their own (``ClassChangeReport/earlierPart``,
    /// `ID-until-YYYYMMDD`, ending the day before), with their bookings,
    /// cancellations and moves. In iCalendar these are two series, as Google
    /// and Apple Calendar split a series edited "this and following": every
    /// calendar reads them alike, where `RANGE=THISANDFUTURE` is ignored by
    /// some. A change from the class's first date changes the whole series.
    ///
    /// A booking from `date` on is kept if it still fits: on a date the
    /// class no longer meets it is released, and past a smaller capacity the
    /// last places booked are released; each is listed
    /// (``ClassChangeReport/released``). A moved occurrence keeps its time.
    ///
    /// - Parameters:
    ///   - id: the class.
    ///   - date: the first date the change applies to.
    ///   - change: what changes.
    /// - Returns: the earlier part, if any, and the bookings released.
    /// - Throws: ``SchedulingError/unknownClass(_:)``, or a change the book cannot take (no
    ///   weekday, no places, an impossible length, a class that never meets from `date` on).
    @discardableResult
    public mutating func changeClass(_ id: String, from date: LocalDate, _ change: ClassChange) throws(SchedulingError) -> ClassChangeReport {
        if change.time != nil || change.duration != nil || change.weekdays != nil {
            var changed = try classSeries(id)
            changed.time = change.time ?? changed.time
            changed.duration = change.duration ?? changed.duration
            changed.weekdays = change.weekdays ?? changed.weekdays
            try checkOpeningHours(of: changed)
        }
        return try classTimetable.changeClass(id, from: date, change)
    }

    /// Ends a class on a date: it meets no more after it; the bookings of
    /// later dates are released and returned, so the gym can tell the members.
    /// - Parameters:
    ///   - id: the class.
    ///   - lastDate: the last date it meets.
    /// - Returns: the bookings released, by occurrence.
    /// - Throws: ``SchedulingError/unknownClass(_:)``, or a date before the class's first.
    @discardableResult
    public mutating func endClass(_ id: String, on lastDate: LocalDate) throws(SchedulingError) -> [AffectedBookings] { try classTimetable.endClass(id, on: lastDate) }
}
