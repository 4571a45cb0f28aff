import CalendarCore
import Foundation
import ICalendarKit
import SchedulingICalendar

/// A write the server took and then let another client's write over (two
/// writes with one `If-Match` both taken): the change is made again.
struct LostUpdate: Error {
    /// What was found, for a person.
    let message: String
}

extension CollectionStore {
    // MARK: Writing

    /// Makes the planned writes (``Resources/writes(from:to:held:)``),
    /// recording them as pending first, then confirms them
    /// (``confirm(_:state:)``). A new resource gets a name no member has,
    /// and is only created (`If-None-Match: *`), never written over another's.
    func write(_ writes: [Resources.Write], in after: ICalendar, exporter: ICalendarExporter, state: inout State) async throws {
        var pending: [PendingWrite] = []
        // A change made holding this desk's lease checked a rule across records (a weekly limit) on the book as it was then.
        let held = HeldLease.token.map { token in after.properties.contains { $0.name == ICalendar.leaseProperty && $0.value.hasPrefix(token + " ") } } ?? false
        let lease = held
            ? state.members.first { $0.value.uids?.contains(Resources.propertiesUID) == true }.map { LeaseGuard(href: $0.key, etag: $0.value.etag) }
            : nil
        var taken = Set(state.members.keys)
        for write in writes {
            let (href, etag) = try await target(of: write, state: state, taken: taken)
            taken.insert(href)
            var file: String?
            if !write.contents.isEmpty {
                let name = "pending-" + Digest.sha256Hex(href.utf8) + ".ics"
                try FolderStore.writeAtomically(Resources.text(of: write.contents, in: after, exporter: exporter), to: self.file(name))
                file = name
            } else if etag == nil {
                continue  // nothing to remove
            }
            pending.append(PendingWrite(href: href, etag: etag, file: file, lease: lease))
        }
        let written = pending.compactMap { write -> Written? in
            guard let name = write.file, let ours = FileManager.default.contents(atPath: file(name).path) else { return nil }
            let base = state.members[write.href].flatMap { FileManager.default.contents(atPath: file($0.file).path) }
            return Written(href: write.href, base: base.map { [UInt8]($0) }, ours: [UInt8](ours))
        }
        state.pending = pending
        try saveState(state)
        if GatedWrites.firstConfirmed, pending.count > 1, writes.first?.key == .properties, let gate = written.first, gate.href == pending.first?.href {
            state.pending[0].gate = true
            try saveState(state)
            try await passGate(gate, state: &state)
        }
        let started = ContinuousClock.now, wallStarted = Date()
        do {
            try await finishPending(&state, raceIsConflict: true)
        } catch let error as CalendarStoreError where !state.pending.isEmpty && state.pending.count < pending.count && error.code != .conflict {
            // Cut off after some writes: say which are on the server and which are not (issue 41, 14).
            let made = pending.prefix(pending.count - state.pending.count).map { Self.displayName($0.href) }
            let left = state.pending.map { Self.displayName($0.href) }
            throw CalendarStoreError(error.code, status: error.status, error.message
                + "; \(made.count) of the change's \(pending.count) writes \(made.count == 1 ? "was" : "were") made (\(made.joined(separator: ", "))), \(left.count) not yet (\(left.joined(separator: ", ")))")
        }
        let took = ContinuousClock.now - started
        // A wall clock that did not move across writes to a server is stopped (libfaketime's `faketime -f`, as the
        // README's tour runs): there a timer never fires, so the second look is made at once.
        let pause = Date() == wallStarted ? .zero : Self.secondLookPause(perWrite: took / max(pending.count, 1))
        try await confirm(written, state: &state, secondLookAfter: pause)
    }

