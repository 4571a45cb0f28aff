import Foundation
import CalendarCore

/// What merging one calendar into another did, item by item (by `UID`).
public struct MergeReport: Hashable, Sendable {
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
    /// Custom zones of the incoming calendar whose `TZID` this calendar
    /// already defines with other rules, each with the `TZID` it was given
    /// here (`My Office` → `My Office (2)`); the incoming items in it now
    /// name the new `TZID`, so each calendar's times keep their own rules.
    public var renamedZones: [String: String] = [:]
    /// The incoming calendar's own properties this one took (`X-WR-CALNAME`,
    /// `X-WR-TIMEZONE`, `COLOR`, `X-WR-CALDESC`, …): all of them when this
    /// calendar had none of its own (a new calendar), else none.
    public var takenCalendarProperties: [String] = []
    /// The incoming calendar's own properties that say something else than
    /// this calendar's and were not taken: this calendar keeps its name,
    /// zone and colour when it has them.
    public var calendarPropertiesNotTaken: [String] = []
    /// The names of the incoming calendar's other components that came along
    /// as written (`VJOURNAL`, `VFREEBUSY`, an `X-` component, a task with no
    /// date, one its import set aside): a merge loses none of them.
    public var addedComponents: [String] = []

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
    /// in ``MergeReport/missing`` and kept. Custom `VTIMEZONE`s the incoming
    /// items need come along, with their rules (``zones``).
    ///
    /// An incoming item that is only instances of a series (no master of
    /// its own: an invitation to one occurrence, RFC 5546 §4.4) merges into
    /// what this calendar holds instance by instance — each replaces ours of
    /// the same instance when newer, or is added — and never replaces the
    /// series: taken whole, it deleted every other occurrence. A series
    /// arriving where this calendar holds only instances keeps them.
    ///
    /// A custom `TZID` both calendars define, with different rules, is kept
    /// apart: the incoming zone and every incoming time in it take a new
    /// `TZID` (`My Office (2)`, the first free number), listed in
    /// ``MergeReport/renamedZones``. Neither calendar's times are ever read
    /// with the other's rules, and nothing is lost: the merged file says what
    /// both said. (Refusing the merge would leave the caller nothing to do
    /// about it; keeping one definition would move the other's events
    /// without a word.) The same `TZID` with the same rules is one zone.
    ///
    /// The calendar's own properties (its name, colour, zone, description,
    /// …) come along when this calendar has none of its
    /// own, as a new calendar has none: importing a file into a new calendar
    /// keeps the calendar, not only its items. A calendar that has its own
    /// keeps them, and the report lists the incoming ones that differ
    /// (``MergeReport/calendarPropertiesNotTaken``). A feed's refresh
    /// interval (``refreshInterval``) is about the feed, not a calendar it
    /// is merged into: never taken, and listed only where this calendar
    /// has one of its own. `METHOD` (an iTIP
    /// message's) never comes along: a stored calendar has none.
    ///
    /// - Parameter incoming: the calendar to take items from.
    /// - Returns: what happened to each item, and any zone renamed.
    @discardableResult
    public mutating func merge(_ incoming: ICalendar) -> MergeReport {
        merge(incoming, zoneNamedBy: [])
    }

