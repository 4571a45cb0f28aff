import CalendarCore
import Foundation
import ICalendarKit

/// A calendar as the resources a folder or a CalDAV collection holds: one
/// per `UID` (an item with its changed instances, a journal), one per
/// component kept without a `UID`, and one for the calendar's own
/// properties (a `VJOURNAL` with `UID:horari-calendar`: a server keeps a
/// standard component and its `X-` properties, but nothing outside one).
///
/// A change is written as the resources whose content changed, compared as
/// the model holds them, so that a booking writes its class's resource and
/// nothing else (issue 21: costs that follow the change).
enum Resources {
    /// What one resource holds.
    enum Key: Hashable, Sendable, Comparable {
        /// The calendar's own properties.
        case properties
        /// An item or a component, by `UID`.
        case uid(String)
        /// A component without a `UID`, or kept as written, by the digest of its text.
        case text(String)

        static func < (a: Key, b: Key) -> Bool { a.order < b.order }

        private var order: String {
            switch self {
            case .properties: "0"
            case .uid(let u): "1" + u
            case .text(let t): "2" + t
            }
        }
    }

    /// A resource's content, compared as the model holds it.
    enum Content: Hashable, Sendable {
        case properties(ContentComponent)
        case item(CalendarItem)
        case component(ContentComponent)
        case rejected(ContentComponent)
    }

    /// The `UID` of the properties journal.
    static let propertiesUID = "horari-calendar"

    /// A calendar split into its resources.
    static func split(_ calendar: ICalendar) -> [Key: Content] {
        var out: [Key: Content] = [:]
        if let journal = calendar.propertiesJournal(uid: propertiesUID) { out[.properties] = .properties(journal) }
        for item in calendar.items where out[.uid(item.uid)] == nil { out[.uid(item.uid)] = .item(item) }
        for c in calendar.components {
            if let uid = c.uid, out[.uid(uid)] == nil {
                out[.uid(uid)] = .component(c)
            } else {
                out[.text(digest(c))] = .component(c)
            }
        }
        for c in calendar.rejected { out[.text(digest(c))] = .rejected(c) }
        return out
    }

    /// The text of a file or a resource: a `VCALENDAR` with the contents
    /// given (one, or what a file another program wrote holds) and each
    /// `VTIMEZONE` they use, once.
    static func text(of contents: [Content], in calendar: ICalendar, exporter: ICalendarExporter) -> [UInt8] {
        var one = ICalendar(productID: calendar.productID, zones: calendar.zones)
        var options = exporter.options
        var zones: Set<String> = []
        for content in contents {
            switch content {
            case .properties(let c), .component(let c):
                one.components.append(c)
                zones.formUnion(timeZoneIDs(c))
            case .rejected(let c):
                one.rejected.append(c)
                options.includeRejected = true
                zones.formUnion(timeZoneIDs(c))
            case .item(let item):
                one.items.append(item)
                zones.formUnion(timeZoneIDs(item))
            }
        }
        one.timeZoneDefinitions = calendar.timeZoneDefinitions.filter { d in d.tzid.map(zones.contains) ?? false }
        return Array(ICalendarExporter(options: options).exportData(one))
    }

    /// One write a change makes: a resource (a file of a folder, a member
    /// of a collection) and what it holds now; nothing means it goes.
    struct Write {
        /// The file or member's name, as held (`nil` for a new one, named by ``Write/key``).
        var name: String?
        /// The first resource it holds, which names a new one.
        var key: Key
        /// What it holds now, in order; empty when it goes.
        var contents: [Content]
    }

    /// The writes that take `before` to `after`: each held resource one of
    /// whose keys changed (written with all it held, as another program may
    /// have put several in one), and a new resource for each new key.
    /// - Parameter held: each resource's name and keys, as read.
    static func writes(from before: ICalendar, to after: ICalendar, held: [(name: String, keys: [Key])]) -> [Write] {
        let old = split(before), new = split(after)
        // Equal as held is equal as compared: only what differs is put in canonical form.
        let changed = Set(old.keys).union(new.keys).filter { key in
            old[key] != new[key] && old[key].map(canonical) != new[key].map(canonical)
        }.sorted()
        var owner: [Key: Int] = [:]
        for (i, resource) in held.enumerated() {
            for key in resource.keys where owner[key] == nil { owner[key] = i }
        }
        var out: [Write] = []
        var written: Set<Int> = []
        for key in changed {
            if let i = owner[key] {
                guard written.insert(i).inserted else { continue }
                out.append(Write(name: held[i].name, key: key, contents: held[i].keys.compactMap { new[$0] }))
            } else if let content = new[key] {
                out.append(Write(name: nil, key: key, contents: [content]))
            }
        }
        return out
    }