    /// Makes a change's first write, the calendar's own resource, and
    /// confirms it (both looks) before any other (``GatedWrites``): when it
    /// lost the race (a 412, which ``finishPending(_:raceIsConflict:upTo:)``
    /// answers by dropping the change, or a lost update found by the
    /// confirmation), none of the rest is made, and the change runs again.
    /// Any other failure (an answer lost, a cancellation) keeps the change
    /// pending, for the next command to finish or drop by its first write.
    private func passGate(_ gate: Written, state: inout State) async throws {
        let started = ContinuousClock.now, wallStarted = Date()
        try await finishPending(&state, raceIsConflict: true, upTo: 1)
        do {
            try await confirm([gate], state: &state, secondLookAfter: Date() == wallStarted ? .zero : Self.secondLookPause(perWrite: ContinuousClock.now - started))
        } catch let error as LostUpdate {
            state.pending.removeAll()
            try saveState(state)
            sweep(state)
            throw error
        }
    }

    /// How long a change waits before its second look (``confirm(_:state:secondLookAfter:)``):
    /// twice what one of its writes took, at least 50 ms and at most a second.
    static func secondLookPause(perWrite: Duration) -> Duration {
        min(max(perWrite * 2, .milliseconds(50)), .seconds(1))
    }

    /// A member written by a change: its text before (`nil` for a new one) and as written.
    struct Written {
        var href: String
        var base: [UInt8]?
        var ours: [UInt8]
    }

    /// Where a planned write goes, and the tag it is conditional on.
    private func target(of write: Resources.Write, state: State, taken: Set<String>) async throws -> (href: String, etag: String?) {
        guard let name = write.name else {
            return (Self.freeName(for: write.key, under: collectionPath, taken: taken), nil)
        }
        var etag = state.members[name]?.etag
        if etag == nil, state.members[name] != nil {
            // A server that gave no tag for it: its GET may.
            etag = try await client.get(name).etag
            guard etag != nil else {
                throw CalendarStoreError(.badResponse, "\(Self.displayName(name)): the server gives no entity tag for it, so horari cannot change it without risking another client's change; nothing was written")
            }
        }
        return (name, etag)
    }

    /// Tells a change's caller it was made only when the server holds it:
    /// asks what changed since the writes (one sync), and for each member
    /// written whose tag is no longer the one its `PUT` returned (or that
    /// got none), reads what the server holds; when that has lost the
    /// change — a server that took two writes with one `If-Match`, the
    /// other after ours — throws ``LostUpdate``, and the change is made
    /// again. A sync that fails leaves the writes as their answers said.
    ///
    /// **The second look.** A server whose `If-Match` check and write are
    /// not one step (Xandikos 0.4: it checks the tag, parses both texts
    /// for its commit message, then takes its lock and writes) can take a
    /// write that checked the old tag *after* ours was made and confirmed:
    /// the first look saw our text, and the other desk's write lands a few
    /// milliseconds later. That write was already being handled when ours
    /// was answered, and handling it takes about what ours took; so the
    /// change looks again after `secondLookAfter` (twice what one of its
    /// writes took, from 50 ms to 1 s: ``secondLookPause(perWrite:)``),
    /// and only then says it was made. A write that reached the server
    /// later still would have checked our tag, and been refused. Each lost
    /// update found is recorded in the cache (``lostUpdatesSeen()``), for
    /// `horari doctor` to say the server is not safe for bookings.
    func confirm(_ written: [Written], state: inout State, secondLookAfter pause: Duration) async throws {
        guard !written.isEmpty else { return }
        let tags = Dictionary(written.map { ($0.href, state.members[$0.href]?.etag) }, uniquingKeysWith: { a, _ in a })
        for look in 0..<2 {
            if look == 1 {
                do { if pause > .zero { try await Task.sleep(for: pause) } } catch {
                    throw CalendarStoreError(.cancelled, "the change was cancelled while it was being confirmed; it was written, and the next command shows whether the server kept it")
                }
            }
            do { try await refresh(&state) } catch let error as CalendarStoreError where error.code != .cancelled { return }
            if let lost = lostWrite(written, tags: tags, state: state) {
                state.lostUpdates = LostUpdatesSeen(count: (state.lostUpdates?.count ?? 0) + 1, last: Date(), resource: Self.displayName(lost.href))
                try saveState(state)
                throw LostUpdate(message: lost.message)
            }
        }
    }

