import CalendarCore
import Foundation
import ICalendarKit

/// What ``CalDAVClient/probe()`` found a server does for one collection,
/// and whether bookings are safe there.
public struct CalDAVProbe: Sendable, Hashable {
    /// One thing tried, and what came of it.
    public struct Finding: Sendable, Hashable {
        /// What was tried, for a person.
        public var what: String
        /// Whether the server did what Horari needs; `nil` when it could not be told.
        public var holds: Bool?
        /// What the server answered, for a person.
        public var detail: String

        /// A finding.
        public init(what: String, holds: Bool?, detail: String) {
            self.what = what
            self.holds = holds
            self.detail = detail
        }
    }

    /// Each thing tried, in order.
    public var findings: [Finding]
    /// Whether conditional writes held under a race, so that a class never
    /// takes more than its places however many desks book at once.
    public var bookingsAreSafe: Bool

    /// A probe's findings.
    public init(findings: [Finding], bookingsAreSafe: Bool) {
        self.findings = findings
        self.bookingsAreSafe = bookingsAreSafe
    }
}

/// The lost updates one machine's changes found on a CalDAV collection:
/// writes the server took and then let a write over that had checked the
/// tag before them (two writes with one `If-Match`), each found by the
/// change's confirmation and made again. Kept in that machine's cache;
/// ``CalendarStore/lostUpdatesSeen()`` reads it.
public struct LostUpdatesSeen: Sendable, Hashable, Codable {
    /// How many were found.
    public var count: Int
    /// When the last was found.
    public var last: Date
    /// The member it was found on, for a person (its name in the collection).
    public var resource: String

    /// A record of lost updates found.
    public init(count: Int, last: Date, resource: String) {
        self.count = count
        self.last = last
        self.resource = resource
    }
}

extension CalDAVProbe {
    /// These findings and what this machine's own changes found: lost
    /// updates seen make bookings not safe, whatever the probe's race saw
    /// (a race that lets a write through now and then may pass a probe).
    public func adding(_ seen: LostUpdatesSeen?) -> CalDAVProbe {
        let what = "lost updates found by this machine's changes (a write taken, then written over by one that checked the tag before it)"
        guard let seen else {
            return CalDAVProbe(findings: findings + [.init(what: what, holds: true, detail: "none")], bookingsAreSafe: bookingsAreSafe)
        }
        let when = seen.last.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
        return CalDAVProbe(findings: findings + [.init(what: what, holds: false,
                                                      detail: "no: \(seen.count) found, the last on \(seen.resource) at \(when); each change was made again, but a change confirmed before such a write landed cannot be; bookings are NOT safe here")],
                           bookingsAreSafe: false)
    }
}

extension CalDAVClient {
    /// Tries what Horari needs from the server on this collection, and
    /// says whether bookings are safe there: that it is a calendar
    /// collection, `sync-collection` (RFC 6578), `MKCALENDAR` (on a
    /// scratch collection beside it, removed afterwards), and whether
    /// conditional writes hold under a race — on a scratch resource
    /// (`horari-probe-….ics`, removed afterwards): a create-only `PUT`
    /// twice, a `PUT` with a stale `If-Match`, and two `PUT`s with one
    /// `If-Match` at once, of which exactly one may be taken.
    /// - Throws: ``CalendarStoreError`` when the collection cannot be read
    ///   at all (not there, refused, unreachable).
    public func probe() async throws(CalendarStoreError) -> CalDAVProbe {
        let state = try await state()
        var findings = [CalDAVProbe.Finding(what: "a calendar collection (PROPFIND)", holds: state.isCalendar,
                                            detail: state.isCalendar ? "yes" : "a plain WebDAV folder, not a calendar")]
        findings.append(await probeSync())
        findings.append(await probeMakeCalendar())
        let writes = await probeConditionalWrites()
        findings += writes
        let safe = state.isCalendar && writes.allSatisfy { $0.holds == true }
        return CalDAVProbe(findings: findings, bookingsAreSafe: safe)
    }