    /// A content as compared for a change: without its `DTSTAMP`s, its
    /// properties, their parameters and its components in one order.
    ///
    /// A record the book writes afresh has no `DTSTAMP` until it is exported
    /// (then the time of the export), while the one read has the time it was
    /// last written; and a server may write back what it was given in
    /// another order (Radicale sorts the properties). Neither is a change
    /// (RFC 5545 gives properties and parameters no order), and taking them
    /// for one would make every change write every record.
    static func canonical(_ content: Content) -> Content {
        func line(_ l: ContentLine) -> ContentLine {
            ContentLine(name: l.name, parameters: l.parameters.sorted { $0.name < $1.name }, value: l.value)
        }
        func lines(_ ls: ContentLines) -> ContentLines {
            ContentLines(ls.withoutStamps.map(line).sorted { $0.text < $1.text })
        }
        // Subcomponents in the order of their digests, each digest made once.
        func ordered(_ cs: [ContentComponent]) -> [ContentComponent] {
            cs.map(strip).map { (digest($0), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
        }
        func strip(_ c: ContentComponent) -> ContentComponent {
            var c = c
            c.properties = lines(c.properties)
            c.components = ordered(c.components)
            return c
        }
        func strip(_ item: CalendarItem) -> CalendarItem {
            var item = item
            item.timestamp = nil
            item.properties = lines(item.properties)
            item.components = ordered(item.components)
            // Alarms as their components are compared, read again from the component in that order.
            item.alarms = item.alarms.map { alarm in
                let c = strip(alarm.component)
                return (digest(c), (try? Alarm(component: c)) ?? alarm)
            }.sorted { $0.0 < $1.0 }.map(\.1)
            item.unreadableAlarms = item.unreadableAlarms.map { kept in
                let c = strip(kept.component)
                return (digest(c), UnreadableAlarm(problem: kept.problem, component: c))
            }.sorted { $0.0 < $1.0 }.map(\.1)
            item.overrides = item.overrides.map { o in
                var o = o
                o.item = strip(o.item)
                return o
            }
            return item
        }
        switch content {
        case .properties(let c): return .properties(strip(c))
        case .component(let c): return .component(strip(c))
        case .rejected(let c): return .rejected(c)
        case .item(let item): return .item(strip(item))
        }
    }

    /// A new resource's name.
    static func name(for key: Key) -> String {
        switch key {
        case .properties: propertiesUID + ".ics"
        case .uid(let uid): ResourceName.forUID(uid)
        case .text(let digest): "horari-" + digest + ".ics"
        }
    }

    /// A new resource's name: its own (``name(for:)``) when no resource has
    /// it, else its key's digest's, else that with a number.
    static func freeName(for key: Key, isTaken: (String) -> Bool) -> String {
        let first = name(for: key)
        if !isTaken(first) { return first }
        let digest = "horari-" + Digest.sha256Hex(String(describing: key).utf8)
        var n = 1
        while true {
            let name = digest + (n == 1 ? "" : "-\(n)") + ".ics"
            if !isTaken(name) { return name }
            n += 1
        }
    }

    /// Puts the resources read back into one calendar: items and components
    /// in the order given, the properties journal as the calendar's own
    /// properties, each custom zone once.
    static func assemble(_ parts: [ICalendar]) -> ICalendar {
        var calendar = ICalendar()
        var seenZones: Set<String> = []
        var seenUIDs: Set<String> = []
        for part in parts {
            if calendar.productID == nil { calendar.productID = part.productID }
            for item in part.items where seenUIDs.insert(item.uid).inserted { calendar.items.append(item) }
            for c in part.components {
                if ICalendar.isPropertiesJournal(c, uid: propertiesUID) {
                    calendar.applyPropertiesJournal(c)
                } else if c.uid.map({ seenUIDs.insert($0).inserted }) ?? true {
                    calendar.components.append(c)
                }
            }
            calendar.rejected += part.rejected
            for d in part.timeZoneDefinitions {
                if let id = d.tzid, seenZones.insert(id).inserted {
                    calendar.timeZoneDefinitions.append(d)
                    calendar.zones[id] = part.zones[id]
                }
            }
            for id in part.zones.tzids where calendar.zones[id] == nil { calendar.zones[id] = part.zones[id] }
        }
        return calendar
    }

    /// Refuses a change to a calendar that did not import cleanly, unless
    /// `policy` goes on (see `CalendarFile.DamagePolicy`).
    /// - Parameters:
    ///   - place: the folder or the collection, as messages say it.
    ///   - diagnostics: what reading found.
    static func refuseDamage(at place: String, _ diagnostics: [ICalendarDiagnostic], _ policy: CalendarFile.DamagePolicy) throws(ICalendarError) {
        try CalendarFile.refuseDamage(at: place, diagnostics.filter(\.losesText), policy)
    }

    // MARK: Small readings

    /// The digest of a component's lines, its name for a resource.
    static func digest(_ c: ContentComponent) -> String {
        var bytes: [UInt8] = Array(c.name.utf8)
        func add(_ c: ContentComponent) {
            for line in c.properties { bytes += Array(line.text.utf8) + [0x0A] }
            for sub in c.components {
                bytes += Array(sub.name.utf8)
                add(sub)
            }
        }
        add(c)
        return Digest.sha256Hex(bytes)
    }

    static func timeZoneIDs(_ c: ContentComponent) -> Set<String> { c.timeZoneIDs() }

    static func timeZoneIDs(_ item: CalendarItem) -> Set<String> {
        var out: Set<String> = []
        func use(_ t: CalendarTime?) { if let z = t?.zoneIdentifier { out.insert(z) } }
        func useItem(_ i: CalendarItem) {
            use(i.start)
            if case .at(let e) = i.end { use(e) }
            for alarm in i.alarms { if case .absolute(let t) = alarm.trigger { use(t) } }
            i.recurrenceDates.forEach(use)
            i.exceptionDates.forEach(use)
        }
        useItem(item)
        for o in item.overrides {
            use(o.recurrenceID)
            useItem(o.item)
        }
        return out
    }
}