    /// The first member written that the server no longer holds as this change made it.
    private func lostWrite(_ written: [Written], tags: [String: String?], state: State) -> (href: String, message: String)? {
        for w in written {
            guard let member = state.members[w.href] else {
                return (w.href, "\(Self.displayName(w.href)): written, then removed by another client before the change was confirmed")
            }
            if let tag = tags[w.href] ?? nil, member.etag == tag { continue }
            guard let current = FileManager.default.contents(atPath: file(member.file).path) else { continue }
            if !ChangeCheck.holds(base: w.base, ours: w.ours, current: [UInt8](current), options: options) {
                return (w.href, "\(Self.displayName(w.href)): the server took the write and then another client's over it (two writes with one If-Match); the change is made again on what it holds")
            }
        }
        return nil
    }

    /// The lost updates this desk's changes found on the collection
    /// (``confirm(_:state:secondLookAfter:)``), as its cache recorded them;
    /// `nil` when none was found.
    func lostUpdatesSeen() -> LostUpdatesSeen? {
        (try? readState())?.lostUpdates
    }

    /// A new resource's href under `path`: ``Resources/freeName(for:isTaken:)``
    /// among the members' hrefs.
    static func freeName(for key: Resources.Key, under path: String, taken: Set<String>) -> String {
        canonical(path + Resources.freeName(for: key) { taken.contains(canonical(path + $0)) })
    }

    /// Makes the pending writes, each conditional on the tag recorded with
    /// it. A member another client changed since is left as they made it:
    /// during a change that is a lost race (412: the member is read again,
    /// whatever the sync token says, and the change is made again); for a
    /// change cut off by an earlier command, it is said on standard error
    /// and the write is dropped. A write whose answer was lost is settled
    /// by asking the server (``settle(_:after:state:)``).
    ///
    /// A change made holding the book's lease, none of whose writes was
    /// made, is finished later only while the calendar's own resource is as
    /// it was when the change was made: another desk that took the lease
    /// since (the first desk's lapsed, 30 s after it was cut off) may have
    /// booked the same member into another class of the week, and the two
    /// together could pass a weekly limit that each checked alone. It is
    /// dropped then, and that is said: the command that made it had said it
    /// was not finished. Once one of its writes is made, the rest are always
    /// finished: half a change (a booking without its message) is worse.
    func finishPending(_ state: inout State, raceIsConflict: Bool = false, upTo limit: Int = .max) async throws {
        // Nothing left: nothing to sweep either (a look at every cache file, 2% of an unchanged sync of 10,000 members).
        guard !state.pending.isEmpty else { return }
        if !raceIsConflict, let lease = state.pending.first?.lease, state.members[lease.href]?.etag != lease.etag {
            state.pending.removeAll()
            try saveState(state)
            sweep(state)
            notices?("another desk changed the book since a change an earlier command could not write in full was made under the book's rules (a weekly limit); that change is dropped, as those rules may no longer allow it: make it again")
            return
        }
        var made = 0
        while let write = state.pending.first, made < limit {
            made += 1
            // Said only when this write is made now: one found already there, or given up, was not (issue 41, 14).
            var writtenNow = true
            do {
                try await make(write, &state)
            } catch let error as CalendarStoreError where error.code == .conflict && error.status == 412 {
                writtenNow = false
                // Already there (a write the server made before failing, or whose answer was lost) is done.
                if try await !adopt(write, &state) {
                    if raceIsConflict {
                        try await refetch(write.href, &state)
                        state.pending.removeAll()
                        try saveState(state)
                        throw error
                    }
                    // A gated change's first write lost: the rest belongs to a change that was not made.
                    if write.gate == true {
                        state.pending.removeAll()
                        try saveState(state)
                        sweep(state)
                        notices?("\(Self.displayName(write.href)): another desk changed the book before a change an earlier command began was written; that change is dropped, not made: make it again")
                        return
                    }
                    // A write of a command cut off: another client came first.
                    notices?("\(Self.displayName(write.href)): another client changed it before a change an earlier command made was written in full; it is left as they made it, without that change")
                }
            } catch let error as CalendarStoreError where raceIsConflict && Self.isAnswerLost(error) {
                try await settle(write, after: error, state: &state)
            } catch let error as CalendarStoreError where !Self.isPassing(error) {
                // The server refuses the write as it stands (403, 409, 413, …): trying again will not help, so the
                // rest of the change is dropped rather than left to block every later command.
                state.pending.removeAll()
                try saveState(state)
                if raceIsConflict { throw error }
                notices?("\(Self.displayName(write.href)): the server refused a change an earlier command could not finish (\(error)); the rest of that change is dropped")
                return
            }
            state.pending.removeFirst()
            // Begun, the change is finished whatever is written meanwhile (its own write of the calendar's resource included).
            for i in state.pending.indices { state.pending[i].lease = nil }
            try saveState(state)
            if !raceIsConflict, writtenNow { notices?("\(Self.displayName(write.href)): written now, finishing a change an earlier command could not write in full") }
        }
        sweep(state)
    }

