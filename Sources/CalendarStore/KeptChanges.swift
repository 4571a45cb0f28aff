import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit
import SchedulingICalendar

/// A change to a person's own items made while the calendar's CalDAV server
/// could not be reached: kept on this device, in order, and sent when the
/// server answers (``CalendarStore/updateOwnItems(now:exporterFor:whileWaiting:ifDamaged:_:)``).
///
/// It holds the item as it was read when the change was made and as the
/// change left it, so that it is made later only on the item as it was:
/// an item someone else changed or deleted meanwhile is not overwritten,
/// nor brought back (``KeptChangeOutcome``).
public struct KeptChange: Hashable, Sendable, Codable {
    /// What the person did.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// Added a new item.
        case add
        /// Changed an item (an edit, a task ticked done or reopened).
        case edit
        /// Deleted an item.
        case delete
    }

    /// What the person did.
    public var kind: Kind
    /// The item's `UID`.
    public var uid: String
    /// The item as it was read when the change was made; `nil` for a new one.
    public var before: CalendarItem?
    /// The item as the change left it; `nil` for one deleted.
    public var after: CalendarItem?
    /// When the change was made.
    public var madeAt: Date
    /// The command it was made by: the changes of one (a series split,
    /// a part taken out of its parent) are made or refused together.
    public var batch: Int = 0

    /// Creates a kept change.
    /// - Parameters:
    ///   - kind: what the person did.
    ///   - uid: the item's `UID`.
    ///   - before: the item as read, `nil` for a new one.
    ///   - after: the item as changed, `nil` for one deleted.
    ///   - madeAt: when.
    public init(kind: Kind, uid: String, before: CalendarItem?, after: CalendarItem?, madeAt: Date) {
        self.kind = kind
        self.uid = uid
        self.before = before
        self.after = after
        self.madeAt = madeAt
    }

    /// The item's title, as the change left it (or as it was, for one deleted).
    public var title: String { after?.title ?? before?.title ?? uid }
}

/// What became of a ``KeptChange`` when it was sent.
public struct KeptChangeOutcome: Hashable, Sendable {
    /// How it went.
    public enum Result: Hashable, Sendable {
        /// Made on the server.
        case made
        /// The server already held it (sent once before, its answer lost;
        /// or a deletion of an item already gone).
        case alreadyMade
        /// Not made, and why: the item was changed or deleted on the server
        /// since, or the change is no longer valid there.
        case refused(String)
    }

    /// The change.
    public var change: KeptChange
    /// How it went.
    public var result: Result

    /// Creates an outcome.
    /// - Parameters:
    ///   - change: the change.
    ///   - result: how it went.
    public init(change: KeptChange, result: Result) {
        self.change = change
        self.result = result
    }

    /// One line for a person: what the change was and what became of it.
    public var description: String {
        let what = switch change.kind {
        case .add: "adding ‘\(change.title)’"
        case .edit: "the change to ‘\(change.title)’"
        case .delete: "deleting ‘\(change.title)’"
        }
        return switch result {
        case .made: "\(what), made while the server could not be reached, is now on the server"
        case .alreadyMade: "\(what), made while the server could not be reached, was on the server already"
        case .refused(let why): "\(what), made while the server could not be reached, was not made: \(why)"
        }
    }
}

/// What ``CalendarStore/updateOwnItems(now:exporterFor:whileWaiting:ifDamaged:_:)`` did.
public struct OwnItemsUpdate<T> {
    /// What the change's body returned.
    public var value: T
    /// Whether the change was kept on this device because the server could
    /// not be reached (it is sent by a later call that reaches it).
    public var isKept: Bool
    /// How many kept changes wait for the server, this one included.
    public var waiting: Int
    /// What became of the changes kept earlier, sent before this one was made.
    public var sent: [KeptChangeOutcome]

    /// Creates a report.
    /// - Parameters:
    ///   - value: what the body returned.
    ///   - isKept: whether the change was kept on this device.
    ///   - waiting: how many kept changes wait.
    ///   - sent: the earlier changes sent first.
    public init(value: T, isKept: Bool, waiting: Int, sent: [KeptChangeOutcome]) {
        self.value = value
        self.isKept = isKept
        self.waiting = waiting
        self.sent = sent
    }
}

extension OwnItemsUpdate: Sendable where T: Sendable {}

extension KeptChangeOutcome.Result {
    /// Whether the change was not made.
    var isRefused: Bool {
        if case .refused = self { return true }
        return false
    }
}

