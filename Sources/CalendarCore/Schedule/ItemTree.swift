import Foundation

/// Which items of a schedule are part of which (a league's rounds, a round's
/// matches, a project's tasks), read from their relations both ways.
///
/// An item's parent is the first item of the schedule that its own
/// ``CalendarItem/RelationType/parent`` relation names, else the first item
/// whose ``CalendarItem/RelationType/child`` relation names it: RFC 5545 §3.8.4.5 lets either side state the
/// relation, and Thunderbird, Apple Reminders, Nextcloud Tasks and
/// KCalendarCore state it on the child. A relation to an item the schedule
/// does not hold, to the item itself, or one that would make an item its own
/// ancestor is kept in the item and left out of the tree.
///
/// Children are in order of start on the calendar's own clock (then `UID`;
/// a task with no date last), and an item's
/// ``ordinal(of:)`` is its place among its parent's children: a round's
/// number is its place in the league, so a round moved to another weekend
/// is numbered where it now falls.
///
/// ```swift
/// let tree = ItemTree(schedule)   // ICalendarKit reads the RELATED-TO lines
/// for uid in tree.children(of: "laliga-2026") {
///     print(tree.ordinal(of: uid) ?? 0, schedule.item(uid: uid)?.title ?? "")
/// }
/// ```
public struct ItemTree: Hashable, Sendable {
    /// Each item's parent, by `UID`.
    private let parents: [String: String]
    /// Each parent's children, by `UID`, in order.
    private let childLists: [String: [String]]
    /// Each child's place among its parent's children, from 1.
    private let ordinals: [String: Int]

    /// The tree of a schedule's items, each item's relations read by
    /// `relations` (ICalendarKit's `ItemTree(_:)` reads them from each item's
    /// `RELATED-TO` lines).
    ///
    /// - Parameters:
    ///   - schedule: the items; floating and all-day starts are ordered on
    ///     its own zone's clock.
    ///   - relations: an item's relations, in the order stated.
    /// - Complexity: O(n log n) in the items (the parts sorted), after one
    ///   call of `relations` for each.
    public init(_ schedule: Schedule, relations: (CalendarItem) -> [CalendarItem.Relation]) {
        var parents: [String: String] = [:]
        var stated: [(child: String, parent: String)] = []
        var fromParents: [(child: String, parent: String)] = []
        for item in schedule.items {
            for relation in relations(item) {
                guard let other = relation.uid, other != item.uid, schedule.item(uid: other) != nil else { continue }
                if relation.type == .parent {
                    stated.append((item.uid, other))
                } else if relation.type == .child {
                    fromParents.append((other, item.uid))
                }
            }
        }
        // A child's own word first, then its parent's; the first of each
        // wins. A child has no parent when its link is tried, so it is the
        // root of its own part of the tree, and the link closes a circle
        // exactly when the parent's root is the child: the roots are kept in
        // a union-find, so each check is near O(1) however deep the tree.
        var roots: [String: String] = [:]
        func root(_ uid: String) -> String {
            var top = uid
            while let up = roots[top], up != top { top = up }
            var at = uid
            while let up = roots[at], up != top {
                roots[at] = top
                at = up
            }
            return top
        }
        for (child, parent) in stated + fromParents where parents[child] == nil && root(parent) != child {
            parents[child] = parent
            roots[child] = root(parent)
        }
        // Parts are ordered on the calendar's own clock (the schedule's zone,
        // else UTC), not a viewer's: a round's number is the same for
        // everyone. A part with no date (a task for some day) comes last.
        let zone = schedule.timeZone ?? .utc
        var keys: [String: Double] = [:]
        var childLists: [String: [String]] = [:]
        for (child, parent) in parents {
            childLists[parent, default: []].append(child)
            if let item = schedule.item(uid: child) {
                keys[child] = item.isUndated ? .infinity
                    : (try? item.start.instant(floatingZone: zone, zones: schedule.zones).timeIntervalSince1970) ?? Double(item.start.wallTime.localSeconds)
            }
        }
        var ordinals: [String: Int] = [:]
        for (parent, children) in childLists {
            let sorted = children.sorted { (keys[$0] ?? 0, $0) < (keys[$1] ?? 0, $1) }
            childLists[parent] = sorted
            for (i, child) in sorted.enumerated() { ordinals[child] = i + 1 }
        }
        self.parents = parents
        self.childLists = childLists
        self.ordinals = ordinals
    }

    /// Whether no item of the schedule is part of another.
    public var isEmpty: Bool { parents.isEmpty }

    /// The `UID` of the item this one is part of, if the schedule holds it.
    /// - Parameter uid: an item's `UID`.
    public func parent(of uid: String) -> String? { parents[uid] }

    /// The `UID`s of the items that are part of this one, in order of start.
    /// - Parameter uid: an item's `UID`.
    public func children(of uid: String) -> [String] { childLists[uid] ?? [] }

    /// The item's place among its parent's children, from 1 (a round's
    /// number in its league), or `nil` for an item that is part of none.
    /// - Parameter uid: an item's `UID`.
    public func ordinal(of uid: String) -> Int? { ordinals[uid] }

    /// The items above this one, its parent first.
    /// - Parameter uid: an item's `UID`.
    public func ancestors(of uid: String) -> [String] {
        var out: [String] = []
        var at = parents[uid]
        while let here = at {
            out.append(here)
            at = parents[here]
        }
        return out
    }
}
