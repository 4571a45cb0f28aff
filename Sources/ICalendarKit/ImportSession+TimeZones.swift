import CalendarCore
import Foundation

extension ImportSession {
    // MARK: Time zones

    /// A `VTIMEZONE`: an IANA name needs none (the system's data is used);
    /// any other is this calendar's own zone.
    mutating func timeZone(_ node: RawNode) {
        guard let (tzidLine, _) = node.first("TZID") else {
            report(.warning, node.line, .missingProperty, "this VTIMEZONE has no TZID; it was kept as written but nothing can refer to it")
            calendar.components.append(node.contentComponent)
            return
        }
        let tzid = tzidLine.value.trimmedValue
        // An exact IANA name (or one behind a vendor prefix): the system's data is
        // used, as icalendar does, and export writes the zone afresh. Any other
        // name (custom, Windows, another letter case) is what this VTIMEZONE
        // says it is: RFC 5545 §3.2.19 makes the file's VTIMEZONE the definition.
        if Self.systemName(tzid) != nil { return }
        calendar.timeZoneDefinitions.append(node.contentComponent)
        do {
            let rules = try VTimeZone.rules(from: node, tzid: tzid)
            // The zone is this calendar's (ICalendar.zones), not the process's:
            // another calendar may define the same TZID otherwise, and keeps
            // its own rules. Only a second definition in this same file can
            // clash, and RFC 5545 §3.6.5 gives a TZID one VTIMEZONE.
            if let first = calendar.zones[tzid] {
                if first != rules {
                    report(.warning, node.line, .duplicate, "the zone ‘\(tzid)’ is defined a second time in this file, differently; the first definition is used (both are kept as written)")
                }
            } else {
                calendar.zones[tzid] = rules
            }
            definedTZIDs.insert(tzid)
        } catch {
            report(.error, error.line, .invalidValue, "the VTIMEZONE ‘\(tzid)’ cannot be used: \(error.message); times in it are read as floating", keptAsWritten: true)
        }
    }

    /// Resolves the `TZID`s that are not exact IANA names, now that every
    /// `VTIMEZONE` has been seen: the file's `VTIMEZONE` defines them (read as
    /// its IANA zone where it is one, ``ianaEquivalentsOfDefinedZones()``);
    /// without one, a name the time model resolves (Windows, another letter
    /// case) becomes that IANA name; anything else is read as floating (as
    /// icalendar does), keeping the TZID as an extra parameter so that export
    /// writes it back.
    mutating func resolveTimeZones() {
        var zones: [String: String?] = [:]
        for (tzid, line) in unresolvedTZIDs.sorted(by: { $0.value < $1.value }) where !definedTZIDs.contains(tzid) {
            if let iana = ZoneRules.ianaIdentifier(forTZID: tzid), (try? ZoneRules.named(iana)) != nil {
                zones[tzid] = .some(iana)
            } else {
                zones[tzid] = .some(nil)
                report(.warning, line, .unknownTimeZone, "the TZID ‘\(tzid)’ is not a known zone and the file has no VTIMEZONE for it; its times are read as floating (local) times")
            }
        }
        for (tzid, iana) in ianaEquivalentsOfDefinedZones() {
            zones[tzid] = .some(iana)
        }
        guard !zones.isEmpty else { return }
        for i in calendar.items.indices {
            calendar.items[i] = calendar.items[i].rezoned(zones)
        }
        for i in pending.indices {
            pending[i].item = pending[i].item.rezoned(zones)
            if let rid = pending[i].recurrenceID {
                pending[i].recurrenceID = rid.rezoned(zones)
                pending[i].item.noteFloating("RECURRENCE-ID", rid, zones)
            }
        }
    }

