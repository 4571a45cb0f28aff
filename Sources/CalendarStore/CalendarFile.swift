import CalendarCore
import Foundation
import ICalendarKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A calendar kept in an `.ics` file, written so that a crash or a second
/// process never leaves a half-written or interleaved file.
///
/// Saving writes a temporary file next to the target, `fsync`s it, renames it
/// over the target (atomic on POSIX file systems) and `fsync`s the folder.
/// Every save, and every ``update(_:options:exporter:_:)`` as a whole, holds
/// an advisory lock (`flock`) on the calendar's **folder**, so two processes
/// changing the same calendar take turns instead of losing each other's
/// changes. Not the calendar itself, because `rename` replaces its inode and
/// a lock on the old inode would guard nothing; not a `.lock` file beside
/// it, which would be left next to the user's calendar. Calendars in one
/// folder take turns with each other too, which costs nothing at the size
/// of a change.
///
/// Three promises follow from writing beside the file and renaming
/// (Docs/CalendarStores.md, "What a change does to the file"):
///
/// - **A read-only file is refused**, left byte for byte, with
///   `ICalendarError.Code.io`: one this process may not write
///   (`access(W_OK)` fails), and one with no write permission bit at all
///   (`mode & 0o222 == 0`), which is read-only for root as well — as `vim`
///   warns before writing one. The rename would replace either, since it
///   needs the folder's permission, not the file's. A folder that cannot be
///   written is said as such, naming the calendar.
/// - **A symbolic link is written through**: the change goes to the file
///   the link leads to (through every link of a chain), written beside
///   that file, in its folder, under that folder's lock; the link stays.
/// - **A killed process's temporary files are cleared**: the next change
///   removes the calendar's `.NAME.PID.N.tmp` files whose process is gone
///   (`kill(PID, 0)` fails with `ESRCH`), and nothing else.
///
/// ```swift
/// let report = try CalendarFile.update(url) { calendar in
///     calendar.merge(incoming)
/// }
/// ```
public enum CalendarFile {
    /// Reads a calendar file. A file that does not exist reads as an empty calendar.
    /// - Throws: `ICalendarError`.
    public static func load(_ url: URL, options: ImportOptions = ImportOptions()) throws(ICalendarError) -> ImportResult {
        guard FileManager.default.fileExists(atPath: url.path) else {
            return ImportResult(calendar: ICalendar(), diagnostics: [])
        }
        return try ICalendarImporter(options: options).importCalendar(contentsOf: url)
    }

    /// Writes a calendar to a file atomically, under the file's lock.
    ///
    /// A file that cannot be written, or has no write permission bit, is
    /// refused and left as it was; a link is written through (see ``CalendarFile``).
    /// - Throws: `ICalendarError` with code `ICalendarError.Code.io`.
    public static func save(_ calendar: ICalendar, to url: URL, exporter: ICalendarExporter = ICalendarExporter()) throws(ICalendarError) {
        let lock = try FolderLock(holding: url, whileWaiting: nil)
        defer { lock.release() }
        try prepareChange(of: url)
        try write(calendar, exporter: exporter, to: url)
    }

    /// Loads, changes and saves a calendar file while holding its lock, so no
    /// other process's change comes in between.
    ///
    /// The default exporter writes back the components the import could not
    /// read (`ICalendar.rejected`) as they were: rewriting a file in place
    /// must not drop what it held, even what only a person can repair.
    ///
    /// - Returns: what `body` returns.
    /// - Throws: `ICalendarError`, or what `body` throws (nothing is saved then).
    public static func update<T>(
        _ url: URL, options: ImportOptions = ImportOptions(),
        exporter: ICalendarExporter = ICalendarExporter(options: .init(includeRejected: true)),
        _ body: (inout ICalendar) throws -> T
    ) throws -> T {
        try update(url, options: options, exporterFor: { _ in exporter }, body)
    }

