import CalendarCore
import Foundation

#if canImport(Glibc)
import Glibc
private let posixWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let posixWrite = Darwin.write
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
/// ```swift
/// let report = try CalendarFile.update(url) { calendar in
///     calendar.merge(incoming)
/// }
/// ```
public enum CalendarFile {
    /// Reads a calendar file. A file that does not exist reads as an empty calendar.
    /// - Throws: ``ICalendarError``.
    public static func load(_ url: URL, options: ImportOptions = ImportOptions()) throws(ICalendarError) -> ImportResult {
        guard FileManager.default.fileExists(atPath: url.path) else {
            return ImportResult(calendar: ICalendar(), diagnostics: [])
        }
        return try ICalendarImporter(options: options).importCalendar(contentsOf: url)
    }

    /// Writes a calendar to a file atomically, under the file's lock.
    /// - Throws: ``ICalendarError`` with code ``ICalendarError/Code/io``.
    public static func save(_ calendar: ICalendar, to url: URL, exporter: ICalendarExporter = ICalendarExporter()) throws(ICalendarError) {
        let lock = try FolderLock(holding: url, whileWaiting: nil)
        defer { lock.release() }
        try write(calendar, exporter: exporter, to: url)
    }

    /// Loads, changes and saves a calendar file while holding its lock, so no
    /// other process's change comes in between.
    ///
    /// The default exporter writes back the components the import could not
    /// read (``ICalendar/rejected``) as they were: rewriting a file in place
    /// must not drop what it held, even what only a person can repair.
    ///
    /// - Returns: what `body` returns.
    /// - Throws: ``ICalendarError``, or what `body` throws (nothing is saved then).
    public static func update<T>(
        _ url: URL, options: ImportOptions = ImportOptions(),
        exporter: ICalendarExporter = ICalendarExporter(options: .init(includeRejected: true)),
        _ body: (inout ICalendar) throws -> T
    ) throws -> T {
        try update(url, options: options, exporterFor: { _ in exporter }, body)
    }