    /// The file's `VTIMEZONE`s under a name that stands for an IANA zone
    /// (Exchange's and Outlook's Windows names, `GMT Standard Time`) whose
    /// rules are that zone's wherever the calendar uses them: each is read
    /// as the IANA zone, and its definition is dropped, so that the export
    /// names the zone every client knows (with the tz database's own
    /// `VTIMEZONE`). The comparison runs from the earliest time in the zone
    /// to 2150: Exchange writes today's rule from 1601, which differs from
    /// the IANA zone's history but not where the events are. A definition
    /// that differs there is the file's own zone (RFC 5545 §3.2.19) and is kept.
    mutating func ianaEquivalentsOfDefinedZones() -> [String: String] {
        var candidates: [String: (iana: String, own: ZoneRules, system: ZoneRules)] = [:]
        for tzid in definedTZIDs {
            guard let iana = ZoneRules.ianaIdentifier(forTZID: tzid), iana != tzid, let own = calendar.zones[tzid],
                  let system = try? ZoneRules.named(iana) else { continue }
            candidates[tzid] = (iana, own, system)
        }
        guard !candidates.isEmpty else { return [:] }
        // A zone that text kept as written names (a VJOURNAL) keeps its
        // definition: that text still says `TZID=…`. Not for a rejected
        // component: an export writes those only when asked (a damaged file
        // saved with --force), so they would make the zone's name depend on
        // text the next import does not see, and a rejected component is
        // not valid iCalendar anyway; a reader that mends it finds the
        // Windows name read as its IANA zone, as one with no VTIMEZONE is
        // (found by FuzzICalendarImport: Tests/Fixtures/fuzz/import/).
        for c in calendar.components {
            for tzid in c.timeZoneIDs() { candidates[tzid] = nil }
        }
        guard !candidates.isEmpty else { return [:] }
        var earliest: [String: Int64] = [:]
        func use(_ t: CalendarTime?) {
            guard case .zoned(let wall, let z)? = t, candidates[z] != nil else { return }
            earliest[z] = min(earliest[z] ?? .max, wall.localSeconds)
        }
        func useAll(_ item: CalendarItem) {
            use(item.start)
            if case .at(let e) = item.end { use(e) }
            item.recurrenceDates.forEach(use)
            item.exceptionDates.forEach(use)
        }
        calendar.items.forEach(useAll)
        for p in pending {
            useAll(p.item)
            use(p.recurrenceID)
        }
        var out: [String: String] = [:]
        for (tzid, c) in candidates {
            guard let first = earliest[tzid] else { continue }
            let from = first - 86_400, to = VTimeZone.horizon
            let same = c.own.offset(atInstant: from) == c.system.offset(atInstant: from)
                && c.own.transitions(from: from, to: to).map { [$0.instant, Int64($0.offsetAfter)] }
                == c.system.transitions(from: from, to: to).map { [$0.instant, Int64($0.offsetAfter)] }
            guard same else { continue }
            out[tzid] = c.iana
            calendar.zones[tzid] = nil
            calendar.timeZoneDefinitions.removeAll { $0.properties.first { $0.name == "TZID" }?.value.trimmedValue == tzid }
        }
        return out
    }

    /// The zone name to use for a TZID that needs no VTIMEZONE: an exact
    /// IANA name, UTC, or an exact IANA name behind quotes or a vendor prefix
    /// (`/mozilla.org/20070129_1/Europe/Berlin`). Other names resolve later.
    static func systemName(_ tzid: String) -> String? {
        // Through `ZoneRules`, which asks the system's tz files before ICU
        // (ICU's zone tables cost 2 MB of a process on the first question).
        guard let iana = ZoneRules.ianaIdentifier(forTZID: tzid) else { return nil }
        if iana == tzid { return tzid }
        var name = tzid.trimmedValue
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
        return name == iana || name.hasSuffix("/" + iana) || ZoneRules.utcNames.contains(iana) ? iana : nil
    }
}

extension CalendarTime {
    /// This time with its zone renamed (`.some(name)`) or made floating (`.some(nil)`).
    func rezoned(_ zones: [String: String?]) -> CalendarTime {
        guard case .zoned(let wall, let z) = self, let change = zones[z] else { return self }
        if let name = change { return .zoned(wall, name) }
        return .floating(wall)
    }
}