    /// One pending write, made: `PUT` (recording the member with the tag
    /// the server returned) or `DELETE`.
    private func make(_ write: PendingWrite, _ state: inout State) async throws {
        if let file = write.file {
            let text = try [UInt8](Data(contentsOf: self.file(file)))
            let etag = try await client.put(write.href, text, ifMatch: write.etag)
            let name = Self.fileName(write.href, etag, text)
            try FolderStore.writeAtomically(text, to: self.file(name))
            // A server that changed the text as it stored it gives no tag: the next sync fetches it.
            state.members[write.href] = State.Member(etag: etag, file: name, uids: ICalendarResourceScan(bytes: text, joining: false)?.uids)
        } else if let etag = write.etag {
            do { try await client.delete(write.href, ifMatch: etag) } catch {
                // Already gone is gone.
                if error.code != .notFound { throw error }
            }
            state.members[write.href] = nil
        }
    }

    /// A write whose request went out and whose answer did not come back
    /// (a timeout, a lost connection): the server is asked what it holds
    /// before anything is said. Holding the change, it is written; still as
    /// it was, the write is made again (it is conditional); changed by
    /// another client, it is a lost race. When the server cannot be asked
    /// either, the original failure stands, and the write stays pending.
    private func settle(_ write: PendingWrite, after error: CalendarStoreError, state: inout State) async throws {
        let held: Bool
        do { held = try await adopt(write, &state) } catch let again as CalendarStoreError where again.code != .cancelled { throw error }
        if held { return }
        do {
            try await make(write, &state)
        } catch let again as CalendarStoreError where again.code == .conflict && again.status == 412 {
            try await refetch(write.href, &state)
            state.pending.removeAll()
            try saveState(state)
            throw again
        }
    }

    /// Whether a failure may pass (the connection, a timeout, the server's 5xx), so a write is worth trying again later.
    static func isPassing(_ error: CalendarStoreError) -> Bool {
        error.code == .transport && (error.status ?? 500) >= 500
    }

    /// Whether a failure may have come after the request reached the server: no HTTP answer, and not a refused connection.
    static func isAnswerLost(_ error: CalendarStoreError) -> Bool {
        error.code == .transport && error.status == nil && !error.message.contains("connection refused")
            && !error.message.contains("could not be resolved")
    }

