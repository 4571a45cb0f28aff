import CalendarCore
import CalendarScheduling
import ICalendarKit

// Calendars are for exchange; records change only through the book
// (issue 40, 5; Docs/Storage.md). An import merges items as
// `ICalendar.merge(_:zoneNamedBy:)` does, but a record of the book this
// calendar holds — a class, a session, a member's, coach's or client's
// journal, with the rosters its instances carry — is never replaced or
// removed by what a file says: the gym's own public export brought back,
// with the rosters left out as that audience must not see them, took the
// place of every class and emptied every roster; a journal `UID:member:marta`
// with a higher SEQUENCE rewrote Marta's address. Those records are left as
// they are and said in the report. A calendar that holds no book yet takes
// them all: a backup imported into an empty calendar gives its book back.

/// A record of the book an import left as it was, and why.
public struct RecordLeft: Hashable, Sendable {
    /// The `UID` of the record: the book's own (`yoga`) for a record the
    /// file names as the book sends it out (`yoga@DOMAIN`).
    public var uid: String
    /// The component it came as (`VEVENT`, `VJOURNAL`, …).
    public var component: String
    /// Whether the file's version says the same as the book's (an export
    /// imported back): nothing to leave, in truth.
    public var sameAsBook: Bool
    /// Whether it is a message a change owed where the file came from,
    /// which is that calendar's to deliver, not a record of the book.
    public var isOwedMessage: Bool

    /// Creates a note of a record left.
    public init(uid: String, component: String, sameAsBook: Bool, isOwedMessage: Bool = false) {
        self.uid = uid
        self.component = component
        self.sameAsBook = sameAsBook
        self.isOwedMessage = isOwedMessage
    }
}

extension ICalendar {
    /// Whether this calendar holds a scheduling book: any class, session or
    /// directory record (`SchedulingBook.isSchedulingItem(_:)`,
    /// `SchedulingBook.isSchedulingComponent(_:)`).
    public var holdsBookRecords: Bool {
        items.contains(where: SchedulingBook.isSchedulingItem) || components.contains(where: SchedulingBook.isSchedulingComponent)
    }

