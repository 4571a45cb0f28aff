import CalendarCore
import Foundation
import ICalendarKit

/// Changes to a person's own items made with the server out of reach
/// (``KeptChange``): kept in the cache's `kept.json`, in order, and sent by
/// the next call that reaches the server, each made only on the item as the
/// change found it.
extension CollectionStore {
    /// Changes the calendar as ``update(exporterFor:whileWaiting:ifDamaged:_:)``
    /// does; when the server cannot be reached at all, makes the change on
    /// the calendar the cache last saw (with the changes kept before it) and
    /// keeps it, if it changes only a person's own items.
    func updateOwn<T>(now: Date, exporterFor: (ICalendar) throws -> ICalendarExporter, whileWaiting: (() -> Void)?,
                      ifDamaged: CalendarFile.DamagePolicy, _ body: (inout ICalendar) throws -> T) async throws -> OwnItemsUpdate<T> {
        var sent: [KeptChangeOutcome] = []
        do {
            let done = try await change(selecting: { _, _ in nil }, creating: true, exporterFor: exporterFor, whileWaiting: whileWaiting,
                                        ifDamaged: ifDamaged, keeping: true, sent: { sent.append($0) }, body)
            guard let done else { throw CalendarStoreError(.io, "the change could not be made") }  // (not reached: the whole calendar is read)
            return OwnItemsUpdate(value: done, isKept: false, waiting: 0, sent: sent)
        } catch let unreached as Unreached {
            return try keep(now: now, unreached: unreached.error, whileWaiting: whileWaiting, body)
        }
    }

    /// Makes the change on the cache's calendar and keeps it.
    private func keep<T>(now: Date, unreached: CalendarStoreError, whileWaiting: (() -> Void)?,
                         _ body: (inout ICalendar) throws -> T) throws -> OwnItemsUpdate<T> {
        let lock = try openCache(whileWaiting: whileWaiting)
        defer { lock.release() }
        let state = try readState()
        let place = Self.shown(client.collection.absoluteString)
        guard state.syncToken != nil || !state.members.isEmpty else {
            throw CalendarStoreError(unreached.code, status: unreached.status, unreached.message
                + "; this device has never read the calendar, so nothing was changed or kept")
        }
        var kept = readKept()
        var before = read(state).calendar
        KeptChange.apply(kept, to: &before)
        var after = before
        let value = try body(&after)
        // The changes of one command are one batch: made or refused together.
        let batch = (kept.map(\.batch).max() ?? 0) + 1
        let changes = try KeptChange.changes(from: before, to: after, at: now, place: place).map { change in
            var change = change
            change.batch = batch
            return change
        }
        if !changes.isEmpty {
            kept += changes
            try saveKept(kept)
        }
        return OwnItemsUpdate(value: value, isKept: !changes.isEmpty, waiting: kept.count, sent: [])
    }

    /// Sends the kept changes, in order, with the cache's lock held and
    /// `state` synced: each command's changes (a batch) are made together
    /// on the calendar as the server holds it now, or refused together, and
    /// leave `kept.json` once settled. A failure to reach the server stops
    /// it; what is left stays for the next call.
    func sendKept(_ state: inout State, exporterFor: (ICalendar) throws -> ICalendarExporter, ifDamaged: CalendarFile.DamagePolicy = .refuse,
                  sent: ((KeptChangeOutcome) -> Void)? = nil) async throws -> [KeptChangeOutcome] {
        var kept = readKept()
        var outcomes: [KeptChangeOutcome] = []
        while let first = kept.first {
            let batch = Array(kept.prefix { $0.batch == first.batch })
            let results = try await attempt(&state, selecting: { _, _ in nil }, missing: false, exporterFor: exporterFor, ifDamaged: ifDamaged) { calendar in
                KeptChange.make(batch, on: &calendar)
            } ?? batch.map { _ in .refused("the calendar could not be read") }
            kept.removeFirst(batch.count)
            try saveKept(kept)
            for (change, result) in zip(batch, results) {
                let outcome = KeptChangeOutcome(change: change, result: result)
                outcomes.append(outcome)
                sent?(outcome)
                notices?(outcome.description)
            }
        }
        return outcomes
    }

    /// The kept changes waiting, in order.
    func keptChanges() -> [KeptChange] {
        guard let lock = try? openCache() else { return readKept() }
        defer { lock.release() }
        return readKept()
    }

    /// `kept.json` (``KeptFile``); an empty list when there is none. A
    /// file this version cannot read, or a newer version wrote, is set aside
    /// under a name of its own (`kept-unread-….json`) and said, never
    /// dropped unsaid nor sent without what it holds.
    func readKept() -> [KeptChange] {
        let url = file("kept.json")
        guard let data = FileManager.default.contents(atPath: url.path) else { return [] }
        let why: String
        do {
            let kept = try JSONDecoder().decode(KeptFile.self, from: data)
            if kept.version <= KeptFile.currentVersion { return kept.changes }
            why = "a newer horari wrote them (version \(kept.version)); send them with it"
        } catch {
            why = "they could not be read (\(error))"
        }
        let aside = file("kept-unread-\(UUID().uuidString.lowercased()).json")
        do {
            try FileManager.default.moveItem(at: url, to: aside)
            notices?("the changes kept on this device are not sent: \(why); they are in \(aside.path)")
        } catch {
            notices?("the changes kept on this device are not sent: \(why); they stay in \(url.path) (\(error.localizedDescription))")
        }
        return []
    }

    /// `kept.json`: the kept changes, with the version of the file's form.
    struct KeptFile: Codable {
        /// The form this version writes and reads.
        static let currentVersion = 1
        var version: Int
        var changes: [KeptChange]
    }

    /// Writes `kept.json` whole (removes it when nothing is kept).
    func saveKept(_ kept: [KeptChange]) throws {
        let url = file("kept.json")
        if kept.isEmpty {
            try? FileManager.default.removeItem(at: url)
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do { data = try encoder.encode(KeptFile(version: KeptFile.currentVersion, changes: kept)) } catch {
            throw CalendarStoreError(.io, "cannot keep the change on this device: \(error)")
        }
        try FolderStore.writeAtomically(Array(data), to: url)
    }
}
