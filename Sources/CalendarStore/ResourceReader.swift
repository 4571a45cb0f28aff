import CalendarCore
import Foundation
import ICalendarKit

/// Reads the resources of a folder or a collection — thousands of small
/// `VCALENDAR`s — as one calendar, in one import.
///
/// One import per resource costs more in setting up than in reading (a
/// gym's 2,000 members took 0.5 s that way, ten times its one file), so
/// the resources' components are put one after another under one
/// `VCALENDAR`, each `VTIMEZONE` once, and imported together; each line
/// keeps where it came from, so a diagnostic names its resource and its
/// line there. A resource that cannot be read that way — not a whole
/// `VCALENDAR`, several, a component without a `UID`, a `UID` another
/// resource has too — is imported alone, as before.
enum ResourceReader {
    /// One resource's text.
    struct Source {
        /// Its name, for messages (`yoga.ics`).
        var name: String
        var bytes: [UInt8]
    }

    /// What reading found.
    struct Read {
        var calendar: ICalendar
        /// Every diagnostic, its message starting with its resource's name, its line the resource's.
        var diagnostics: [ICalendarDiagnostic]
        /// Each source's resources' keys (``Resources/Key``), in the sources' order; `nil` for one not read.
        var keys: [[Resources.Key]?]
        /// Whether a source did not import cleanly (``ImportResult/damage``).
        var damaged: [Bool]
        /// ``Plan/libicalClean`` for the plan read: the joined text was checked by libical, now or before, and found clean.
        var libicalClean: String? = nil

        /// The sources read, each named by its `ids` entry (`ids` in the
        /// sources' order: a file's name, a member's href), with its keys and
        /// whether it imported cleanly; a source not read is left out.
        func resources(_ ids: [String]) -> [Resource] {
            zip(ids, zip(keys, damaged)).compactMap { id, read in read.0.map { Resource(id: id, keys: $0, damaged: read.1) } }
        }
    }

    /// One resource read: its file's name or member's href, its resources' keys, and whether it imported cleanly.
    struct Resource {
        var id: String
        var keys: [Resources.Key]
        var damaged: Bool
    }

    /// Reads the sources.
    static func read(_ sources: [Source], options: ImportOptions) -> Read {
        read(plan(sources, options: options), options: options) { sources[$0].bytes }
    }

    /// Decides which sources are read together and joins their texts.
    static func plan(_ sources: [Source], options: ImportOptions) -> Plan {
        var scans: [ICalendarResourceScan?] = sources.map { ICalendarResourceScan(bytes: $0.bytes, maxLineBytes: options.maxLineBytes) }
        // A UID in two resources: each alone, so that neither is taken for the other.
        var owners: [String: Int] = [:]
        var shared: Set<Int> = []
        for (i, s) in scans.enumerated() {
            for uid in s?.uids ?? [] {
                if let other = owners.updateValue(i, forKey: uid), other != i { shared.formUnion([i, other]) }
            }
        }
        for i in shared { scans[i] = nil }
        var notes: [String] = []
        if !shared.isEmpty {
            let names = shared.sorted().map { sources[$0].name }.joined(separator: ", ")
            notes.append("\(names): a UID is in more than one of these resources; each is read alone, and the first one read keeps the UID")
        }
        // A zone is written once when every resource that defines it defines it alike; one that defines it
        // otherwise is read alone (its times keep the first definition read: said below). An IANA name is
        // read with the system's tz data whatever its definition says (the exporter writes each resource's
        // rules from that resource's first year: a class's 2019 part and its own event differ so), so any
        // of its definitions does.
        var definitions: [String: [UInt8]] = [:]
        var zones: [String: Bool] = [:]
        var otherwise: [String] = []
        for (i, s) in scans.enumerated() {
            guard let s else { continue }
            for block in s.blocks {
                guard let tzid = block.timeZone else { continue }
                let system = zones[tzid] ?? ICalendarImporter.readsWithSystemZone(tzid)
                zones[tzid] = system
                if system { continue }
                let text = block.text
                if let known = definitions[tzid] {
                    if known != text {
                        scans[i] = nil
                        otherwise.append("\(sources[i].name) defines the zone ‘\(tzid)’ otherwise than another resource; its times are read with the first definition read")
                        break
                    }
                } else {
                    definitions[tzid] = text
                }
            }
        }
        notes += otherwise
        let (text, origin) = ICalendarResourceScan.join(scans)
        return Plan(names: sources.map(\.name), maxLineBytes: options.maxLineBytes, zones: zones,
                    alone: scans.indices.filter { scans[$0] == nil }, notes: notes, owners: owners,
                    text: text, origin: origin.map { Plan.Origin(source: $0.source, line: $0.line) })
    }

