import CalendarCore
import Foundation

/// Reads iCalendar (RFC 5545) text into an ``ICalendar``, tolerantly.
///
/// The input is read as a stream of content lines and handled one top-level
/// component at a time: each `VEVENT`/`VTODO` is parsed by libical, mapped
/// to a `CalendarItem` and its tree freed before the next is read, so
/// memory follows the model, not libical's tree of the whole file.
///
/// Real files are messy, so a problem in one component never stops the rest:
/// every problem becomes an ``ICalendarDiagnostic`` with its line, and a
/// component that cannot become an item is kept as written in
/// ``ICalendar/components`` so that nothing is lost on export. With
/// ``ImportOptions/strict`` any problem fails the import instead.
///
/// ```swift
/// let result = try ICalendarImporter().importCalendar(contentsOf: url)
/// if result.hasErrors { result.diagnostics.forEach { print($0) } }
/// ```
public struct ICalendarImporter: Sendable {
    /// Limits and strictness.
    public var options: ImportOptions

    /// Creates an importer.
    public init(options: ImportOptions = ImportOptions()) {
        self.options = options
    }

    /// Imports iCalendar text.
    /// - Throws: ``ICalendarError`` when the text is not iCalendar at all, or
    ///   in strict mode when there is any problem.
    public func importCalendar(from text: String) throws(ICalendarError) -> ImportResult {
        try importCalendar(bytes: Array(text.utf8))
    }

    /// Imports iCalendar bytes.
    /// - Throws: ``ICalendarError``, as ``importCalendar(from:)-(String)``.
    public func importCalendar(from data: Data) throws(ICalendarError) -> ImportResult {
        try importCalendar(bytes: [UInt8](data))
    }

    /// Imports a jCal document (RFC 7265, ``JCal``): read into iCalendar
    /// text, then imported as that text is, with the same checks. A
    /// diagnostic's line is a line of that text, not of the JSON.
    ///
    /// ```swift
    /// let json = #"["vcalendar",[["version",{},"text","2.0"],["prodid",{},"text","-//Example//EN"]],[["vevent",[["uid",{},"text","a"],["dtstamp",{},"date-time","2026-11-30T10:00:00Z"],["dtstart",{},"date","2026-11-30"],["summary",{},"text","Yoga"]],[]]]]"#
    /// let result = try ICalendarImporter().importCalendar(jCal: Data(json.utf8))
    /// print(result.calendar.items.map(\.title))  // ["Yoga"]
    /// ```
    /// - Parameter data: the JSON.
    /// - Throws: ``ICalendarError`` with code ``ICalendarError/Code/invalidJCal``
    ///   naming the JSON's line and column when it is not jCal; as
    ///   ``importCalendar(from:)-(String)`` for what the text holds.
    public func importCalendar(jCal data: Data) throws(ICalendarError) -> ImportResult {
        guard data.count <= options.maxFileBytes else {
            throw ICalendarError(.tooLarge, "the input is \(data.count) bytes, over the limit of \(options.maxFileBytes) (ImportOptions.maxFileBytes)")
        }
        let text: String
        do { text = try JCal.iCalendarText(fromJSON: data) } catch {
            throw ICalendarError(.invalidJCal, "not jCal (RFC 7265) at \(error)")
        }
        return try importCalendar(from: text)
    }

    private func importCalendar(bytes: [UInt8]) throws(ICalendarError) -> ImportResult {
        guard bytes.count <= options.maxFileBytes else {
            throw ICalendarError(.tooLarge, "the input is \(bytes.count) bytes, over the limit of \(options.maxFileBytes) (ImportOptions.maxFileBytes)")
        }
        var reader = ContentLineReader(bytes: bytes, maxLineBytes: options.maxLineBytes)
        return try run(&reader)
    }

    /// Imports an `.ics` file, reading it in blocks so that only one
    /// component is held at a time.
    /// - Throws: ``ICalendarError`` with code ``ICalendarError/Code/io`` when
    ///   the file cannot be read, and as ``importCalendar(from:)-(String)``.
    /// - Parameters:
    ///   - url: the file.
    ///   - progress: called after each block (256 KiB) is read, with the bytes
    ///     read so far, on the calling thread; for a progress line.
    public func importCalendar(contentsOf url: URL, progress: ((Int) -> Void)? = nil) throws(ICalendarError) -> ImportResult {
        // A folder opens for reading on Linux and fails only at the first
        // read, with Foundation's "could not be completed": said here instead.
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
            throw ICalendarError(.io, "\(url.path) is a folder, not an .ics file; give the path of one file")
        }
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: url) } catch {
            // The system's own words (strerror), which say what to check, rather
            // than Foundation's "The operation could not be completed".
            let reason = (error as NSError).userInfo[NSUnderlyingErrorKey].flatMap { ($0 as? NSError)?.domain == NSPOSIXErrorDomain ? String(cString: strerror(Int32(($0 as? NSError)?.code ?? 0))) : nil }
                ?? (FileManager.default.fileExists(atPath: url.path) ? error.localizedDescription : "no such file")
            throw ICalendarError(.io, "cannot open \(url.path): \(reason)")
        }
        defer { try? handle.close() }
        let limit = options.maxFileBytes
        var total = 0
        var reader = ContentLineReader(maxLineBytes: options.maxLineBytes) {
            // 256 KiB at a time: a block is held three times over while it is
            // handed on (as read, as bytes, in the reader's buffer), and at
            // 1 MiB that was 3 MB of the 25 MB benchmark file's peak.
            guard let data = try handle.read(upToCount: 1 << 18), !data.isEmpty else { return nil }
            total += data.count
            guard total <= limit else {
                throw ICalendarError(.tooLarge, "\(url.path) is over the limit of \(limit) bytes (ImportOptions.maxFileBytes)")
            }
            progress?(total)
            return data.withUnsafeBytes { Array($0) }  // `[UInt8](data)` goes byte by byte
        }
        return try run(&reader)
    }

    private func run(_ reader: inout ContentLineReader) throws(ICalendarError) -> ImportResult {
        var session = ImportSession(options: options)
        do {
            try session.read(&reader)
        } catch let error as ICalendarError {
            throw error
        } catch {
            throw ICalendarError(.io, "cannot read the input: \(error.localizedDescription)", underlying: error)
        }
        guard session.sawCalendarData else {
            throw ICalendarError(.notICalendar, "the input is not iCalendar: it has no BEGIN:VCALENDAR (is it empty, binary, or another format?)", diagnostics: ICalendarDiagnostic.bounded(session.diagnostics, perKind: options.maxDiagnosticsPerKind))
        }
        let result = session.finish()
        if options.strict, result.diagnostics.contains(where: { $0.severity != .note }) {
            let all = result.diagnostics.filter { $0.severity != .note }.map { d in
                var strict = ICalendarDiagnostic(.error, line: d.line, d.code, d.message)
                strict.count = d.count
                return strict
            }
            let total = all.reduce(0) { $0 + $1.count }
            throw ICalendarError(.rejected, "the calendar has \(total) problem\(total == 1 ? "" : "s") (strict mode)", diagnostics: all)
        }
        return result
    }
}