extension CalendarItem {
    /// Records an unknown TZID of a property that became floating, as the
    /// parameter `X-HORARI-TZID`, so export keeps it without being invalid.
    mutating func noteFloating(_ property: String, _ t: CalendarTime?, _ zones: [String: String?]) {
        guard case .zoned(_, let z)? = t, case .some(nil) = zones[z] else { return }
        // Not `TZID`: a TZID with no VTIMEZONE is invalid RFC 5545 (§3.2.19).
        var params = extraParameters[property] ?? []
        if !params.contains(where: { $0.name == "X-HORARI-TZID" }) { params.insert(.init(name: "X-HORARI-TZID", values: [z]), at: 0) }
        extraParameters[property] = params
    }

    /// The item with its zones renamed or made floating (see ``CalendarTime/rezoned(_:)``),
    /// an unknown TZID noted on each property that held one.
    func rezoned(_ zones: [String: String?]) -> CalendarItem {
        var noted = self
        noted.noteFloating("DTSTART", start, zones)
        if case .at(let e) = end { noted.noteFloating(kind == .task ? "DUE" : "DTEND", e, zones) }
        noted.noteFloating("RDATE", recurrenceDates.first, zones)
        noted.noteFloating("EXDATE", exceptionDates.first, zones)
        for i in noted.overrides.indices {
            noted.overrides[i].item.noteFloating("RECURRENCE-ID", overrides[i].recurrenceID, zones)
            noted.overrides[i].item = noted.overrides[i].item.rezonedNotes(zones)
        }
        return noted.mappingTimes(includingUntil: true) { $0.rezoned(zones) }
    }

    /// The notes of ``rezoned(_:)`` on an override's own properties, without moving times.
    private func rezonedNotes(_ zones: [String: String?]) -> CalendarItem {
        var noted = self
        noted.noteFloating("DTSTART", start, zones)
        if case .at(let e) = end { noted.noteFloating(kind == .task ? "DUE" : "DTEND", e, zones) }
        return noted
    }
}

extension ContentComponent {
    /// Its `UID`, trimmed.
    package var uid: String? { properties.first { $0.name.uppercased() == "UID" }?.value.trimmedValue }

    /// Its `TZID` (a `VTIMEZONE`'s name), as written.
    package var tzid: String? { properties.first { $0.name == "TZID" }?.value }

    /// Every `TZID` its properties and subcomponents name.
    package func timeZoneIDs() -> Set<String> {
        var out: Set<String> = []
        for p in properties {
            for parameter in p.parameters where parameter.name == "TZID" { out.formUnion(parameter.values) }
        }
        for c in components { out.formUnion(c.timeZoneIDs()) }
        return out
    }

    /// The component with each `TZID` named in `renames` renamed, in its
    /// properties and subcomponents.
    func renamingTimeZones(_ renames: [String: String]) -> ContentComponent {
        var copy = self
        copy.properties = ContentLines(properties.map { p in
            guard p.parameters.contains(where: { $0.name == "TZID" && $0.values.contains { renames[$0] != nil } }) else { return p }
            var q = p
            q.parameters = p.parameters.map { param in
                guard param.name == "TZID" else { return param }
                return .init(name: param.name, values: param.values.map { renames[$0] ?? $0 })
            }
            return q
        })
        copy.components = components.map { $0.renamingTimeZones(renames) }
        return copy
    }
}

extension ICalendarImporter {
    /// Whether the importer reads times under `tzid` with the system's tz
    /// data whatever a `VTIMEZONE` of that name says: an exact IANA name,
    /// or one behind a vendor prefix. Two resources that define such a zone
    /// otherwise (each exported with the rules from its own first year, say)
    /// are read alike.
    package static func readsWithSystemZone(_ tzid: String) -> Bool {
        ImportSession.systemName(tzid) != nil
    }
}
