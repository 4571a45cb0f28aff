import CalendarCore
import Foundation
import ICalendarKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A calendar kept in a CalDAV collection, read through a local cache.
///
/// **The cache.** `$XDG_CACHE_HOME/horari/caldav/<SHA-256 of the URL>/`
/// (else `~/.cache/…`), mode 0700: each member's text as the server gave
/// it (or as horari wrote it, when the server answered the write with its
/// tag: RFC 4791 §5.3.4), in a file named by the digest of its href, tag
/// and text (a server's href never becomes a path), `state.json` with each
/// member's entity tag and the collection's sync token (RFC 6578), and
/// ``MemberPack``, every member's text in one file, derived from the
/// others and written after them. Every command first asks what
/// changed since that token (`sync-collection`) and fetches only those
/// members (`calendar-multiget`), so a read costs what changed, not the
/// collection. The cache is changed under its `flock`, files first and
/// `state.json` last (each written whole and renamed into place), so a
/// command cut off — the server gone, the process killed — leaves the
/// cache as it was before or after, never between.
///
/// **A change** is made on the calendar as the server holds it now, and
/// written as the members whose content changed: `PUT` with `If-Match`
/// the tag it was read with (`If-None-Match: *` for a new member),
/// `DELETE` with `If-Match`. A write that loses a race (412) means someone
/// else changed that member first: the store fetches what changed and
/// makes the change again on it, up to ``CollectionStore/attempts`` times,
/// so a class's capacity holds however many desks book at once.
///
/// **A change of several members** is not atomic on CalDAV (it has no
/// transactions). Before its first write the store records each write it
/// is about to make in `state.json` (`pending`, with the tag it expects);
/// a command cut off half-way leaves the rest there, and the next command
/// on the collection finishes them first: a member still as it was is
/// written, one that already holds the change is left, and one another
/// client changed since is left as that client made it, and said.
struct CollectionStore {
    let client: CalDAVClient
    let options: ImportOptions
    let cache: URL
    /// ``cache``'s path, kept as text: a member's file is this and its name. (A `URL` made for
    /// each of 10,000 members, and its path read back, was a tenth of an unchanged sync's CPU.)
    let cachePath: String
    /// Told what a person should know that is not an error (``CalendarStore/notices``).
    var notices: (@Sendable (String) -> Void)?

    /// How many times a change is made again after losing a race.
    static let attempts = 12

    init(_ collection: URL, options: ImportOptions, credentials: CalDAVCredentials?, netrc: URL? = CalDAVCredentials.platformNetrc,
         notices: (@Sendable (String) -> Void)? = nil,
         cacheFolder: URL? = nil, timeout: Duration = .seconds(30), retryPolicy: RetryPolicy = RetryPolicy(),
         environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.notices = notices
        client = CalDAVClient(collection: collection, credentials: credentials ?? CalDAVCredentials.lookUp(for: collection, environment: environment, netrc: netrc),
                              requestTimeout: timeout, retryPolicy: retryPolicy)
        self.options = options
        let folder = cacheFolder ?? CalendarStore.defaultCacheFolder(environment: environment)
        cache = folder.appendingPathComponent(Digest.sha256Hex(client.collection.absoluteString.utf8))
        cachePath = cache.path
    }

    // MARK: What is kept

    /// `state.json`: what the cache holds.
    struct State: Codable, Equatable {
        /// The collection, to say whose cache this is.
        var collection: String
        /// The token of the last sync, when the server has sync-collection.
        var syncToken: String?
        /// Each member by its href: its tag and the cache file with its text.
        var members: [String: Member] = [:]
        /// Writes of a change cut off half-way, to finish first.
        var pending: [PendingWrite] = []
        /// The lost updates this desk's changes found (``CollectionStore/confirm(_:state:secondLookAfter:)``).
        var lostUpdates: LostUpdatesSeen? = nil