    /// Reads sources as `plan` says; `bytes(i)` is source `i`'s text, asked
    /// only of one read alone. A plan kept from before must ``Plan/fits(_:options:)`` them.
    static func read(_ plan: Plan, options: ImportOptions, bytes: (Int) -> [UInt8]?) -> Read {
        let names = plan.names, origin = plan.origin
        let sharedDiagnostics = plan.notes.map { ICalendarDiagnostic(.warning, line: 1, .other, $0) }
        var alone = Set(plan.alone)

        var diagnostics = sharedDiagnostics
        var damaged = [Bool](repeating: false, count: names.count)
        var keys = [[Resources.Key]?](repeating: nil, count: names.count)
        var parts: [ICalendar] = []
        var libicalClean: String?
        if alone.count < names.count {
            do {
                var joined = options
                let key = options.checksWithLibICal ? Plan.libicalKey(options) : nil
                if let key, plan.libicalClean == key { joined.checksWithLibICal = false }
                let result = try ICalendarImporter(options: joined).importCalendar(from: Data(plan.text))
                if let key, !result.diagnostics.contains(where: { $0.code == .libicalError }) { libicalClean = key }
                for d in result.diagnostics {
                    var d = d
                    let at = d.line - 1
                    if at >= 0, at < origin.count, names.indices.contains(origin[at].source) {
                        let source = origin[at].source
                        d.line = origin[at].line
                        d.message = "\(names[source]): " + d.message
                        if d.losesText { damaged[source] = true }
                    }
                    diagnostics.append(d)
                }
                var held = [[Resources.Key]](repeating: [], count: names.count)
                for (key, content) in Resources.split(result.calendar) {
                    // A UID the importer reads otherwise than the scan (one it cleaned of control characters, say):
                    // no resource is sure to be its own, so each is read alone.
                    guard let source = owner(of: key, content, plan.owners), names.indices.contains(source) else { throw Unmatched() }
                    held[source].append(Self.held(key))
                }
                for i in names.indices where !alone.contains(i) { keys[i] = held[i].sorted() }
                parts.append(result.calendar)
            } catch {
                diagnostics = sharedDiagnostics
                damaged = [Bool](repeating: false, count: names.count)
                // The joined text cannot fail as a whole where its parts would not: each alone, then.
                alone = Set(names.indices)
                libicalClean = nil
            }
        }
        for (i, name) in names.enumerated() where alone.contains(i) {
            guard let text = bytes(i) else {
                diagnostics.append(ICalendarDiagnostic(.warning, line: 1, .other, "\(name): its text cannot be read; it was not read, and is left as it is"))
                continue
            }
            let result: ImportResult
            do { result = try ICalendarImporter(options: options).importCalendar(from: Data(text)) } catch {
                diagnostics.append(ICalendarDiagnostic(.warning, line: 1, .other, "\(name): \(error.message); it was not read, and is left as it is"))
                continue
            }
            diagnostics += result.diagnostics.map { d in
                var d = d
                d.message = "\(name): " + d.message
                return d
            }
            damaged[i] = !result.damage.isEmpty
            keys[i] = Resources.split(result.calendar).keys.map(Self.held).sorted()
            parts.append(result.calendar)
        }
        return Read(calendar: Resources.assemble(parts), diagnostics: diagnostics, keys: keys, damaged: damaged, libicalClean: libicalClean)
    }

    private struct Unmatched: Error {}

    /// A key as the assembled calendar has it: a resource's properties
    /// journal, read as a component of its own, is the calendar's properties.
    static func held(_ key: Resources.Key) -> Resources.Key {
        key == .uid(Resources.propertiesUID) ? .properties : key
    }

    /// The source a resource came from, by its `UID`.
    private static func owner(of key: Resources.Key, _ content: Resources.Content, _ owners: [String: Int]) -> Int? {
        switch (key, content) {
        case (.properties, _): owners[Resources.propertiesUID]
        case (.uid(let uid), _): owners[uid]
        case (.text, .component(let c)), (.text, .rejected(let c)), (.text, .properties(let c)): c.uid.flatMap { owners[$0] }
        case (.text, .item(let item)): owners[item.uid]
        }
    }
}
