import Foundation
import CalendarCore

/// What merging one calendar into another did, item by item (by `UID`).
public struct SyncReport: Hashable, Sendable {
    /// Items that were new, now added.
    public var added: [String] = []
    /// Items the incoming calendar had a newer version of, now replaced.
    public var updated: [String] = []
    /// Items that were the same in both.
    public var unchanged: [String] = []
    /// Items where this calendar's version is newer; it was kept.
    public var keptNewer: [String] = []
    /// Items that differ with the same `SEQUENCE`, `LAST-MODIFIED` and
    /// `DTSTAMP`, so neither can be called newer; this calendar's was kept.
    public var conflicts: [String] = []
    /// Items this calendar has and the incoming one does not. They are not
    /// deleted: a file that no longer lists an item is not proof it was
    /// cancelled. The caller decides.
    public var missing: [String] = []

    /// Creates an empty report.
    public init() {}
}

extension ICalendar {
    /// Merges `incoming` into this calendar by `UID`: new items are added,
    /// newer versions replace older ones, and nothing is ever duplicated.
    ///
    /// Which version is newer is decided by `SEQUENCE` (RFC 5545 §3.8.7.4, the
    /// revision number), then `LAST-MODIFIED`, then `DTSTAMP`; a missing
    /// timestamp counts as oldest. Items only this calendar has are reported
    /// in ``SyncReport/missing`` and kept. Custom `VTIMEZONE`s the incoming
    /// items need come along.
    @discardableResult
    public mutating func merge(_ incoming: ICalendar) -> SyncReport {
        var report = SyncReport()
        var index: [String: Int] = [:]
        for (i, item) in items.enumerated() { index[item.uid] = i }
        var seen: Set<String> = []
        for new in incoming.items {
            guard seen.insert(new.uid).inserted else { continue }
            guard let i = index[new.uid] else {
                index[new.uid] = items.count
                items.append(new)
                report.added.append(new.uid)
                continue
            }
            let old = items[i]
            if old == new {
                report.unchanged.append(new.uid)
                continue
            }
            switch Self.compareVersions(new, old) {
            case .orderedDescending:
                items[i] = new
                report.updated.append(new.uid)
            case .orderedAscending: report.keptNewer.append(new.uid)
            case .orderedSame: report.conflicts.append(new.uid)
            }
        }
        report.missing = items.map(\.uid).filter { !seen.contains($0) }
        let known = Set(timeZoneDefinitions.compactMap { $0.properties.first { $0.name == "TZID" }?.value })
        for zone in incoming.timeZoneDefinitions {
            if let tzid = zone.properties.first(where: { $0.name == "TZID" })?.value, !known.contains(tzid) {
                timeZoneDefinitions.append(zone)
            }
        }
        return report
    }

    /// Orders two versions of one item: descending when `a` is newer.
    static func compareVersions(_ a: CalendarItem, _ b: CalendarItem) -> ComparisonResult {
        if a.sequence != b.sequence { return a.sequence > b.sequence ? .orderedDescending : .orderedAscending }
        func seconds(_ t: CalendarTime?) -> Int64 { t.flatMap { try? $0.epochSeconds(floatingIn: .utc) } ?? .min }
        for (x, y) in [(seconds(a.lastModified), seconds(b.lastModified)), (seconds(a.timestamp), seconds(b.timestamp))] where x != y {
            return x > y ? .orderedDescending : .orderedAscending
        }
        return .orderedSame
    }
}
