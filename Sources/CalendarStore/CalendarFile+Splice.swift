import CalendarCore
import Foundation
import ICalendarKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CalendarFile {
    /// Changes a calendar file in place under its lock: outlines it, lets
    /// `body` choose the changes, and writes the spliced text atomically
    /// (as ``save(_:to:exporter:)`` writes), every byte it did not change as
    /// it was.
    ///
    /// Returns `nil`, having written nothing, when the file does not exist,
    /// is not in the form an outline needs (`ICalendarOutline`), `body`
    /// returns `nil`, or a text the splice puts in is not whole components
    /// in outline form (so the file stays in that form); the
    /// caller then changes the file whole (``update(_:options:exporterFor:whileWaiting:ifDamaged:_:)``).
    ///
    /// - Parameters:
    ///   - url: the calendar file.
    ///   - indexing: the component properties the outline indexes (`ICalendarOutline.Component.indexed`).
    ///   - whileWaiting: called once when another process has held the lock
    ///     for a second; the call then goes on waiting.
    ///   - body: the result and the changes, or `nil` to write nothing and give `nil`.
    /// - Returns: what `body` returns, or `nil` as above.
    /// - Throws: `ICalendarError` with code `ICalendarError.Code.io`, or
    ///   what `body` throws (nothing is written then).
    public static func splice<T>(
        _ url: URL, indexing: Set<String>, whileWaiting: (() -> Void)? = nil,
        _ body: (ICalendarOutline) throws -> (result: T, splice: ICalendarSplice)?
    ) throws -> T? {
        let lock = try CalendarFile.FolderLock(holding: url, whileWaiting: whileWaiting)
        defer { lock.release() }
        try prepareChange(of: url)
        guard let bytes = try readBytes(url), let outline = ICalendarOutline(bytes: bytes, indexing: indexing),
            let (result, splice) = try body(outline)
        else { return nil }
        if splice.isEmpty { return result }
        // Whole components in place of whole components: the text stays in
        // outline form as long as each text put in is whole components.
        guard splice.putsWholeComponents, let pieces = splice.pieces(of: outline) else { return nil }
        try write(pieces, to: url)
        return result
    }

    /// A file's bytes, read straight into an array; `nil` when there is no file.
    private static func readBytes(_ url: URL) throws(ICalendarError) -> [UInt8]? {
        let fd: Int32
        do throws(SystemCallError) { fd = try SystemCall.open(url.path, O_RDONLY) } catch {
            if error.errno == ENOENT { return nil }
            throw ioError("cannot open \(url.path)", error)
        }
        defer { try? SystemCall.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ioError("cannot read \(url.path)") }
        // As large as the file, read in place; then whatever it grew by since.
        let size = Int(info.st_size)
        var failure: SystemCallError?
        var bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            guard let base = buffer.baseAddress else { return }
            do throws(SystemCallError) {
                while count < size {
                    let n = try SystemCall.read(fd, into: base + count, count: size - count)
                    if n == 0 { return }
                    count += n
                }
            } catch { failure = error }
        }
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while failure == nil {
            let read = block.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemCallError) -> Int in
                    guard let base = buffer.baseAddress else { return 0 }
                    return try SystemCall.read(fd, into: base, count: buffer.count)
                }
            }
            switch read {
            case .success(0): return bytes
            case .success(let n): bytes += block[0..<n]
            case .failure(let error): failure = error
            }
        }
        throw ioError("cannot read \(url.path)", failure ?? SystemCallError(call: "read", errno: EIO))
    }
}