    /// What a change does with a calendar file that did not import cleanly
    /// (`ImportResult.damage`: a file cut short, an unclosed component, a
    /// line that is not iCalendar, a value that could not be read).
    public enum DamagePolicy: Sendable {
        /// Refuse the change with `ICalendarError.Code.damaged`; the file
        /// stays byte for byte as it was. The default.
        case refuse
        /// Make the change, after copying the file as it was, byte for byte,
        /// beside it (`NAME.damaged`, `NAME.damaged-2`, …): the damaged text
        /// is kept, never dropped. `kept` is told the copy's location.
        case keepCopy(kept: @Sendable (URL) -> Void)
    }

    /// Loads, changes and saves a calendar file while holding its lock, with
    /// an exporter chosen for the changed calendar (for example one whose
    /// `DTSTAMP` is a time read on the calendar's own clock).
    ///
    /// A file that did not import cleanly is not saved over unless
    /// `ifDamaged` says so: writing it back would make its damage permanent
    /// (what the import skipped is not in the calendar), and a person may
    /// still mend it by hand (`horari validate` lists where).
    ///
    /// - Parameters:
    ///   - url: the calendar file; it must exist.
    ///   - options: how the file is read.
    ///   - exporter: chooses the exporter for the changed calendar.
    ///   - whileWaiting: called once when another process has held the lock
    ///     for a second, so that a program can tell its user why it waits;
    ///     the call then goes on waiting.
    ///   - ifDamaged: what to do with a file that did not import cleanly.
    ///   - body: the change, made on the calendar as read.
    /// - Returns: what `body` returns.
    /// - Throws: `ICalendarError` (`ICalendarError.Code.damaged` for a
    ///   damaged file, `ICalendarError.Code.io` for a file that cannot be
    ///   written or has no write permission bit: it is as it was), or what
    ///   `body` or `exporter` throws (nothing is saved then).
    public static func update<T>(
        _ url: URL, options: ImportOptions = ImportOptions(),
        exporterFor exporter: (ICalendar) throws -> ICalendarExporter,
        whileWaiting: (() -> Void)? = nil,
        ifDamaged: DamagePolicy = .refuse,
        _ body: (inout ICalendar) throws -> T
    ) throws -> T {
        let lock = try FolderLock(holding: url, whileWaiting: whileWaiting)
        defer { lock.release() }
        let file = try prepareChange(of: url)
        let read = try load(url, options: options)
        var calendar = read.calendar
        let damage = read.damage
        try refuseDamage(at: url.path, damage, ifDamaged)
        let result = try body(&calendar)
        if !damage.isEmpty, case .keepCopy(let kept) = ifDamaged {
            kept(try keepCopy(of: file))
        }
        try write(calendar, exporter: try exporter(calendar), to: url)
        return result
    }

