import CalendarCore
import Foundation
import ICalendarKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A calendar kept as a folder of one `.ics` file per `UID` — the vdir layout
/// khal and vdirsyncer read and write — with the calendar's own properties
/// in `horari-calendar.ics` (a `VJOURNAL`, which khal ignores).
///
/// A file another program wrote keeps its name, and may hold several
/// `UID`s; a new `UID` gets a name of its own (``ResourceName``), which no
/// `UID` can turn into a path outside the folder. A change holds an
/// exclusive `flock` on the folder, reads every file, and writes only the
/// files whose resources changed (a temporary file beside, `fsync`,
/// `rename`), so two processes take turns and a crash leaves whole files.
/// A change of several files is written first as one journal
/// (`.horari-change`, hidden from vdir readers), then file by file: one
/// killed halfway is finished by the next call that reads the folder, so a
/// change — a class with the messages it owes, say — lands whole or not at all.
struct FolderStore {
    let folder: URL
    let options: ImportOptions

    /// The files vdirsyncer keeps beside the resources of a collection: they do not make a folder something else.
    static let metadataNames: Set<String> = ["color", "displayname", "metadata"]

    /// Reads every `.ics` file of the folder (not hidden ones), in name order, as one calendar (``ResourceReader``).
    func read() throws(CalendarStoreError) -> (calendar: ICalendar, diagnostics: [ICalendarDiagnostic], files: [ResourceReader.Resource]) {
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
        } catch {
            throw CalendarStoreError(.notFound, "there is no calendar folder at \(folder.path)")
        }
        let names = entries.filter { $0.hasSuffix(".ics") }.sorted()
        // An empty folder is a calendar with nothing in it yet (a new vdir); a
        // folder of other things and no .ics file is a mistyped path, and
        // reading it as an empty calendar, or writing into it, would hide that.
        let others = entries.filter { !$0.hasSuffix(".ics") && !Self.metadataNames.contains($0) && !$0.contains(".ics.damaged") }
        if names.isEmpty, let example = others.sorted().first {
            throw CalendarStoreError(.notACalendar, "\(folder.path) holds no .ics file but \(others.count) other \(others.count == 1 ? "entry" : "entries") (such as ‘\(example)’), so it is not a calendar folder", suggestion: "name an .ics file, an empty folder, or a folder of .ics files")
        }
        var sources: [ResourceReader.Source] = []
        var diagnostics: [ICalendarDiagnostic] = []
        for name in names {
            let url = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            guard let data = FileManager.default.contents(atPath: url.path) else {
                diagnostics.append(ICalendarDiagnostic(.warning, line: 1, .other, "\(name): cannot be read; it is left as it is"))
                continue
            }
            sources.append(ResourceReader.Source(name: name, bytes: [UInt8](data)))
        }
        let read = ResourceReader.read(sources, options: options)
        let resources = read.resources(sources.map(\.name))
        try Self.refuseWholeCalendars(resources, in: folder)
        return (read.calendar, diagnostics + read.diagnostics, resources)
    }

    /// Refuses a folder where any `.ics` file holds several `UID`s.
    ///
    /// A calendar folder (vdir) holds one event or task per file (with its
    /// changed instances, which share its `UID`), as a CalDAV collection
    /// holds one per resource (RFC 4791 §4.1). A file of several — a whole
    /// calendar dropped among them, or `gym.ics` beside `club.ics` — makes
    /// it a place where calendar files are kept, not one calendar: read as
    /// one, its events would be merged without a word, and a change would
    /// write new files among them (issue 28, 8; issue 41, 16). khal, which
    /// keeps vdirs too, skips such a file with a warning; Horari refuses the
    /// folder instead, so that no event is left out of an answer unseen,
    /// and names the files and what to do.
    static func refuseWholeCalendars(_ resources: [ResourceReader.Resource], in folder: URL) throws(CalendarStoreError) {
        var whole: [(name: String, uids: Int)] = []
        var single = 0
        for r in resources {
            let uids = r.keys.count { if case .uid = $0 { true } else { false } }
            if uids > 1 { whole.append((r.id, uids)) } else if uids == 1 { single += 1 }
        }
        guard !whole.isEmpty else { return }
        let listed = whole.prefix(3).map { "\($0.name): \($0.uids) UIDs" }.joined(separator: ", ") + (whole.count > 3 ? ", …" : "")
        let first = folder.appendingPathComponent(whole[0].name).path
        let what = whole.count == 1 ? "a whole calendar" : "\(whole.count) whole calendars"
        guard single > 0 else {
            throw CalendarStoreError(.notACalendar, "\(folder.path) holds \(what) (\(listed)), not one .ics per event as a calendar folder (vdir) does, so it is not read as one calendar",
                                     suggestion: "name \(whole.count == 1 ? "the file" : "one of the files") instead (--calendar \(first))")
        }
        throw CalendarStoreError(.notACalendar, "\(folder.path) is a calendar folder (vdir) of \(single) \(single == 1 ? "file" : "files") of one event or task each, and also holds \(what) (\(listed)); a folder holds one event or task per file, so it is not read until that is so",
                                 suggestion: "move \(whole.count == 1 ? "that file" : "those files") out of the folder, then import \(whole.count == 1 ? "it" : "each") into it (horari import \(whole[0].name) --into \(folder.path)), which writes one file per event")
    }

    /// Loads the calendar, first finishing a change a killed process left
    /// halfway; when that cannot be done now (a read-only folder, a journal
    /// not Horari's), the folder is read as it is, and the next change says why.
    func load() throws(CalendarStoreError) -> ImportResult {
        if FileManager.default.fileExists(atPath: journal.path), let lock = try? FolderLock.lock(folder, whileWaiting: nil) {
            defer { lock.release() }
            try? finishJournalledChange()
        }
        let (calendar, diagnostics, _) = try read()
        return ImportResult(calendar: calendar, diagnostics: diagnostics)
    }

    /// Loads, changes and saves the calendar under the folder's lock,
    /// writing only the files whose resources changed.
    func update<T>(exporterFor: (ICalendar) throws -> ICalendarExporter, whileWaiting: (() -> Void)?, ifDamaged: CalendarFile.DamagePolicy,
                   _ body: (inout ICalendar) throws -> T) throws -> T {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let lock = try FolderLock.lock(folder, whileWaiting: whileWaiting)
        defer { lock.release() }
        try finishJournalledChange()
        let (before, diagnostics, files) = try read()
        // What a killed process left while saving one of the folder's files (once it is known to be a calendar's folder).
        CalendarFile.removeStaleTemporaries(in: folder) { $0.hasSuffix(".ics") || $0 == Self.journalName }
        try Resources.refuseDamage(at: folder.path, diagnostics, ifDamaged)
        var after = before
        let result = try body(&after)
        if case .keepCopy(let kept) = ifDamaged {
            for file in files where file.damaged { kept(try keepCopy(file.id)) }
        }
        try write(from: before, to: after, files: files, exporter: try exporterFor(after))
        return result
    }

    /// Writes the files whose resources differ between `before` and `after`:
    /// a file another program wrote with several resources is written again
    /// with what is left of them; a new resource gets a file of its own.
    ///
    /// A file it would replace or remove that is read-only (as
    /// `CalendarFile` refuses one: no write permission, or no write
    /// permission bit at all) refuses the whole change before any file is
    /// written, so the folder is never left half-changed by one.
    private func write(from before: ICalendar, to after: ICalendar, files: [ResourceReader.Resource], exporter: ICalendarExporter) throws(CalendarStoreError) {
        let writes = Resources.writes(from: before, to: after, held: files.map { ($0.id, $0.keys) })
        for name in writes.compactMap(\.name) {
            do { try CalendarFile.refuseReadOnly(folder.appendingPathComponent(name)) } catch { throw CalendarStoreError(.io, error.message) }
        }
        // Every name in the folder, as a case-insensitive disk would compare them: a new resource takes none of them.
        var taken = Set(((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).map { $0.lowercased() })
        let entries = writes.map { write in
            let name = write.name ?? Resources.freeName(for: write.key) { taken.contains($0.lowercased()) }
            taken.insert(name.lowercased())
            return JournalledChange.Entry(name: name, bytes: write.contents.isEmpty ? nil : Data(Resources.text(of: write.contents, in: after, exporter: exporter)))
        }
        guard entries.count > 1 else { return try apply(entries) }
        let text: Data
        do { text = try JSONEncoder().encode(JournalledChange(entries: entries)) } catch {
            throw CalendarStoreError(.io, "cannot write the change's journal \(journal.path): \(error)")
        }
        try Self.writeAtomically([UInt8](text), to: journal)
        try apply(entries)
        try removeJournal()
    }

    /// A change of several files, as its journal keeps it until every file is written.
    struct JournalledChange: Codable {
        /// One file: its new bytes, or `nil` to remove it.
        struct Entry: Codable {
            var name: String
            var bytes: Data?
        }
        var entries: [Entry]
    }

    /// The journal's name: hidden, and not `.ics`, so no vdir reader takes it for an event.
    static let journalName = ".horari-change"

    private var journal: URL { folder.appendingPathComponent(Self.journalName) }

    /// Writes each file of a change, whole (a temporary file, `rename`).
    private func apply(_ entries: [JournalledChange.Entry]) throws(CalendarStoreError) {
        for (done, entry) in entries.enumerated() {
            let url = folder.appendingPathComponent(entry.name)
            do throws(CalendarStoreError) {
                if let bytes = entry.bytes {
                    try Self.writeAtomically([UInt8](bytes), to: url)
                } else {
                    do { try SystemCall.unlink(url.path) } catch where error.errno != ENOENT {
                        throw CalendarStoreError(.io, "cannot remove \(url.path): \(error.reason)")
                    } catch {}  // already gone is gone
                }
            } catch {
                throw Self.cutShort(error, done: done, of: entries.count, in: folder)
            }
        }
    }

    /// Finishes the change a killed process journalled and did not finish
    /// (under the folder's lock). A journal is written whole or not at all,
    /// so one that does not read, or names a file outside the folder, is
    /// not Horari's: it is refused, and nothing is written.
    private func finishJournalledChange() throws(CalendarStoreError) {
        guard let data = FileManager.default.contents(atPath: journal.path) else { return }
        guard let change = try? JSONDecoder().decode(JournalledChange.self, from: data),
              change.entries.allSatisfy({ $0.name.hasSuffix(".ics") && !$0.name.hasPrefix(".") && !$0.name.contains("/") && !$0.name.contains("\u{0}") }) else {
            throw CalendarStoreError(.notACalendar, "\(journal.path) is not the journal of a change Horari made; nothing was changed",
                                     suggestion: "move it out of the folder if another program wrote it")
        }
        try apply(change.entries)
        try removeJournal()
    }

    private func removeJournal() throws(CalendarStoreError) {
        do { try SystemCall.unlink(journal.path) } catch where error.errno != ENOENT {
            throw CalendarStoreError(.io, "cannot remove \(journal.path): \(error.reason)")
        } catch {}
    }

    /// A change that stopped at one file (a full disk, say): how many of
    /// its files were written, and that the next call that reads the folder
    /// writes the rest (each file is whole, before or after, and the
    /// change's journal holds them all).
    static func cutShort(_ error: CalendarStoreError, done: Int, of count: Int, in folder: URL) -> CalendarStoreError {
        guard count > 1 else { return error }
        let landed = done == 0 ? "none of its \(count) files was written" : "\(done) of its \(count) files \(done == 1 ? "was" : "were") written before it, the other \(count - done) not"
        return CalendarStoreError(error.code, status: error.status, "\(error.message); the change of \(folder.path)/ stopped there: \(landed) (each file whole); its journal holds the rest, which the next command that reads the folder writes")
    }

    /// Copies a file of the folder beside it, byte for byte, as `NAME.damaged` (else `NAME.damaged-N`).
    private func keepCopy(_ name: String) throws(CalendarStoreError) -> URL {
        var copy = folder.appendingPathComponent(name + ".damaged")
        var n = 1
        while FileManager.default.fileExists(atPath: copy.path) {
            n += 1
            copy = folder.appendingPathComponent(name + ".damaged-\(n)")
        }
        do { try FileManager.default.copyItem(at: folder.appendingPathComponent(name), to: copy) } catch {
            throw CalendarStoreError(.io, "cannot keep a copy of \(name) at \(copy.path): \(error.localizedDescription)")
        }
        return copy
    }

    /// A temporary file beside `url`, `fsync`, `rename`, `fsync` of the
    /// folder: `CalendarFile`'s own write, which keeps a file's mode.
    static func writeAtomically(_ bytes: [UInt8], to url: URL) throws(CalendarStoreError) {
        do { try CalendarFile.write(bytes, to: url) } catch { throw CalendarStoreError(.io, error.message) }
    }
}

/// An exclusive `flock` on a folder, as `CalendarFile` locks a calendar's
/// folder: a second of trying, a word to the caller, then a plain wait.
enum FolderLock {
    static func lock(_ folder: URL, whileWaiting: (() -> Void)?) throws(CalendarStoreError) -> CalendarFile.FolderLock {
        do { return try CalendarFile.FolderLock(folder, whileWaiting: whileWaiting) } catch { throw CalendarStoreError(.io, error.message) }
    }
}