extension KeptChange {
    /// The changes that take `before` to `after`, one per item, in the
    /// order of `after`'s items (deletions last).
    /// - Throws: a change to anything but a person's own items: the gym's
    ///   book, the calendar's own properties or zones.
    static func changes(from before: ICalendar, to after: ICalendar, at now: Date, place: String) throws(CalendarStoreError) -> [KeptChange] {
        var (calendarBefore, calendarAfter) = (before, after)
        (calendarBefore.items, calendarAfter.items) = ([], [])
        guard calendarBefore == calendarAfter else {
            throw CalendarStoreError(.transport, "\(place): the server cannot be reached, and this changes the calendar itself; only changes to your own events and tasks are kept until it answers. Nothing was changed")
        }
        let old = Dictionary(before.items.map { ($0.uid, $0) }, uniquingKeysWith: { _, last in last })
        let new = Set(after.items.map(\.uid))
        var changes: [KeptChange] = []
        for item in after.items {
            if let was = old[item.uid] {
                if was != item { changes.append(KeptChange(kind: .edit, uid: item.uid, before: was, after: item, madeAt: now)) }
            } else {
                changes.append(KeptChange(kind: .add, uid: item.uid, before: nil, after: item, madeAt: now))
            }
        }
        for item in before.items where !new.contains(item.uid) {
            changes.append(KeptChange(kind: .delete, uid: item.uid, before: item, after: nil, madeAt: now))
        }
        func isRecord(_ item: CalendarItem?) -> Bool { item.map { SchedulingBook.isSchedulingItem($0) } ?? false }
        if let record = changes.first(where: { isRecord($0.before) || isRecord($0.after) }) {
            throw CalendarStoreError(.transport, "\(place): the server cannot be reached; ‘\(record.title)’ belongs to the gym's book, whose changes (bookings, places, sessions) are made only on what the server holds. Nothing was changed")
        }
        return changes
    }

    /// The kept changes made on a calendar read from the cache, so that
    /// what it shows includes them.
    static func apply(_ changes: [KeptChange], to calendar: inout ICalendar) {
        for change in changes {
            let at = calendar.items.firstIndex { $0.uid == change.uid }
            switch (change.after, at) {
            case (let item?, let at?): calendar.items[at] = item
            case (let item?, nil): calendar.items.append(item)
            case (nil, let at?): calendar.items.remove(at: at)
            case (nil, nil): break
            }
        }
    }

    /// Makes a command's changes on the calendar as the server holds it
    /// now: all, or, if one is refused, none (each then says why).
    static func make(_ batch: [KeptChange], on calendar: inout ICalendar) -> [KeptChangeOutcome.Result] {
        let original = calendar
        let results = batch.map { $0.make(on: &calendar) }
        guard let refusedAt = results.firstIndex(where: \.isRefused) else { return results }
        calendar = original
        let cause = "the same command's change to ‘\(batch[refusedAt].title)’ was not made, so neither was this"
        return results.map { $0.isRefused ? $0 : .refused(cause) }
    }

    /// Makes the change on the calendar as the server holds it now, if the
    /// item there is still as the change found it.
    func make(on calendar: inout ICalendar) -> KeptChangeOutcome.Result {
        let current = calendar.item(uid: uid)
        do throws(CalendarItemError) {
            switch kind {
            case .add:
                guard let after else { return .refused("nothing to add") }
                if let current {
                    return Self.says(current, sameAs: after) ? .alreadyMade : .refused("the server holds another item with its UID now")
                }
                try calendar.add(after, at: madeAt)
            case .edit:
                guard let after, let before else { return .refused("nothing to change") }
                guard let current else { return .refused("it was deleted on the server since; it is not brought back") }
                if Self.says(current, sameAs: after) { return .alreadyMade }
                guard Self.says(current, sameAs: before) else {
                    return .refused("it was changed on the server since (by another device or person); your change is not made over theirs, make it again if it still stands")
                }
                var revised = after
                revised.sequence = current.sequence
                _ = try calendar.update(revised, at: madeAt)
            case .delete:
                guard let current else { return .alreadyMade }
                guard let before, Self.says(current, sameAs: before) else {
                    return .refused("it was changed on the server since (by another device or person), so it was not deleted; delete it again if it still should go")
                }
                _ = try calendar.removeItem(uid: uid)
            }
        } catch {
            return .refused(error.message)
        }
        return .made
    }

    /// Whether two versions of an item say the same, whatever their stamps
    /// and revision numbers (a version written and read back).
    static func says(_ a: CalendarItem, sameAs b: CalendarItem) -> Bool {
        // A server may write a UTC time its own way (Radicale: `TZID=UTC:…Z`).
        func utc(_ t: CalendarTime) -> CalendarTime {
            if case .zoned(let wall, let zone) = t, ZoneRules.utcNames.contains(zone) { return .utc(wall) }
            return t
        }
        func bare(_ item: CalendarItem) -> CalendarItem {
            var item = item
            (item.sequence, item.lastModified) = (0, nil)
            item.start = utc(item.start)
            if case .at(let end)? = item.end { item.end = .at(utc(end)) }
            item.exceptionDates = item.exceptionDates.map(utc)
            item.recurrenceDates = item.recurrenceDates.map(utc)
            return item
        }
        return bare(a).hasSameContent(as: bare(b))
    }
}