    /// Merges `incoming` into this calendar by `UID`, as ``merge(_:)``, for
    /// a calendar whose application records its clock in a property of its
    /// own: a calendar that names its clock in one of `zoneProperties` keeps
    /// no other (``calendarZone(namedBy:)``).
    ///
    /// - Parameters:
    ///   - incoming: the calendar to take items from.
    ///   - zoneProperties: calendar properties that name this calendar's clock, first first.
    /// - Returns: what happened to each item, and any zone renamed.
    @discardableResult
    public mutating func merge(_ incoming: ICalendar, zoneNamedBy zoneProperties: [String]) -> MergeReport {
        var report = MergeReport()
        takeCalendarProperties(of: incoming, zoneNamedBy: zoneProperties, &report)
        let incoming = adoptingZones(of: incoming, &report)
        // One position table for both calendars, made once at its full size,
        // rather than a dictionary of our UIDs and a set of theirs (24 and 16
        // bytes a slot, and two tables while one grows): they were alive at
        // the peak of `horari import`. Ours go in first, the last item of a
        // UID winning as it did in a dictionary filled in order; then each
        // incoming UID that is new, as it is added.
        let ownCount = items.count
        var index = UIDIndex(capacity: ownCount + incoming.items.count)
        for i in items.indices.reversed() where index.position(of: items[i].uid, in: items) == nil { index.insert(items[i].uid, at: i) }
        // Which of our items an incoming one has been compared with: only the
        // first incoming item of a UID is merged.
        var matched = [Bool](repeating: false, count: ownCount)
        items.reserveCapacity(ownCount + incoming.items.count)
        if ownCount == 0 { report.added.reserveCapacity(incoming.items.count) }
        for new in incoming.items {
            guard let i = index.position(of: new.uid, in: items) else {
                index.insert(new.uid, at: items.count)
                items.append(new)
                report.added.append(new.uid)
                continue
            }
            // A later incoming item of a UID just added, or already compared.
            guard i < ownCount, !matched[i] else { continue }
            matched[i] = true
            let old = items[i]
            // Only instances (an invitation to one occurrence, RFC 5546
            // §3.2.2.2, or a file of overrides), or a series where we hold
            // only instances: they join what we hold instance by instance,
            // and no instance is lost to a whole-item replacement.
            if !new.hasMaster || !old.hasMaster {
                var merged = old
                var outcome = ComparisonResult.orderedDescending
                if !new.hasMaster {
                    outcome = Self.takeInstances(of: new, into: &merged, zones: zones)
                } else {
                    // The series arrives where we hold only instances: it is
                    // taken, with ours where it has none or ours are newer.
                    merged = new
                    Self.takeInstances(of: old, into: &merged, zones: zones)
                }
                switch outcome {
                case .orderedDescending:
                    items[i] = merged
                    report.updated.append(new.uid)
                case .orderedAscending: report.keptNewer.append(new.uid)
                case .orderedSame: report.unchanged.append(new.uid)
                }
                continue
            }
            // The same content written again (an export imported back) is
            // unchanged, whatever its DTSTAMP.
            if old.hasSameContent(as: new) {
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
        takeKeptComponents(of: incoming, &report)
        report.missing = items[..<ownCount].filter { own in
            guard let i = index.position(of: own.uid, in: items) else { return true }
            return !matched[i]
        }.map(\.uid)
        return report
    }

    /// The incoming calendar's components kept as written — ``components``
    /// (journals, free/busy, `X-` components, tasks with no date) and
    /// ``rejected`` (what its import set aside) — come along: `horari import`
    /// into a new calendar lost them all before. One this calendar already
    /// holds, equal, is not added twice; a component with the `UID` of one of
    /// ours of the same name replaces it when it is a newer version (`SEQUENCE`,
    /// then `LAST-MODIFIED`, then `DTSTAMP`, as for items).
    private mutating func takeKeptComponents(of incoming: ICalendar, _ report: inout MergeReport) {
        func value(_ c: ContentComponent, _ name: String) -> String? { c.properties.first { $0.name == name }?.value.trimmedValue }
        func isNewer(_ a: ContentComponent, than b: ContentComponent) -> Bool {
            let (x, y) = (Int(value(a, "SEQUENCE") ?? "") ?? 0, Int(value(b, "SEQUENCE") ?? "") ?? 0)
            if x != y { return x > y }
            // UTC basic-format times (RFC 5545 §3.8.7.2, §3.8.7.3) order as text.
            for name in ["LAST-MODIFIED", "DTSTAMP"] where value(a, name) != value(b, name) {
                return (value(a, name) ?? "") > (value(b, name) ?? "")
            }
            return false
        }
        /// A set-aside component's identity: a second import of one file
        /// sets the same ones aside again, which must not pile up.
        func identity(_ c: ContentComponent) -> [String?] { [c.name, value(c, "UID"), value(c, "RECURRENCE-ID"), value(c, "SEQUENCE")] }
        func take(_ theirs: [ContentComponent], into ours: inout [ContentComponent], byUID: Bool) {
            guard !theirs.isEmpty else { return }
            var present = Set(ours)
            var identities = byUID ? [] : Set(ours.map(identity))
            var positions: [String: Int] = [:]
            if byUID {
                for (i, c) in ours.enumerated() { if let u = value(c, "UID") { positions[c.name + "\u{0}" + u] = i } }
            }
            for c in theirs where !present.contains(c) {
                if byUID, let u = value(c, "UID"), let i = positions[c.name + "\u{0}" + u] {
                    if isNewer(c, than: ours[i]) { ours[i] = c }
                    continue
                }
                if !byUID, value(c, "UID") != nil, !identities.insert(identity(c)).inserted { continue }
                ours.append(c)
                present.insert(c)
                report.addedComponents.append(c.name)
            }
        }
        take(incoming.components, into: &components, byUID: true)
        take(incoming.rejected, into: &rejected, byUID: false)
    }

    /// Whether this calendar says anything of itself: a name, a colour, a
    /// zone, or a property beyond the `CALSCALE:GREGORIAN` every file may carry.
    private var hasOwnProperties: Bool {
        name != nil || color != nil || timeZone != nil
            || properties.contains { !($0.name == "CALSCALE" && $0.value.uppercased() == "GREGORIAN") }
    }

    /// See ``merge(_:)``: everything when this calendar has nothing of its
    /// own, else nothing, with what differs listed. The zone (`X-WR-TIMEZONE`)
    /// is taken only when this calendar keeps no clock at all (neither
    /// `X-WR-TIMEZONE` nor one of `zoneProperties`, ``calendarZone(namedBy:)``):
    /// a calendar with a clock keeps every zone property it has, since taking
    /// another would show its times on another clock and read its floating
    /// times there (a Madrid calendar that took a Tokyo file's zone showed
    /// its 10:00 at 18:00).
    private mutating func takeCalendarProperties(of incoming: ICalendar, zoneNamedBy zoneProperties: [String], _ report: inout MergeReport) {
        let isNew = !hasOwnProperties
        if let zone = incoming.timeZone {
            if timeZone == nil, calendarZone(namedBy: zoneProperties) == nil {
                timeZone = zone
                report.takenCalendarProperties.append("X-WR-TIMEZONE")
            } else if timeZone != zone {
                report.calendarPropertiesNotTaken.append("X-WR-TIMEZONE")
            }
        }
        // A feed's refresh interval is about the feed it came in, not about
        // the calendar it is merged into, a new one included (a calendar of
        // one's own made from a feed is not that feed, and its backup would
        // say otherwise): never taken, and said only where this calendar
        // has one of its own (the gym's own public feed, imported back, said
        // so every time).
        let aboutTheFeed: Set<String> = [Self.refreshIntervalProperty, Self.publishedTTLProperty]
        if isNew {
            if let n = incoming.name { name = n; report.takenCalendarProperties.append("X-WR-CALNAME") }
            if let c = incoming.color { color = c; report.takenCalendarProperties.append("COLOR") }
            properties = ContentLines(incoming.properties.filter { !aboutTheFeed.contains($0.name) })
            for line in properties where !report.takenCalendarProperties.contains(line.name) {
                report.takenCalendarProperties.append(line.name)
            }
            return
        }
        if let n = incoming.name, n != name { report.calendarPropertiesNotTaken.append("X-WR-CALNAME") }
        if let c = incoming.color, c != color { report.calendarPropertiesNotTaken.append("COLOR") }
        for line in incoming.properties where !properties.contains(line) && !report.calendarPropertiesNotTaken.contains(line.name)
            && !(aboutTheFeed.contains(line.name) && !properties.contains { $0.name == line.name }) {
            report.calendarPropertiesNotTaken.append(line.name)
        }
    }

    /// Takes the incoming calendar's custom zones that this one lacks, and
    /// returns the incoming calendar with each zone that clashes with one of
    /// ours (same `TZID`, other rules) renamed, in its definition, its rules
    /// and its items' times.
    private mutating func adoptingZones(of incoming: ICalendar, _ report: inout MergeReport) -> ICalendar {
        func tzid(_ zone: ContentComponent) -> String? { zone.properties.first { $0.name == "TZID" }?.value.trimmedValue }
        let ours = Set(timeZoneDefinitions.compactMap(tzid)).union(zones.tzids)
        let theirs = Set(incoming.timeZoneDefinitions.compactMap(tzid)).union(incoming.zones.tzids)
        var taken = ours.union(theirs)
        var renames: [String: String] = [:]
        for name in theirs.sorted() where ours.contains(name) && zones[name] != incoming.zones[name] {
            var n = 2
            while taken.contains("\(name) (\(n))") || ZoneRules.ianaIdentifier(forTZID: "\(name) (\(n))") != nil { n += 1 }
            renames[name] = "\(name) (\(n))"
            taken.insert("\(name) (\(n))")
        }
        var incoming = incoming
        if !renames.isEmpty {
            report.renamedZones = renames
            let moves = renames.mapValues { Optional($0) }
            incoming.items = incoming.items.map { $0.mappingTimes(includingUntil: true) { $0.rezoned(moves) } }
            // Text kept as written names the zone too: it follows the rename.
            incoming.components = incoming.components.map { $0.renamingTimeZones(renames) }
            incoming.rejected = incoming.rejected.map { $0.renamingTimeZones(renames) }
            for i in incoming.timeZoneDefinitions.indices {
                guard let old = tzid(incoming.timeZoneDefinitions[i]), let new = renames[old] else { continue }
                for j in incoming.timeZoneDefinitions[i].properties.indices where incoming.timeZoneDefinitions[i].properties[j].name == "TZID" {
                    let line = incoming.timeZoneDefinitions[i].properties[j]
                    incoming.timeZoneDefinitions[i].properties[j] = ContentLine(name: line.name, parameters: line.parameters, value: new)
                }
            }
            var table = ZoneTable()
            for name in incoming.zones.tzids {
                guard let rules = incoming.zones[name] else { continue }
                if let new = renames[name] { table[new] = rules.renamed(new) } else { table[name] = rules }
            }
            incoming.zones = table
        }
        for zone in incoming.timeZoneDefinitions {
            if let name = tzid(zone), !ours.contains(name) { timeZoneDefinitions.append(zone) }
        }
        for name in incoming.zones.tzids where !ours.contains(name) { zones[name] = incoming.zones[name] }
        return incoming
    }

    /// Takes the instances of `new` into `series`, one by one, as RFC 5546
    /// §2.1.5 orders versions of one instance:
    /// - one of the same instant as ours (a `RECURRENCE-ID` in UTC names the
    ///   same instance as ours with a `TZID`) replaces it when it is a newer
    ///   version (``compareVersions(_:_:)``) and of the same range: a single
    ///   instance never replaces a `RANGE=THISANDFUTURE` change, whose shift
    ///   of every later instance would be lost, nor the other way round;
    /// - one we have none of is added, unless it is older than our series
    ///   (a lower `SEQUENCE`) for a date the series no longer produces (an
    ///   `EXDATE` since): an old invitation does not bring back a cancelled date.
    /// - Returns: descending when one was taken, ascending when all were older, same when each was one we hold.
    @discardableResult
    static func takeInstances(of new: CalendarItem, into series: inout CalendarItem, zones: ZoneTable) -> ComparisonResult {
        func instant(_ t: CalendarTime) -> Int64? { try? t.epochSeconds(floatingZone: .utc, zones: zones) }
        var taken = false, older = false
        for o in new.overrides {
            let at = instant(o.recurrenceID)
            guard let j = series.overrides.firstIndex(where: { $0.recurrenceID == o.recurrenceID || (at != nil && instant($0.recurrenceID) == at) }) else {
                if series.hasMaster, o.item.sequence < series.sequence, !series.produces(o.recurrenceID, zones: zones) {
                    older = true
                    continue
                }
                series.overrides.append(o)
                taken = true
                continue
            }
            let ours = series.overrides[j]
            if ours.thisAndFuture == o.thisAndFuture, ours.item.hasSameContent(as: o.item) { continue }
            if ours.thisAndFuture == o.thisAndFuture, compareVersions(o.item, ours.item) == .orderedDescending {
                series.overrides[j] = o
                taken = true
            } else {
                older = true
            }
        }
        return taken ? .orderedDescending : older ? .orderedAscending : .orderedSame
    }

    /// Orders two versions of one item: descending when `a` is newer.
    static func compareVersions(_ a: CalendarItem, _ b: CalendarItem) -> ComparisonResult {
        if a.sequence != b.sequence { return a.sequence > b.sequence ? .orderedDescending : .orderedAscending }
        func seconds(_ t: CalendarTime?) -> Int64 { t.flatMap { try? $0.epochSeconds(floatingZone: .utc) } ?? .min }
        for (x, y) in [(seconds(a.lastModified), seconds(b.lastModified)), (seconds(a.timestamp), seconds(b.timestamp))] where x != y {
            return x > y ? .orderedDescending : .orderedAscending
        }
        return .orderedSame
    }
}