    /// Whether `sync-collection` answers.
    private func probeSync() async -> CalDAVProbe.Finding {
        let what = "sync-collection (RFC 6578: a read costs what changed)"
        do {
            let first = try await sync(from: nil)
            return .init(what: what, holds: true, detail: "yes (\(first.changed.count) members)")
        } catch {
            return .init(what: what, holds: false, detail: "no: \(error.description); Horari lists the collection in full instead (PROPFIND Depth: 1)")
        }
    }

    /// Whether `MKCALENDAR` makes a calendar beside this one (then removed).
    private func probeMakeCalendar() async -> CalDAVProbe.Finding {
        let what = "MKCALENDAR (a new calendar beside this one, then removed)"
        guard let parent = parentPath, let base = URL(string: parent + "horari-probe-\(UUID().uuidString.lowercased())/", relativeTo: collection) else {
            return .init(what: what, holds: nil, detail: "not tried: the collection has no folder above it")
        }
        let scratch = CalDAVClient(collection: base.absoluteURL, credentials: credentials, requestTimeout: requestTimeout, maxResponseBytes: maxResponseBytes, retryPolicy: retryPolicy)
        do {
            try await scratch.makeCalendar(displayName: "horari probe (scratch)")
        } catch {
            return .init(what: what, holds: false, detail: "no: \(error.description)")
        }
        let removed = (try? await scratch.send("DELETE", path: scratch.collectionPath, headers: [:], body: nil)).map { (200..<300).contains($0.status) } ?? false
        return .init(what: what, holds: true, detail: removed ? "yes (made and removed)" : "yes, but removing it failed: remove \(scratch.collection.absoluteString) by hand")
    }

    /// Conditional writes on a scratch member, then removed.
    private func probeConditionalWrites() async -> [CalDAVProbe.Finding] {
        let name = "horari-probe-\(UUID().uuidString.lowercased()).ics"
        let text = { (n: Int) in Self.probeText(name, n) }
        var out: [CalDAVProbe.Finding] = []
        let first: String?
        do { first = try await put(name, text(0), ifMatch: nil) } catch {
            return [.init(what: "a conditional write (PUT If-None-Match: *)", holds: false, detail: "refused: \(error.description)")]
        }
        var tag = first
        if tag == nil { tag = (try? await get(name))?.etag }
        out.append(.init(what: "an entity tag for a write (PUT answers ETag)", holds: first != nil || tag != nil,
                         detail: first != nil ? "yes" : tag != nil ? "not in the PUT's answer; a GET gives one (Horari reads back)" : "none: Horari cannot write members conditionally here"))
        let twice = await refusal { try await put(name, text(1), ifMatch: nil) }
        out.append(.init(what: "create-only refused when it exists (If-None-Match: *, 412)", holds: twice, detail: twice ? "yes" : "no: the second create was taken"))
        if let tag {
            let stale = await refusal { try await put(name, text(2), ifMatch: "\"horari-probe-stale\"") }
            out.append(.init(what: "a stale If-Match refused (412)", holds: stale, detail: stale ? "yes" : "no: a write with a wrong If-Match was taken"))
            out.append(await probeRace(name, tag: tag))
        }
        await removeProbe(name)
        return out
    }