    /// What a change does with a calendar file that did not import cleanly
    /// (``ImportResult/damage``: a file cut short, an unclosed component, a
    /// line that is not iCalendar, a value that could not be read).
    public enum DamagePolicy: Sendable {
        /// Refuse the change with ``ICalendarError/Code/damaged``; the file
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
    /// - Throws: ``ICalendarError`` (``ICalendarError/Code/damaged`` for a
    ///   damaged file), or what `body` or `exporter` throws (nothing is saved then).
    public static func update<T>(
        _ url: URL, options: ImportOptions = ImportOptions(),
        exporterFor exporter: (ICalendar) throws -> ICalendarExporter,
        whileWaiting: (() -> Void)? = nil,
        ifDamaged: DamagePolicy = .refuse,
        _ body: (inout ICalendar) throws -> T
    ) throws -> T {
        let lock = try FolderLock(holding: url, whileWaiting: whileWaiting)
        defer { lock.release() }
        let read = try load(url, options: options)
        var calendar = read.calendar
        let damage = read.damage
        try refuseDamage(at: url.path, damage, ifDamaged)
        let result = try body(&calendar)
        if !damage.isEmpty, case .keepCopy(let kept) = ifDamaged {
            kept(try keepCopy(of: url))
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
    /// file, and for a `CalendarStore` folder or collection.
    package static func refuseDamage(at place: String, _ damage: [ICalendarDiagnostic], _ policy: DamagePolicy) throws(ICalendarError) {
        guard let first = damage.first, case .refuse = policy else { return }
        let count = damage.reduce(0) { $0 + $1.count }
        throw ICalendarError(.damaged, "\(place) did not import cleanly (\(count) problem\(count == 1 ? "" : "s"), the first on line \(first.line): \(first.message)); saving a change over it would lose that text, so nothing was changed", diagnostics: damage)
    }

    /// Temporary file, fsync, rename, fsync of the folder. The export goes to
    /// the temporary file in blocks as it is written (``ICalendarExporter/export(_:blockSize:to:)``):
    /// the whole text is never held, nor a copy of it.
    static func write(_ calendar: ICalendar, exporter: ICalendarExporter, to url: URL) throws(ICalendarError) {
        try replace(url) { (fd: Int32, path: String) throws(ICalendarError) in
            try exporter.export(calendar) { (block: UnsafeRawBufferPointer) throws(ICalendarError) in
                guard writeAll(fd, block) else { throw ioError("cannot write \(path)") }
            }
        }
    }

    /// Temporary file, fsync, rename, fsync of the folder, for text already
    /// in hand (a spliced file, or a `CalendarStore` resource).
    package static func write(_ bytes: [UInt8], to url: URL) throws(ICalendarError) {
        try replace(url) { (fd: Int32, path: String) throws(ICalendarError) in
            let written = bytes.withUnsafeBytes { writeAll(fd, $0) }
            guard written else { throw ioError("cannot write \(path)") }
        }
    }

    /// Replaces `url` by what `body` writes to a temporary file beside it
    /// (given its descriptor and path): fsync, rename, fsync of the folder.
    /// Nothing is replaced when `body` throws, and the temporary file is removed.
    private static func replace(_ url: URL, _ body: (Int32, String) throws(ICalendarError) -> Void) throws(ICalendarError) {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        // A file written again keeps its mode (a private calendar stays
        // private); a new one is 0644 less the umask, as any new file.
        var existing = stat()
        let mode: mode_t? = stat(url.path, &existing) == 0 ? existing.st_mode & 0o7777 : nil
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, mode ?? 0o644)
        guard fd >= 0 else { throw ioError("cannot create \(temporary.path)") }
        do {
            try body(fd, temporary.path)
        } catch {
            close(fd)
            unlink(temporary.path)
            throw error
        }
        let synced = (mode.map { fchmod(fd, $0) == 0 } ?? true) && fsync(fd) == 0
        let closed = close(fd) == 0
        guard synced, closed else {
            let e = ioError("cannot write \(temporary.path)")
            unlink(temporary.path)
            throw e
        }
        guard rename(temporary.path, url.path) == 0 else {
            let e = ioError("cannot replace \(url.path)")
            unlink(temporary.path)
            throw e
        }
        let dir = open(folder.path, O_RDONLY)
        if dir >= 0 {
            _ = fsync(dir)
            close(dir)
        }
    }

    /// Writes all of `bytes` to `fd`, again after an interruption; `false` on an error (see `errno`).
    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var offset = 0
        while offset < bytes.count {
            let n = posixWrite(fd, base + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    static func ioError(_ what: String) -> ICalendarError {
        ICalendarError(.io, "\(what): \(String(cString: strerror(errno)))")
    }

    /// An exclusive `flock` on a folder: a second of trying without
    /// blocking, then a word to the caller, then a plain wait. A calendar
    /// file is locked by its folder (why: the type's comment); the
    /// `CalendarStore` module locks its folders and caches with it too.
    package struct FolderLock {
        let fd: Int32

        /// Locks the folder that holds `file`.
        init(holding file: URL, whileWaiting: (() -> Void)?) throws(ICalendarError) {
            try self.init(file.deletingLastPathComponent(), whileWaiting: whileWaiting)
        }

        /// Locks `folder`, waiting for whoever holds it.
        package init(_ folder: URL, whileWaiting: (() -> Void)?) throws(ICalendarError) {
            let path = folder.path
            fd = open(path, O_RDONLY | O_DIRECTORY)
            guard fd >= 0 else { throw CalendarFile.ioError("cannot open the folder \(path) to lock it") }
            var tries = 0
            while flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let e = errno
                if e == EINTR { continue }
                guard e == EWOULDBLOCK || e == EAGAIN else {
                    let error = CalendarFile.ioError("cannot lock \(path)")
                    close(fd)
                    throw error
                }
                tries += 1
                if tries > 20 {
                    whileWaiting?()
                    while flock(fd, LOCK_EX) != 0 {
                        if errno == EINTR { continue }
                        let error = CalendarFile.ioError("cannot lock \(path)")
                        close(fd)
                        throw error
                    }
                    return
                }
                usleep(50_000)
            }
        }

        /// Unlocks the folder.
        package func release() {
            _ = flock(fd, LOCK_UN)
            close(fd)
        }
    }
}