        struct Member: Codable, Equatable {
            var etag: String?
            var file: String
            /// The UIDs its text holds (`nil`: not known, as in a cache an
            /// earlier version kept), so that a change can read only the
            /// members it needs (``CollectionStore/update(holding:alsoHolding:exporterFor:whileWaiting:ifDamaged:_:)``).
            var uids: [String]? = nil
        }
    }

    /// A write recorded before it is made.
    struct PendingWrite: Codable, Equatable {
        /// The member.
        var href: String
        /// The tag it had when the change was made; `nil` for a new member.
        var etag: String?
        /// The cache file with the text to write; `nil` when the member goes.
        var file: String?
        /// For a change made holding this desk's lease (under a weekly
        /// limit): the calendar's own resource and its tag then. Finished by
        /// a later command before any of its writes was made, the change is
        /// made only while that tag stands.
        var lease: LeaseGuard? = nil
        /// The first write of a change whose others are made only after it
        /// (``GatedWrites``): finished by a later command, a first write
        /// that another desk's came before drops the rest.
        var gate: Bool? = nil
    }

    /// The calendar's own resource, as it was when a change holding the book's lease was made.
    struct LeaseGuard: Codable, Equatable {
        var href: String
        var etag: String?
    }

    // MARK: Reading

    /// Loads the calendar: syncs the cache, then reads it.
    func load() async throws -> ImportResult {
        try await load(offline: false).result
    }

    /// Loads the calendar: syncs the cache, then reads it. With `offline`,
    /// a server that cannot be reached (no connection, no answer) is read
    /// from the cache as the last sync left it, with that sync's time;
    /// an answer the server gave (an error, a 401, a 404) is never passed over.
    func load(offline: Bool) async throws -> (result: ImportResult, asOf: Date?) {
        let lock = try openCache()
        defer { lock.release() }
        var state = try readState()
        do {
            try await refresh(&state)
        } catch let error as CalendarStoreError where offline && Self.isUnreachable(error) {
            guard let asOf = lastSync(), state.syncToken != nil || !state.members.isEmpty else { throw error }
            var (calendar, diagnostics, _) = read(state)
            // What this device changed since, kept for the server, is shown.
            KeptChange.apply(readKept(), to: &calendar)
            return (ImportResult(calendar: calendar, diagnostics: diagnostics), asOf)
        }
        // A read is not refused for a change an earlier command left half-made: that stays pending, and is said.
        do {
            try await finishPending(&state)
            // Changes kept while the server was out of reach go now that it answers.
            if !readKept().isEmpty { _ = try await sendKept(&state, exporterFor: { _ in ICalendarExporter(options: .init(includeRejected: true)) }) }
        } catch {
            notices?("an earlier change could not be finished yet (\(error)); it stays in horari's cache for the next command")
        }
        var (calendar, diagnostics, _) = read(state)
        // What could not be sent still waits, and is shown as the person made it.
        KeptChange.apply(readKept(), to: &calendar)
        return (ImportResult(calendar: calendar, diagnostics: diagnostics), nil)
    }

    /// Whether a failure means the server could not be reached at all: no HTTP answer.
    static func isUnreachable(_ error: CalendarStoreError) -> Bool {
        error.code == .transport && error.status == nil
    }

