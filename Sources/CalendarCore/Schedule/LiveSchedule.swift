import Foundation

/// The mutable, in-memory home of a calendar's items: validates every
/// change, hands out immutable ``Schedule`` snapshots and announces each change.
///
/// ```swift
/// let live = LiveSchedule()
/// let updates = await live.changes()          // subscribe before saving
/// try await live.add(item)
/// for await change in updates { redraw(change.snapshot) }
/// ```
///
/// An actor: changes are serialised, and every reader gets a consistent
/// snapshot (every item validated, so every zone it names resolves). Each
/// change rebuilds the snapshot's index (O(n log n)). It keeps nothing on
/// disk: where a calendar is kept is CalendarStore's (named `ScheduleStore`
/// until issue 30, when "store" came to mean persistence only).
public actor LiveSchedule {
    /// What happened to the items.
    public struct Change: Sendable {
        /// The kind of change.
        public enum Kind: String, Sendable, Hashable {
            /// An item was added.
            case added
            /// An item was replaced.
            case updated
            /// An item was removed.
            case deleted
        }

        /// The kind of change.
        public let kind: Kind
        /// The item's `UID`.
        public let uid: String
        /// The schedule after the change.
        public let snapshot: Schedule
    }

    /// The rules every item must pass.
    public let rules: ValidationRules
    /// The zones the items' calendar defines for itself (see ``Schedule/zones``):
    /// items are checked, and snapshots read, with them.
    public nonisolated let zones: ZoneTable
    /// The current snapshot.
    public private(set) var snapshot: Schedule
    private var items: [CalendarItem]
    private var subscribers: [UUID: AsyncStream<Change>.Continuation] = [:]

    /// Creates a store holding `items`, each validated.
    ///
    /// - Parameters:
    ///   - items: the items.
    ///   - rules: the rules every item must pass.
    ///   - zones: the zones the items' calendar defines for itself; empty by
    ///     default, for items in the system's zones only.
    /// - Throws: ``CalendarItemError`` for the first invalid item or a repeated UID.
    public init(items: [CalendarItem] = [], rules: ValidationRules = ValidationRules(), zones: ZoneTable = ZoneTable()) throws(CalendarItemError) {
        var seen = Set<String>()
        for item in items {
            try item.validate(rules, zones: zones)
            if !seen.insert(item.uid).inserted {
                throw CalendarItemError(.duplicateUID, field: .uid, "two items have the UID ‘\(item.uid)’")
            }
        }
        self.rules = rules
        self.zones = zones
        self.items = items
        self.snapshot = Schedule(items: items, timeZone: nil, zones: zones, compilingSeries: true)
    }

    /// Adds an item.
    /// - Throws: ``CalendarItemError``: the item is invalid, or its UID is taken.
    public func add(_ item: CalendarItem) throws(CalendarItemError) {
        try item.validate(rules, zones: zones)
        if items.contains(where: { $0.uid == item.uid }) {
            throw CalendarItemError(.duplicateUID, field: .uid, "an item with the UID ‘\(item.uid)’ exists already", suggestion: "edit it instead")
        }
        items.append(item)
        publish(.added, item.uid)
    }

    /// Replaces the item with the same UID.
    /// - Throws: ``CalendarItemError``: the item is invalid, or there is none with that UID.
    public func update(_ item: CalendarItem) throws(CalendarItemError) {
        try item.validate(rules, zones: zones)
        guard let i = items.firstIndex(where: { $0.uid == item.uid }) else {
            throw CalendarItemError(.notFound, field: .uid, "there is no item with the UID ‘\(item.uid)’")
        }
        items[i] = item
        publish(.updated, item.uid)
    }

    /// Marks the task with this UID done at `now`
    /// (``CalendarItem/markDone(at:floatingZone:zones:)``: a repeating task's
    /// earliest instance still to do).
    /// - Parameters:
    ///   - uid: the task.
    ///   - now: when it was done.
    ///   - floatingZone: the zone its floating times are read in; by default the machine's.
    /// - Throws: ``CalendarItemError``: there is none with that UID, or it is an event.
    public func markDone(uid: String, at now: Date = Date(), floatingZone: ZoneRules = .current) throws(CalendarItemError) {
        let zones = self.zones
        try revise(uid) { item throws(CalendarItemError) in try item.markDone(at: now, floatingZone: floatingZone, zones: zones) }
    }

    /// Reopens the done task with this UID
    /// (``CalendarItem/reopen(floatingZone:zones:)``: a repeating task's latest instance done).
    /// - Parameters:
    ///   - uid: the task.
    ///   - floatingZone: the zone its floating times are read in; by default the machine's.
    /// - Throws: ``CalendarItemError``: there is none with that UID, or it is an event.
    public func reopen(uid: String, floatingZone: ZoneRules = .current) throws(CalendarItemError) {
        let zones = self.zones
        try revise(uid) { item throws(CalendarItemError) in try item.reopen(floatingZone: floatingZone, zones: zones) }
    }

    private func revise(_ uid: String, _ change: (inout CalendarItem) throws(CalendarItemError) -> Void) throws(CalendarItemError) {
        guard let i = items.firstIndex(where: { $0.uid == uid }) else {
            throw CalendarItemError(.notFound, field: .uid, "there is no item with the UID ‘\(uid)’")
        }
        var item = items[i]
        try change(&item)
        try update(item)
    }

    /// Removes the item with this UID and returns it.
    /// - Throws: ``CalendarItemError/Code/notFound``.
    @discardableResult
    public func delete(uid: String) throws(CalendarItemError) -> CalendarItem {
        guard let i = items.firstIndex(where: { $0.uid == uid }) else {
            throw CalendarItemError(.notFound, field: .uid, "there is no item with the UID ‘\(uid)’")
        }
        let removed = items.remove(at: i)
        publish(.deleted, uid)
        return removed
    }

    /// A stream of every change from now on; it ends when the caller stops iterating.
    public func changes() -> AsyncStream<Change> {
        let (stream, continuation) = AsyncStream<Change>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let id = UUID()
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return stream
    }

    private func unsubscribe(_ id: UUID) { subscribers[id] = nil }

    private func publish(_ kind: Change.Kind, _ uid: String) {
        snapshot = Schedule(items: items, timeZone: nil, zones: zones, compilingSeries: true)
        let change = Change(kind: kind, uid: uid, snapshot: snapshot)
        for continuation in subscribers.values { continuation.yield(change) }
    }
}