    /// Merges `incoming` into this calendar as an import does: items by
    /// `UID` as `ICalendar.merge(_:zoneNamedBy:)` (ICalendarKit), except
    /// that no record of the book this calendar holds is replaced or removed.
    ///
    /// An incoming item or component whose `UID` is one of this calendar's
    /// book records (a class, a session, a member's or coach's journal) is
    /// left out of the merge, whatever its `SEQUENCE`: the book changes
    /// through its own operations, which check its rules and tell the
    /// people concerned; a file cannot. So is a record of a book (marked as
    /// the book marks them) that this calendar does not hold, when it holds
    /// a book of its own: it would add a member or a class behind the
    /// book's back. Into a calendar that holds no book, everything comes
    /// along: a backup imported into an empty calendar gives its book back.
    /// A message a change owed where the file came from (a `VJOURNAL` of
    /// `CATEGORIES:horari-owed`) never comes along, into any calendar: it
    /// is its own store's to deliver, and is listed as left.
    ///
    /// ```swift
    /// var gym = try ICalendarImporter().importCalendar(from: gymData).calendar
    /// let theirs = try ICalendarImporter().importCalendar(from: exportData).calendar
    /// let (report, left) = gym.importMerging(theirs)
    /// print("\(report.added.count) added; \(left.count) of the book's records left as they are")
    /// ```
    ///
    /// - Parameters:
    ///   - incoming: the calendar to take items from.
    ///   - zoneProperties: calendar properties that name this calendar's
    ///     clock (``ICalendar/bookZoneProperties`` for a gym's calendar).
    /// - Returns: the merge's report, and the records left as they were
    ///   (an item the file says as the book does is also counted in the
    ///   report's `unchanged`).
    /// - Complexity: O(*n* + *m*) for *n* items here and *m* incoming, besides the merge's own.
    public mutating func importMerging(_ incoming: ICalendar, zoneNamedBy zoneProperties: [String] = ICalendar.bookZoneProperties) -> (report: MergeReport, left: [RecordLeft]) {
        // A message another store owed is that store's to deliver: brought
        // here, it would be sent again (a backup restored after it was
        // sent), or sent for a change this book never made (a forged file).
        var incoming = incoming
        var owed: [RecordLeft] = []
        incoming.components.removeAll { component in
            guard SchedulingRecordNames.isOwedMessage(component) else { return false }
            owed.append(RecordLeft(uid: component.uid ?? "", component: component.name, sameAsBook: false, isOwedMessage: true))
            return true
        }
        guard holdsBookRecords else { return (merge(incoming, zoneNamedBy: zoneProperties), owed) }
        var recordItems: [String: CalendarItem] = [:]
        for item in items where SchedulingBook.isSchedulingItem(item) { recordItems[item.uid] = item }
        var recordComponents: [String: ContentComponent] = [:]
        for component in components where SchedulingBook.isSchedulingComponent(component) {
            if let uid = component.uid { recordComponents[uid] = component }
        }
        var left = owed
        // `yoga@DOMAIN`, as the book sends its class out, is the class `yoga` (SchedulingBook+UIDs.swift).
        let domain = bookUIDDomain
        incoming.items.removeAll { item in
            if let ours = recordItems[item.uid] ?? recordItems[SchedulingBook.recordID(fromUID: item.uid, domain: domain)] {
                left.append(RecordLeft(uid: ours.uid, component: item.kind.componentName, sameAsBook: ours.hasSameContent(as: item)))
                return true
            }
            guard SchedulingBook.isSchedulingItem(item) || recordComponents[item.uid] != nil else { return false }
            left.append(RecordLeft(uid: item.uid, component: item.kind.componentName, sameAsBook: false))
            return true
        }
        incoming.components.removeAll { component in
            guard let uid = component.uid else { return SchedulingBook.isSchedulingComponent(component) }
            if let ours = recordComponents[uid] {
                left.append(RecordLeft(uid: uid, component: component.name, sameAsBook: ours.withoutStamp == component.withoutStamp))
                return true
            }
            guard SchedulingBook.isSchedulingComponent(component) || recordItems[uid] != nil else { return false }
            left.append(RecordLeft(uid: uid, component: component.name, sameAsBook: false))
            return true
        }
        // What the file's import set aside (an older duplicate, an instance
        // that did not fit) is kept as written and read again with the
        // calendar: a record's UID there would come back as a record.
        incoming.rejected.removeAll { component in
            let uid = component.uid
            guard let uid, recordItems[uid] != nil || recordComponents[uid] != nil || Self.isRecord(component) else {
                return uid == nil && Self.isRecord(component)
            }
            left.append(RecordLeft(uid: uid, component: component.name, sameAsBook: false))
            return true
        }
        var report = merge(incoming, zoneNamedBy: zoneProperties)
        // A record left out of the merge is not missing from the file.
        let leftUIDs = Set(left.map(\.uid))
        report.missing.removeAll { leftUIDs.contains($0) }
        // An item written again as the book has it (an export brought back) is unchanged, as the merge says of others.
        report.unchanged += left.filter { $0.sameAsBook && ["VEVENT", "VTODO"].contains($0.component) }.map(\.uid)
        return (report, left)
    }
}

extension ICalendar {
    /// Whether a component as written is one of a book's records: a
    /// directory journal, or an event the book marks as a class or a session.
    static func isRecord(_ component: ContentComponent) -> Bool {
        SchedulingBook.isSchedulingComponent(component)
            || component.properties.contains { $0.name.uppercased() == Names.capacity || $0.name.uppercased() == Names.client }
    }
}

extension ContentComponent {
    /// The component without its `DTSTAMP` (the time it was written, not what it says).
    var withoutStamp: ContentComponent {
        var c = self
        c.properties.removeAll { $0.name.uppercased() == "DTSTAMP" }
        return c
    }
}