    /// When the cache last agreed with the server: `state.json`'s time, set by every sync.
    private func lastSync() -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: file("state.json").path))?[.modificationDate] as? Date
    }

    /// Loads, changes and saves the calendar: see ``CollectionStore``.
    func update<T>(exporterFor: (ICalendar) throws -> ICalendarExporter, whileWaiting: (() -> Void)?, ifDamaged: CalendarFile.DamagePolicy,
                   _ body: (inout ICalendar) throws -> T) async throws -> T {
        let done = try await change(selecting: { _, _ in nil }, creating: true, exporterFor: exporterFor, whileWaiting: whileWaiting, ifDamaged: ifDamaged, body)
        guard let done else { throw CalendarStoreError(.io, "the change could not be made") }  // (not reached: the whole calendar is always read)
        return done
    }

    /// Changes only the members that hold `uids` (and the calendar's
    /// properties), and then those that hold what `alsoHolding` names in
    /// what was read: a booking reads its class and the members on its
    /// roster, not the gym's history. `nil` when the cache cannot tell which
    /// members hold what (one an earlier version kept, not fetched since)
    /// or the collection is not there: make the change on the whole calendar.
    func update<T>(holding uids: Set<String>, alsoHolding: (ICalendar) -> Set<String>, exporterFor: (ICalendar) throws -> ICalendarExporter,
                   whileWaiting: (() -> Void)?, ifDamaged: CalendarFile.DamagePolicy, _ body: (inout ICalendar) throws -> T) async throws -> T? {
        let wanted = uids.union([Resources.propertiesUID])
        return try await change(selecting: { state, read in
            guard state.members.values.allSatisfy({ $0.uids != nil }) else { return [] }
            func holding(_ ids: Set<String>) -> Set<String> {
                Set(state.members.filter { !Set($0.value.uids ?? []).isDisjoint(with: ids) }.keys)
            }
            let first = holding(wanted)
            return first.union(holding(alsoHolding(read(first))))
        }, creating: false, exporterFor: exporterFor, whileWaiting: whileWaiting, ifDamaged: ifDamaged, body)
    }

    /// A change made on the members `selecting` picks (all when it gives
    /// `nil`; none — so `nil` is returned — when it gives an empty set):
    /// see ``CollectionStore``.
    func change<T>(selecting: (State, (Set<String>) -> ICalendar) -> Set<String>?, creating: Bool,
                           exporterFor: (ICalendar) throws -> ICalendarExporter, whileWaiting: (() -> Void)?, ifDamaged: CalendarFile.DamagePolicy,
                           keeping: Bool = false, sent: ((KeptChangeOutcome) -> Void)? = nil, _ body: (inout ICalendar) throws -> T) async throws -> T? {
        let lock = try openCache(whileWaiting: whileWaiting)
        defer { lock.release() }
        var state = try readState()
        // A collection that is not there yet is made, as a file is — but only
        // by a change that writes something (a mistyped URL is not made a
        // calendar by a booking that fails).
        var missing = false
        do { try await refresh(&state) } catch let error as CalendarStoreError where error.code == .notFound {
            guard creating else { return nil }
            missing = true
            state = State(collection: client.collection.absoluteString)
        } catch let error as CalendarStoreError where Self.isUnreachable(error) {
            if keeping { throw Unreached(error: error) }
            throw CalendarStoreError(error.code, status: error.status, error.message
                + "; nothing was changed (a change is made on what the server holds, so none is made or kept without it)")
        }
        if !missing {
            try await finishPending(&state)
            do {
                _ = try await sendKept(&state, exporterFor: exporterFor, ifDamaged: ifDamaged, sent: sent)
            } catch let error as CalendarStoreError where Self.isUnreachable(error) || error.code == .transport {
                // The server went away while the earlier kept changes were
                // sent: this change is kept after them, or not made at all.
                if keeping { throw Unreached(error: error) }
                throw CalendarStoreError(error.code, status: error.status, error.message
                    + "; the changes kept on this device earlier stay kept, and this command's change was not made")
            }
        }
        return try await attempt(&state, selecting: selecting, missing: missing, exporterFor: exporterFor, ifDamaged: ifDamaged, body)
    }

    /// The server could not be reached before anything was done: the
    /// change may be kept (``CollectionStore/updateOwn(now:exporterFor:whileWaiting:_:)``).
    struct Unreached: Error {
        let error: CalendarStoreError
    }

    /// A change made on the members `selecting` picks, with the cache's lock
    /// held and `state` synced: tried again on what the server holds after
    /// each race it loses.
    func attempt<T>(_ state: inout State, selecting: (State, (Set<String>) -> ICalendar) -> Set<String>?, missing: Bool,
                    exporterFor: (ICalendar) throws -> ICalendarExporter, ifDamaged: CalendarFile.DamagePolicy,
                    _ body: (inout ICalendar) throws -> T) async throws -> T? {
        var missing = missing
        var lost: CalendarStoreError?
        var copied: Set<String> = []
        for attempt in 0..<Self.attempts {
            if attempt > 0 {
                // Someone else wrote first: wait a little (longer each time, and not in step with the others), read what they wrote.
                try await Self.pause(attempt: attempt)
                try await refresh(&state)
            }
            let selection = selecting(state) { hrefs in read(state, only: hrefs).calendar }
            if let selection, selection.isEmpty { return nil }
            let (before, diagnostics, members) = read(state, only: selection)
            try Resources.refuseDamage(at: Self.shown(client.collection.absoluteString), diagnostics, ifDamaged)
            var after = before
            let result = try body(&after)
            if case .keepCopy(let kept) = ifDamaged {
                for member in members where member.damaged && copied.insert(member.id).inserted { kept(try keepCopy(member.id, state)) }
            }
            let writes = Resources.writes(from: before, to: after, held: members.map { ($0.id, $0.keys) })
            if writes.isEmpty { return result }
            // A part of the calendar must not make a UID a member it did not read already holds.
            if let selection {
                let elsewhere = Set(state.members.filter { !selection.contains($0.key) }.flatMap { $0.value.uids ?? [] })
                for w in writes where w.name == nil {
                    if case .uid(let uid) = w.key, elsewhere.contains(uid) { return nil }
                }
            }
            if missing {
                try await makeCalendar()
                missing = false
            }
            lost = try await tryWrites(writes, in: after, exporter: try exporterFor(after), state: &state)
            if lost == nil { return result }
        }
        throw CalendarStoreError(.conflict, status: 412, "\(Self.shown(client.collection.absoluteString)): the change lost the race to other writers \(Self.attempts) times in a row (the last: \(lost?.message ?? "")); nothing more was written, try again")
    }

    /// Waits before the `attempt`th try of a change that lost a race: a
    /// random time, longer each time and not in step with the others, at
    /// most a second; suspending, not blocking a thread.
    static func pause(attempt: Int) async throws(CalendarStoreError) {
        let bound = UInt64(min(50_000 << attempt, 1_000_000))
        do { try await Task.sleep(nanoseconds: UInt64.random(in: 0...bound) * 1_000) } catch {
            throw CalendarStoreError(.cancelled, "the change was cancelled while waiting to try again; nothing more was written")
        }
    }

    /// Makes the collection (`MKCALENDAR`), for a change that writes to one
    /// not there yet. A server that answers 409 because the folder that
    /// would hold it does not exist is asked to make that folder (`MKCOL`)
    /// and then the calendar; one that will not says which folder to create.
    func makeCalendar() async throws(CalendarStoreError) {
        do {
            try await client.makeCalendar(displayName: nil)
        } catch where error.code == .transport && error.status == 409 {
            try await client.makeParent()
            try await client.makeCalendar(displayName: nil)
        }
    }

    /// One try at a change's writes: `nil` when they were made, else the
    /// race they lost (a 412, or a lost update found by the confirmation),
    /// for the change to be made again.
    private func tryWrites(_ writes: [Resources.Write], in after: ICalendar, exporter: ICalendarExporter, state: inout State) async throws -> CalendarStoreError? {
        do {
            try await write(writes, in: after, exporter: exporter, state: &state)
            return nil
        } catch let error as CalendarStoreError where error.code == .conflict && error.status == 412 {
            return error
        } catch let error as LostUpdate {
            // The server took the write, then let another client's write over it: made again on what it holds.
            return CalendarStoreError(.conflict, error.message)
        } catch let error as CalendarStoreError where !state.pending.isEmpty {
            // Cut off half-way: what is left is kept, and finished by the next command.
            throw CalendarStoreError(error.code, status: error.status, error.message
                + "; what is left of the change is kept in horari's cache, and the next command on this calendar writes it")
        }
    }

    /// Reads the cached members, in href order, as one calendar (``ResourceReader``).
    /// A read of every member takes each text from ``MemberPack`` when it
    /// holds that member's file (one named from its text), else from the
    /// file, and writes the pack again when it was not whole, so that the
    /// next one opens one file. When the pack holds exactly the members
    /// read, its plan of reading them together is used, and its texts only
    /// for those read alone. A read of a few (a booking's) opens their
    /// files: the pack is the whole collection's text.
    func read(_ state: State, only selection: Set<String>? = nil) -> (calendar: ICalendar, diagnostics: [ICalendarDiagnostic], members: [ResourceReader.Resource]) {
        let members = state.members.sorted(by: { $0.key < $1.key }).filter { selection?.contains($0.key) ?? true }
        let pack = selection == nil ? MemberPack.read(atPath: filePath(MemberPack.name)) : nil
        if let pack, pack.count == members.count, members.allSatisfy({ $0.value.file.hasPrefix(Self.textNamed) && pack.holds($0.value.file) }) {
            let names = members.map { Self.displayName($0.key) }
            if let kept = pack.plan, kept.fits(names, options: options) {
                let read = ResourceReader.read(kept, options: options) { pack.text(of: members[$0].value.file) }
                if options.checksWithLibICal, read.libicalClean != kept.libicalClean {
                    // libical's verdict on the joined text is new (checked for the first time, or by another libical): kept.
                    var checked = kept
                    checked.libicalClean = read.libicalClean
                    let texts = members.compactMap { member in pack.text(of: member.value.file).map { (name: member.value.file, text: $0) } }
                    writePack(texts, plan: checked)
                }
                return (read.calendar, read.diagnostics, read.resources(members.map(\.key)))
            }
        }
        var sources: [ResourceReader.Source] = []
        var hrefs: [String] = []
        var packable: [(name: String, text: [UInt8])] = []
        var diagnostics: [ICalendarDiagnostic] = []
        var fromFiles = 0
        for (href, member) in members {
            let bytes: [UInt8]
            let named = member.file.hasPrefix(Self.textNamed)
            if named, let packed = pack?.text(of: member.file) {
                bytes = packed
            } else if let data = FileManager.default.contents(atPath: filePath(member.file)) {
                bytes = [UInt8](data)
                if named { fromFiles += 1 }
            } else {
                diagnostics.append(ICalendarDiagnostic(.warning, line: 1, .other, "\(Self.displayName(href)): the cache's copy cannot be read; the next command fetches it again"))
                continue
            }
            sources.append(ResourceReader.Source(name: Self.displayName(href), bytes: bytes))
            hrefs.append(href)
            if named { packable.append((member.file, bytes)) }
        }
        var made = ResourceReader.plan(sources, options: options)
        let read = ResourceReader.read(made, options: options) { sources[$0].bytes }
        made.libicalClean = read.libicalClean
        // The plan is kept only when it is of every text the pack holds and nothing else; here, one kept
        // was none or did not fit (else it was read above), so a whole pack is written again with this one.
        let whole = diagnostics.isEmpty && Set(packable.map(\.name)).count == sources.count
        if selection == nil, fromFiles > 0 || pack?.count != Set(packable.map(\.name)).count || whole {
            writePack(packable, plan: whole ? made : nil)
        }
        return (read.calendar, diagnostics + read.diagnostics, read.resources(hrefs))
    }

    /// Writes ``MemberPack`` again with `texts` and `plan`. What a killed
    /// write of it left goes first (it is the collection's size; a read may
    /// write it many times). It is derived from the files, which stay what
    /// state.json names: a pack that cannot be written is only slower.
    private func writePack(_ texts: [(name: String, text: [UInt8])], plan: ResourceReader.Plan?) {
        CalendarFile.removeStaleTemporaries(in: cache) { $0 == MemberPack.name }
        try? FolderStore.writeAtomically(MemberPack.encode(texts, plan: plan), to: file(MemberPack.name))
    }

    // MARK: Syncing

    /// Brings the cache up to the server: what changed since the sync
    /// token, else (a server without sync-collection, or that no longer
    /// knows the token) the list of members; fetches the members whose
    /// tags changed. Nothing of the cache changes unless all of it is fetched.
    func refresh(_ state: inout State) async throws {
        let (changed, removedByServer, token, whole) = try await changes(since: state.syncToken)
        var removed = removedByServer
        var next = state
        var known: [String: CalDAVResource] = [:]
        for resource in changed { known[Self.canonical(resource.href)] = resource }
        if whole {
            for href in next.members.keys where known[href] == nil { removed.append(href) }
        }
        for href in removed { next.members[Self.canonical(href)] = nil }
        // What changed, what the server gives no tag for, and what the cache lost its copy of.
        var wanted = Set(known.filter { href, resource in resource.etag == nil || next.members[href]?.etag != resource.etag }.keys)
        // One listing of the cache's folder, not a look-up of each member's file.
        let files = Set((try? FileManager.default.contentsOfDirectory(atPath: cachePath)) ?? [])
        for (href, member) in next.members where !files.contains(member.file) { wanted.insert(href) }
        let fetch = wanted.sorted()
        if !fetch.isEmpty {
            var missing = Set(fetch)
            for resource in try await client.multiget(fetch) {
                let href = Self.canonical(resource.href)
                missing.remove(href)
                let name = Self.fileName(href, resource.etag, resource.data ?? [])
                try FolderStore.writeAtomically(resource.data ?? [], to: file(name))
                next.members[href] = State.Member(etag: resource.etag, file: name, uids: ICalendarResourceScan(bytes: resource.data ?? [], joining: false)?.uids)
            }
            // Gone between the sync and the fetch.
            for href in missing { next.members[href] = nil }
        }
        next.syncToken = token
        // A cache an earlier version kept does not say which member holds which UID: read from its copies, once.
        for (href, member) in next.members where member.uids == nil {
            if let data = FileManager.default.contents(atPath: filePath(member.file)) { next.members[href]?.uids = ICalendarResourceScan(bytes: [UInt8](data), joining: false)?.uids }
        }
        if next != state {
            try saveState(next)
            state = next
            sweep(state)
        } else {
            // What a killed command left (a temporary, a dropped change's text) goes even when nothing
            // changed: seen in the listing above, not looked for with another.
            if state.pending.isEmpty, files.contains(where: { $0.hasPrefix(".") || $0.hasPrefix("pending-") }) { sweep(state) }
            // Nothing changed, and that is as of now (the time an offline read says).
            try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file("state.json").path)
        }
    }

    /// A member's cache file: named by its href, its tag and its text
    /// (`t-<digest>.ics`), so that a newer text never overwrites the one
    /// `state.json` still names, and a name always holds the same text (a
    /// server that gave two texts one tag cannot make ``MemberPack`` serve
    /// the older one). An earlier version named them by href and tag alone
    /// (`<digest>.ics`, no `t-`) and may still write such a name again with
    /// another text: those are never taken from the pack.
    static func fileName(_ href: String, _ etag: String?, _ text: [UInt8]) -> String {
        textNamed + Digest.sha256Hex((href + "\n" + (etag ?? "") + "\n" + Digest.sha256Hex(text)).utf8) + ".ics"
    }

    /// The start of a member file's name made from its text (``fileName(_:_:_:)``).
    static let textNamed = "t-"

    /// Removes the cache files `state` no longer names, and what a killed
    /// process left half-written (the pack's copy is the collection's size).
    func sweep(_ state: State) {
        let named = Set(state.members.values.map(\.file) + state.pending.compactMap(\.file))
        for name in (try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? [] where name.hasSuffix(".ics") && !named.contains(name) {
            try? FileManager.default.removeItem(at: file(name))
        }
        CalendarFile.removeStaleTemporaries(in: cache) { $0.hasSuffix(".ics") || $0 == MemberPack.name || $0 == "state.json" || $0 == "kept.json" }
    }

    /// What changed since `token`, and whether that is every member: a sync,
    /// else (no sync-collection here) the list of members, compared by tag.
    func changes(since token: String?) async throws(CalendarStoreError) -> (changed: [CalDAVResource], removed: [String], token: String?, whole: Bool) {
        do {
            return try await syncFrom(token)
        } catch {
            guard error.code == .badResponse || [400, 403, 405, 501].contains(error.status ?? 0) else { throw error }
            return (try await client.list(), [], nil, true)
        }
    }

    /// A sync from `token`; from the start when the server no longer knows it.
    func syncFrom(_ token: String?) async throws(CalendarStoreError) -> (changed: [CalDAVResource], removed: [String], token: String?, whole: Bool) {
        do {
            let r = try await client.sync(from: token)
            return (r.changed, r.removed, r.token, token == nil)
        } catch {
            guard error.code == .invalidSyncToken, token != nil else { throw error }
            let r = try await client.sync(from: nil)
            return (r.changed, r.removed, r.token, true)
        }
    }

    // MARK: The cache's files

    var collectionPath: String {
        URLComponents(url: client.collection, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? "/"
    }

    func file(_ name: String) -> URL { cache.appendingPathComponent(name) }

    /// The path of a file in the cache (``file(_:)``'s, without making a `URL`).
    func filePath(_ name: String) -> String { cachePath + "/" + name }

    func openCache(whileWaiting: (() -> Void)? = nil) throws -> CalendarFile.FolderLock {
        do {
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CalendarStoreError(.io, "cannot make the cache folder \(cache.path): \(error.localizedDescription)")
        }
        try Self.refuseUnsafe(cache, private: 0o077)
        try Self.refuseUnsafe(cache.deletingLastPathComponent(), private: 0o022)
        return try FolderLock.lock(cache, whileWaiting: whileWaiting)
    }

    /// Refuses a cache folder another user could read, change or redirect:
    /// one that is a symbolic link (the cache would be kept wherever it
    /// points), not this user's, or open to the group or others (its mode
    /// must be 0700; it holds the members' text). The folder that holds
    /// the caches is checked alike, but may be readable by others (`private`
    /// 0o022: not writable by them, who could otherwise replace a cache
    /// folder). Nothing is followed, made private or changed here: a person
    /// says so.
    static func refuseUnsafe(_ folder: URL, private bits: mode_t) throws(CalendarStoreError) {
        var info = stat()
        guard lstat(folder.path, &info) == 0 else {
            throw CalendarStoreError(.io, "cannot check the cache folder \(folder.path): \(String(cString: strerror(errno)))")
        }
        let mode = info.st_mode & S_IFMT
        if mode == S_IFLNK {
            throw CalendarStoreError(.io, "the cache folder \(folder.path) is a symbolic link; horari keeps a calendar's cache only in a folder of its own (remove the link, or set XDG_CACHE_HOME to a private folder)")
        }
        if mode != S_IFDIR {
            throw CalendarStoreError(.io, "the cache folder \(folder.path) is not a folder")
        }
        if info.st_uid != geteuid() {
            throw CalendarStoreError(.io, "the cache folder \(folder.path) belongs to another user (uid \(info.st_uid)); horari keeps a calendar's cache only in a folder of its own")
        }
        let permissions = info.st_mode & 0o777
        if permissions & bits != 0 {
            let need = bits == 0o077 ? "700" : "go-w"
            throw CalendarStoreError(.io, "the cache folder \(folder.path) may be \(bits == 0o077 ? "read or changed" : "changed") by others (mode \(String(permissions, radix: 8))); horari keeps a calendar's cache only in a private folder: chmod \(need) '\(folder.path)'")
        }
    }

    func readState() throws -> State {
        // Read by StateJSONReader (a ninth of an unchanged sync's CPU was JSONDecoder's), else by JSONDecoder.
        if let data = FileManager.default.contents(atPath: filePath("state.json")),
           let state = StateJSONReader.state([UInt8](data)) ?? (try? JSONDecoder().decode(State.self, from: data)),
           state.collection == client.collection.absoluteString {
            return state
        }
        // A cache this version cannot read is read again from the server.
        return State(collection: client.collection.absoluteString)
    }

    func saveState(_ state: State) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do { data = try encoder.encode(state) } catch { throw CalendarStoreError(.io, "cannot record the cache's state: \(error)") }
        try FolderStore.writeAtomically(Array(data), to: file("state.json"))
    }

    /// Copies a damaged member's text as the server gave it to `damaged/` in the cache.
    func keepCopy(_ href: String, _ state: State) throws -> URL {
        guard let member = state.members[href] else { throw CalendarStoreError(.io, "\(href) is not in the cache") }
        let folder = cache.appendingPathComponent("damaged")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var copy = folder.appendingPathComponent(Self.displayName(href).replacingOccurrences(of: "/", with: "_"))
        var n = 1
        while FileManager.default.fileExists(atPath: copy.path) {
            n += 1
            copy = folder.appendingPathComponent(Self.displayName(href).replacingOccurrences(of: "/", with: "_") + "-\(n)")
        }
        do { try FileManager.default.copyItem(at: file(member.file), to: copy) } catch {
            throw CalendarStoreError(.io, "cannot keep a copy of \(href) at \(copy.path): \(error.localizedDescription)")
        }
        return copy
    }

    /// An href spelled one way, however the server percent-encodes it
    /// (`%40` or `@`): the cache's key for a member.
    static func canonical(_ href: String) -> String {
        (href.removingPercentEncoding ?? href).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? href
    }

    /// A member's name for messages: the last segment of its href, decoded.
    static func displayName(_ href: String) -> String {
        // The last segment that is not empty (a collection's href ends in `/`), without splitting the whole href.
        var end = href.endIndex
        while end > href.startIndex, href[href.index(before: end)] == "/" { end = href.index(before: end) }
        let trimmed = href[..<end]
        let last = trimmed.isEmpty ? href : trimmed.lastIndex(of: "/").map { String(trimmed[trimmed.index(after: $0)...]) } ?? String(trimmed)
        return shown(last.utf8.contains(UInt8(ascii: "%")) ? last.removingPercentEncoding ?? last : last)
    }

    /// Text from a server, with its control characters written out (`\u{1B}`), so that it cannot move a terminal's cursor.
    static func shown(_ text: String) -> String {
        // Printable ASCII, as nearly every href is, holds none: no look at each
        // scalar's properties (6% of an unchanged sync of 10,000 members).
        if text.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) { return text }
        guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return text }
        return String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? "\\u{\(String($0.value, radix: 16, uppercase: true))}" : String($0) }.joined())
    }
}

/// The book's lease the calling task holds (`SchedulingStore`, a change of
/// the whole book under a weekly limit): a collection's pending writes of a
/// change made holding it are guarded (``CollectionStore/LeaseGuard``);
/// another desk's lease, or a stale one, in the calendar guards nothing.
enum HeldLease {
    @TaskLocal static var token: String?
}

/// Whether the calling task's change makes and confirms its write of the
/// calendar's own resource before any other (`CalendarBookStorage`, whose
/// commits all write it first: it is the gate two desks on one revision
/// race through). A server that took two writes with one `If-Match`
/// (``LostUpdate``) would otherwise have had the loser's later writes made
/// by the time it found it lost.
enum GatedWrites {
    @TaskLocal static var firstConfirmed = false
}