    /// Copies a file, byte for byte, to a new name beside it: `NAME.damaged`,
    /// else the first free `NAME.damaged-N`.
    static func keepCopy(of url: URL) throws(ICalendarError) -> URL {
        var n = 1
        var copy = url.appendingPathExtension("damaged")
        while FileManager.default.fileExists(atPath: copy.path) {
            n += 1
            copy = url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".damaged-\(n)")
        }
        do { try FileManager.default.copyItem(at: url, to: copy) } catch {
            throw ICalendarError(.io, "cannot keep a copy of \(url.path) at \(copy.path): \(error.localizedDescription)", underlying: error)
        }
        return copy
    }

    /// Refuses a change to a calendar that did not import cleanly (`damage`,
    /// the diagnostics that lose text) when the policy is `.refuse`: for a
    /// file, and for a folder or collection (`CalendarStore`).
    static func refuseDamage(at place: String, _ damage: [ICalendarDiagnostic], _ policy: DamagePolicy) throws(ICalendarError) {
        guard let first = damage.first, case .refuse = policy else { return }
        let count = damage.reduce(0) { $0 + $1.count }
        throw ICalendarError(.damaged, "\(place) did not import cleanly (\(count) problem\(count == 1 ? "" : "s"), the first on line \(first.line): \(first.message)); saving a change over it would lose that text, so nothing was changed", diagnostics: damage)
    }

    /// Temporary file, fsync, rename, fsync of the folder. The export goes to
    /// the temporary file in blocks as it is written (`ICalendarExporter.export(_:blockSize:to:)`):
    /// the whole text is never held, nor a copy of it.
    static func write(_ calendar: ICalendar, exporter: ICalendarExporter, to url: URL) throws(ICalendarError) {
        try replace(url) { (fd: Int32, path: String) throws(ICalendarError) in
            try exporter.export(calendar) { (block: UnsafeRawBufferPointer) throws(ICalendarError) in
                do throws(SystemCallError) { try SystemCall.writeAll(fd, block) } catch { throw ioError("cannot write \(path)", error) }
            }
        }
    }

    /// Temporary file, fsync, rename, fsync of the folder, for text already
    /// in hand (a folder store's resource).
    static func write(_ bytes: [UInt8], to url: URL) throws(ICalendarError) {
        try write([bytes[...]], to: url)
    }

    /// The same for a text in pieces (a spliced file: `ICalendarSplice.pieces(of:)`),
    /// written one after the other, never joined.
    static func write(_ pieces: [ArraySlice<UInt8>], to url: URL) throws(ICalendarError) {
        try replace(url) { (fd: Int32, path: String) throws(ICalendarError) in
            for piece in pieces {
                let failure = piece.withUnsafeBytes { buffer -> SystemCallError? in
                    do throws(SystemCallError) { try SystemCall.writeAll(fd, buffer); return nil } catch { return error }
                }
                if let failure { throw ioError("cannot write \(path)", failure) }
            }
        }
    }

    /// Replaces `url` — or the file it leads to, when it is a symbolic link
    /// (``target(of:)``) — by what `body` writes to a temporary file beside
    /// it (given its descriptor and path): fsync, rename, fsync of the
    /// folder. A file that cannot be written, or has no write permission
    /// bit, is refused first (``refuseReadOnly(_:)``). Nothing is replaced
    /// when `body` throws, and the temporary file is removed.
    private static func replace(_ url: URL, _ body: (Int32, String) throws(ICalendarError) -> Void) throws(ICalendarError) {
        let file = try target(of: url)
        let folder = file.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(file.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        // A file written again keeps its mode (a private calendar stays
        // private); a new one is 0644 less the umask, as any new file.
        var existing = stat()
        let mode: mode_t? = stat(file.path, &existing) == 0 ? existing.st_mode & 0o7777 : nil
        if mode != nil { try refuseReadOnly(url) }
        let fd: Int32
        do throws(SystemCallError) {
            fd = try SystemCall.open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, mode: mode ?? 0o644)
        } catch {
            let e = error.errno
            if e == EACCES || e == EPERM || e == EROFS { throw unwritableFolder(of: url, file: file, e) }
            throw ICalendarError(.io, "cannot write \(describe(url, file)): a new copy of it could not be made beside it in \(folder.path): \(error.reason)", underlying: error)
        }
        do {
            try body(fd, temporary.path)
        } catch {
            try? SystemCall.close(fd)
            try? SystemCall.unlink(temporary.path)
            throw error
        }
        do throws(SystemCallError) {
            // The mode first, then the bytes and the mode to the disk
            // (F_FULLFSYNC on Darwin: SystemCall.synchronize), then close.
            do throws(SystemCallError) {
                if let mode { try SystemCall.changeMode(fd, to: mode) }
                try SystemCall.synchronize(fd)
            } catch {
                try? SystemCall.close(fd)
                throw error
            }
            try SystemCall.close(fd)
        } catch {
            try? SystemCall.unlink(temporary.path)
            throw ioError("cannot write \(temporary.path)", error)
        }
        do throws(SystemCallError) {
            try SystemCall.rename(temporary.path, to: file.path)
        } catch {
            try? SystemCall.unlink(temporary.path)
            throw ioError("cannot replace \(describe(url, file))", error)
        }
        // The rename to the disk: the folder's entry. Best effort: the file
        // is whole either way, and some file systems refuse a folder's sync.
        if let dir = try? SystemCall.open(folder.path, O_RDONLY) {
            try? SystemCall.synchronize(dir)
            try? SystemCall.close(dir)
        }
    }

    /// What a change does before it reads the calendar, under the folder's
    /// lock: refuses a file it may not write (``refuseReadOnly(_:)``), and
    /// clears the temporary files a killed process left beside it
    /// (``removeStaleTemporaries(in:of:)``).
    /// - Returns: the file the change is written to (``target(of:)``).
    @discardableResult
    static func prepareChange(of url: URL) throws(ICalendarError) -> URL {
        let file = try target(of: url)
        try refuseReadOnly(url)
        let name = file.lastPathComponent
        removeStaleTemporaries(in: file.deletingLastPathComponent()) { $0 == name }
        return file
    }

    /// The file a change of `url` is written to: `url`, or when it is a
    /// symbolic link the file it leads to, through every link of a chain
    /// (a relative link read from the link's folder), in a folder named
    /// without links. The last may not exist yet: a change then makes it,
    /// and the link stays a link.
    ///
    /// Replacing the link by a file would leave the real calendar, which
    /// other programs read through other paths, without the change and
    /// every later one.
    /// - Throws: `ICalendarError.Code.io` for a link that cannot be read
    ///   or a chain of more than 40 links (a loop).
    static func target(of url: URL) throws(ICalendarError) -> URL {
        var path = url.path
        var followed = false
        for _ in 0..<40 {
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else {
                guard followed else { return url }
                // The folder without links or `..`, so messages and the lock name it plainly.
                let link = URL(fileURLWithPath: path)
                guard let folder = realpath(link.deletingLastPathComponent().path, nil) else { return link }
                defer { free(folder) }
                return URL(fileURLWithPath: String(cString: folder), isDirectory: true).appendingPathComponent(link.lastPathComponent)
            }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(path, &buffer, buffer.count - 1)
            guard count > 0 else { throw ioError("cannot read the link \(path), which \(url.path) leads through") }
            let destination = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            path = destination.hasPrefix("/") ? destination : URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(destination).path
            followed = true
        }
        errno = ELOOP
        throw ioError("cannot follow \(url.path) to a calendar file")
    }

    /// Refuses a change of the calendar file at `url` (through its links)
    /// that this process may not write: when `access(W_OK)` fails, and when
    /// the file has no write permission bit at all (`mode & 0o222 == 0`).
    ///
    /// The second rule is for root, whom `access` never refuses: a file
    /// marked read-only for everyone was marked so on purpose, and is
    /// read-only for root as well (as `vim` warns before writing one). The
    /// rename that saves a change needs only the folder's permission, so
    /// without this check a read-only calendar in a writable folder would
    /// be replaced. A file that does not exist yet is not refused here.
    /// - Throws: `ICalendarError.Code.io`, naming the calendar, its mode
    ///   and how to make it writable.
    static func refuseReadOnly(_ url: URL) throws(ICalendarError) {
        let file = try target(of: url)
        var info = stat()
        guard stat(file.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
        let mode = info.st_mode & 0o7777
        let shown = String(mode, radix: 8)
        if mode & 0o222 == 0 {
            throw ICalendarError(.io, "\(describe(url, file)) is read-only (mode \(shown): no one may write it), so it was not changed", suggestion: "to change it, make it writable (chmod u+w \(quoted(file.path)))")
        }
        if access(file.path, W_OK) != 0 {
            let e = errno
            if e == ENOENT { return }
            if e == EROFS {
                throw ICalendarError(.io, "\(describe(url, file)) is on a read-only file system, so it was not changed")
            }
            throw ICalendarError(.io, "\(describe(url, file)) cannot be written by this user (mode \(shown), owner \(info.st_uid): \(String(cString: strerror(e)))), so it was not changed")
        }
        // The folder: the change is written beside the file and renamed over it.
        let folder = file.deletingLastPathComponent()
        if access(folder.path, W_OK) != 0, errno != ENOENT { throw unwritableFolder(of: url, file: file, errno) }
    }

    /// The error for a calendar whose folder cannot be written: it names
    /// the calendar, not the temporary file that could not be made.
    private static func unwritableFolder(of url: URL, file: URL, _ error: Int32) -> ICalendarError {
        let reason = String(cString: strerror(error))
        return ICalendarError(.io, "\(describe(url, file)) cannot be changed: its folder \(file.deletingLastPathComponent().path) cannot be written (\(reason)), and a change is written beside the file and renamed over it; nothing was changed")
    }

    /// The calendar as its user named it, and the file a link leads to.
    private static func describe(_ url: URL, _ file: URL) -> String {
        file.path == url.path ? url.path : "\(url.path) (a link to \(file.path))"
    }

    /// A path as a shell reads it back.
    private static func quoted(_ path: String) -> String {
        path.allSatisfy { $0.isLetter || $0.isNumber || "/._-+@:,".contains($0) } ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Removes the temporary files a killed process left in `folder` while
    /// saving one of its calendars (`.NAME.PID.N.tmp`, each a whole copy of
    /// a calendar): those whose `NAME` is one `isCalendar` takes and whose
    /// process is gone (`kill(PID, 0)` fails with `ESRCH`). A file whose
    /// process lives — or whose name has any other form — is left: it may
    /// be that process's save under way. Call it holding the folder's lock.
    static func removeStaleTemporaries(in folder: URL, of isCalendar: (String) -> Bool) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            // NAME may hold dots; PID and N are the last two parts, digits only.
            let parts = name.dropFirst().dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count >= 3 else { continue }
            let pidText = parts[parts.count - 2], serial = parts[parts.count - 1]
            let digits: (Substring) -> Bool = { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
            guard digits(pidText), digits(serial), let pid = pid_t(pidText), pid > 0,
                  isCalendar(parts.dropLast(2).joined(separator: "."))
            else { continue }
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            // A leftover another process may clear at the same moment: gone either way.
            try? SystemCall.unlink(folder.appendingPathComponent(name).path)
        }
    }


    static func ioError(_ what: String) -> ICalendarError {
        ICalendarError(.io, "\(what): \(String(cString: strerror(errno)))")
    }

    /// An I/O error from a failed system call: what was being done, and the system's reason.
    static func ioError(_ what: String, _ error: SystemCallError) -> ICalendarError {
        ICalendarError(.io, "\(what): \(error.reason)", underlying: error)
    }

    /// An exclusive `flock` on a folder: a second of trying without
    /// blocking, then a word to the caller, then a plain wait. A calendar
    /// file is locked by its folder (why: the type's comment); a folder
    /// store and a collection's cache are locked with it too.
    struct FolderLock {
        let fd: Int32

        /// Locks the folder that holds `file` — the file a link leads to,
        /// when `file` is a link (``CalendarFile/target(of:)``).
        init(holding file: URL, whileWaiting: (() -> Void)?) throws(ICalendarError) {
            try self.init(CalendarFile.target(of: file).deletingLastPathComponent(), whileWaiting: whileWaiting)
        }

        /// Locks `folder`, waiting for whoever holds it.
        init(_ folder: URL, whileWaiting: (() -> Void)?) throws(ICalendarError) {
            let path = folder.path
            do throws(SystemCallError) { fd = try SystemCall.open(path, O_RDONLY | O_DIRECTORY) } catch { throw CalendarFile.ioError("cannot open the folder \(path) to lock it", error) }
            do throws(SystemCallError) {
                // A second of trying without blocking, then a word to the caller, then a plain wait.
                for _ in 0...20 {
                    if try SystemCall.lockExclusively(fd, wait: false) { return }
                    usleep(50_000)
                }
                whileWaiting?()
                _ = try SystemCall.lockExclusively(fd, wait: true)
            } catch {
                try? SystemCall.close(fd)
                throw CalendarFile.ioError("cannot lock \(path)", error)
            }
        }

        /// Unlocks the folder (closing it would too: the lock is the open folder's).
        func release() {
            try? SystemCall.unlock(fd)
            try? SystemCall.close(fd)
        }
    }
}
