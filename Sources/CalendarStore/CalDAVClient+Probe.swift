import CalendarCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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

    /// Two writes with one `If-Match`, at once: exactly one may be taken.
    private func probeRace(_ name: String, tag: String) async -> CalDAVProbe.Finding {
        async let a: Bool = taken { try await put(name, Self.probeText(name, 3), ifMatch: tag) }
        async let b: Bool = taken { try await put(name, Self.probeText(name, 4), ifMatch: tag) }
        let won = [await a, await b].filter { $0 }.count
        return .init(what: "two writes with one If-Match at once: one taken, the other 412", holds: won == 1,
                     detail: won == 1 ? "yes" : won == 2 ? "no: both were taken (a lost update); bookings are NOT safe here" : "neither was taken")
    }

    /// The scratch member's text, the `n`th version.
    private static func probeText(_ name: String, _ n: Int) -> [UInt8] {
        Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Horari//probe//EN\r\nBEGIN:VJOURNAL\r\nUID:\(name)\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:horari probe \(n) (scratch)\r\nEND:VJOURNAL\r\nEND:VCALENDAR\r\n".utf8)
    }

    /// Whether a write was refused with 412.
    private func refusal(_ write: () async throws -> String?) async -> Bool {
        do { _ = try await write(); return false } catch { return (error as? CalendarStoreError)?.status == 412 }
    }

    /// Whether a write was taken.
    private func taken(_ write: @Sendable () async throws -> String?) async -> Bool {
        do { _ = try await write(); return true } catch { return false }
    }

    /// Removes the scratch member, whatever its tag now.
    private func removeProbe(_ name: String) async {
        for _ in 0..<3 {
            guard let current = try? await get(name), let tag = current.etag else { return }
            if (try? await delete(name, ifMatch: tag)) != nil { return }
        }
    }
}