    /// Whether the server's member already holds what a pending write would
    /// make it: the same content, or (for a member that was there) the
    /// change's lines with others' changes beside them
    /// (``ChangeCheck/holds(base:ours:current:)``); if so, it is recorded in
    /// the cache as the server holds it.
    private func adopt(_ write: PendingWrite, _ state: inout State) async throws -> Bool {
        let current: CalDAVResource?
        do { current = try await client.get(write.href) } catch {
            guard error.code == .notFound else { throw error }
            current = nil
        }
        guard let file = write.file else {
            if current == nil { state.members[write.href] = nil }
            return current == nil
        }
        guard let current, let data = current.data, let ours = try? [UInt8](Data(contentsOf: self.file(file))) else { return false }
        // The write made, and another desk's built on it since (a 500 after the write, the retry's 412 coming after
        // another booking): the change is there when its lines are, not only when the text is ours byte for byte.
        let base = state.members[write.href].flatMap { FileManager.default.contents(atPath: self.file($0.file).path) }.map { [UInt8]($0) }
        guard Self.sameContent(data, ours, options: options)
                || (write.etag != nil && base != nil && ChangeCheck.holds(base: base, ours: ours, current: data, options: options))
        else { return false }
        let name = Self.fileName(write.href, current.etag, data)
        try FolderStore.writeAtomically(data, to: self.file(name))
        state.members[write.href] = State.Member(etag: current.etag, file: name, uids: ICalendarResourceScan(bytes: data, joining: false)?.uids)
        return true
    }

    /// Reads one member again into the cache, whatever the sync token says
    /// (a 412 says it changed; a server, or a proxy, may disagree with its
    /// own token); gone, it leaves the cache.
    func refetch(_ href: String, _ state: inout State) async throws {
        let current: CalDAVResource
        do { current = try await client.get(href) } catch {
            guard error.code == .notFound else { throw error }
            state.members[href] = nil
            try saveState(state)
            return
        }
        let data = current.data ?? []
        let name = Self.fileName(href, current.etag, data)
        try FolderStore.writeAtomically(data, to: file(name))
        state.members[href] = State.Member(etag: current.etag, file: name, uids: ICalendarResourceScan(bytes: data, joining: false)?.uids)
        try saveState(state)
    }

    /// Whether two texts are one calendar, compared by content (``Resources/canonical(_:)``).
    static func sameContent(_ a: [UInt8], _ b: [UInt8], options: ImportOptions) -> Bool {
        let importer = ICalendarImporter(options: options)
        guard let one = try? importer.importCalendar(from: Data(a)), let two = try? importer.importCalendar(from: Data(b)) else { return false }
        return Resources.split(one.calendar).mapValues(Resources.canonical) == Resources.split(two.calendar).mapValues(Resources.canonical)
    }
}

/// Whether a change still holds in what a server now has: the content
/// lines the change added are there, and those it removed are not, each
/// line taken with the component it is in (ICalendarKit's
/// `ICalendarLineSet`), and lines a server or another client rewrites on
/// every write left out. Another client's
/// change to other lines — another member booked into the same
/// occurrence — does not undo it.
enum ChangeCheck {
    /// Whether `current` holds the change from `base` (`nil`: nothing) to `ours`.
    static func holds(base: [UInt8]?, ours: [UInt8], current: [UInt8]) -> Bool {
        let before = base.map(lines) ?? [], after = lines(ours), now = lines(current)
        return after.subtracting(before).isSubset(of: now) && before.subtracting(after).isDisjoint(with: now)
    }

    /// ``holds(base:ours:current:)`` on the three texts as Horari writes
    /// them (``normalised(_:options:)``), so that what a server rewrites is
    /// not taken for another client's change.
    static func holds(base: [UInt8]?, ours: [UInt8], current: [UInt8], options: ImportOptions) -> Bool {
        let normal = { (text: [UInt8]) in normalised(text, options: options) }
        return holds(base: base.map(normal), ours: normal(ours), current: normal(current))
    }

    /// A resource's text as Horari writes it (read and written again), so
    /// that what a server rewrites as it stores — quoting, folding, order,
    /// line ends — is not taken for a change; unreadable text is left as it is.
    static func normalised(_ text: [UInt8], options: ImportOptions) -> [UInt8] {
        guard let read = try? ICalendarImporter(options: options).importCalendar(from: Data(text)) else { return text }
        return Array(ICalendarExporter(options: .init(includeRejected: true)).exportData(read.calendar))
    }

    /// Each content line with its component's identity (ICalendarKit's `ICalendarLineSet`).
    static func lines(_ text: [UInt8]) -> Set<String> { ICalendarLineSet.lines(of: text) }
}