    /// Writes with one `If-Match`, several at once, in rounds: exactly one
    /// of each round may be taken. Each write is a text the size of a
    /// class's year of rosters (``probeRaceEvents`` instances): a server
    /// whose check and write are not one step (Xandikos parses both texts
    /// between them) lets a second write through only now and then, and
    /// more often the longer that step takes. Measured on Xandikos 0.4.10
    /// on this project's 2-core machine: two writes of one round taken in
    /// 7 of 20 rounds of 4 such texts, and in none of 20 rounds of two
    /// small texts (what this probe once was); never on Radicale. The
    /// rounds stop at the first that takes two.
    private func probeRace(_ name: String, tag: String) async -> CalDAVProbe.Finding {
        let what = "writes with one If-Match at once (\(Self.probeRaceRounds) rounds of \(Self.probeRaceWriters)): one taken, the others refused"
        var current = tag
        var refusals: [String: Int] = [:]
        for round in 0..<Self.probeRaceRounds {
            let texts = (0..<Self.probeRaceWriters).map { Self.probeText(name, 3 + round * Self.probeRaceWriters + $0, events: Self.probeRaceEvents) }
            let ifMatch = current
            let answers = await withTaskGroup(of: Result<String?, CalendarStoreError>.self) { group in
                for text in texts {
                    group.addTask { [self] () async -> Result<String?, CalendarStoreError> in
                        do throws(CalendarStoreError) { return .success(try await put(name, text, ifMatch: ifMatch)) } catch { return .failure(error) }
                    }
                }
                var all: [Result<String?, CalendarStoreError>] = []
                for await answer in group { all.append(answer) }
                return all
            }
            var won = 0
            var next: String?
            for answer in answers {
                switch answer {
                case .success(let etag): won += 1; next = etag
                case .failure(let error): refusals[error.status.map(String.init) ?? "no answer", default: 0] += 1
                }
            }
            if won > 1 {
                return .init(what: what, holds: false,
                             detail: "no: round \(round + 1) had \(won) of its \(Self.probeRaceWriters) writes taken (a lost update); bookings are NOT safe here")
            }
            var etag = next
            if won == 1, etag == nil { etag = (try? await get(name))?.etag }
            guard won == 1, let etag else {
                return .init(what: what, holds: nil, detail: "could not be told: round \(round + 1) had none of its writes taken (refused: \(Self.said(refusals)))")
            }
            current = etag
        }
        return .init(what: what, holds: true, detail: "yes (the others refused: \(Self.said(refusals)))")
    }

    /// How many rounds ``probeRace(_:tag:)`` makes, of how many writes, of how many instances each.
    static let probeRaceRounds = 12, probeRaceWriters = 4, probeRaceEvents = 100

    /// Refusals counted by status, for a person: "412 ×40, 423 ×5".
    private static func said(_ refusals: [String: Int]) -> String {
        refusals.isEmpty ? "none" : refusals.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
    }

    /// The scratch member's text, the `n`th version, with `events` instances besides its first:
    /// a daily series from 2026-01-01 10:00 UTC, each instance its own title.
    private static func probeText(_ name: String, _ n: Int, events: Int = 0) -> [UInt8] {
        let first = CalendarTime.utc(LocalDateTime(localSeconds: 1_767_261_600))  // 2026-01-01 10:00
        var series = CalendarItem(uid: name, title: "horari probe \(n) (scratch)", start: first,
                                  recurrenceRules: [RecurrenceRule(frequency: .daily)])
        for day in 0..<events {
            guard let wall = try? LocalDateTime(year: 2026, month: day / 28 % 12 + 1, day: day % 28 + 1, hour: 10) else { continue }
            let instance = CalendarItem(uid: name, title: "horari probe \(n), instance \(day) (scratch)", start: .utc(wall))
            series.overrides.append(RecurrenceOverride(recurrenceID: .utc(wall), item: instance))
        }
        let exporter = ICalendarExporter(options: .init(productID: "-//Horari//probe//EN", timestamp: Date(timeIntervalSince1970: 1_767_225_600)))
        return Array(exporter.exportData(ICalendar(items: [series])))
    }


    /// Whether a write was refused with 412.
    private func refusal(_ write: () async throws -> String?) async -> Bool {
        do { _ = try await write(); return false } catch { return (error as? CalendarStoreError)?.status == 412 }
    }

    /// Removes the scratch member, whatever its tag now.
    private func removeProbe(_ name: String) async {
        for _ in 0..<3 {
            guard let current = try? await get(name), let tag = current.etag else { return }
            if (try? await delete(name, ifMatch: tag)) != nil { return }
        }
    }
}
