import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A system call that failed: which call, on what, and its `errno`, typed —
/// as swift-system's `Errno`, so that a caller tells `ENOENT` from `EACCES`
/// by value, not by reading the C global after something else has run.
struct SystemCallError: Error, Equatable, CustomStringConvertible {
    /// The call, as the C library names it (`open`, `flock`, `F_FULLFSYNC`).
    let call: String
    /// The `errno` it failed with.
    let errno: Int32

    /// The system's sentence for the `errno` (`No such file or directory`).
    var reason: String { String(cString: strerror(errno)) }
    /// The call and the reason.
    var description: String { "\(call): \(reason)" }
}

/// The system calls behind file locking and atomic writes, each a thin
/// wrapper that turns `errno` into a ``SystemCallError`` and makes the call
/// again when a signal interrupted it (`EINTR`).
///
/// Why not swift-system (`FileDescriptor`): it has open, close, read and
/// write, typed `Errno` and `retryOnInterrupt`, in the style followed here,
/// but not `fsync`, `F_FULLFSYNC`, `flock`, `rename`, `unlink` or `fchmod`,
/// which are most of what these writes need; a package for the four it has
/// would leave two styles side by side. Read it, not copied.
///
/// Where Linux and Darwin differ (Docs/Platforms.md): ``synchronize(_:)``.
enum SystemCall {
    /// Runs `body` until it does not fail with `EINTR`.
    /// - Parameters:
    ///   - call: the call's name, for the error.
    ///   - body: the call.
    ///   - failed: whether its result is a failure (`errno` then says why).
    static func retryingInterrupts<T>(_ call: String, _ body: () -> T, failed: (T) -> Bool) throws(SystemCallError) -> T {
        while true {
            let result = body()
            guard failed(result) else { return result }
            let e = errno
            if e != EINTR { throw SystemCallError(call: call, errno: e) }
        }
    }

    /// `open(2)`: a descriptor.
    static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(SystemCallError) -> Int32 {
        try retryingInterrupts("open", { path.withCString { flags & O_CREAT != 0 ? Foundation.open($0, flags, mode) : Foundation.open($0, flags) } }, failed: { $0 < 0 })
    }

    /// `close(2)`, never made again: after `EINTR` the descriptor is already
    /// closed on Linux, and closing its number again could close another
    /// thread's new file.
    static func close(_ fd: Int32) throws(SystemCallError) {
        if Foundation.close(fd) != 0 { throw SystemCallError(call: "close", errno: errno) }
    }

    /// `write(2)` until every byte is written.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            offset += try retryingInterrupts("write", { Foundation.write(fd, base + offset, bytes.count - offset) }, failed: { $0 < 0 })
        }
    }

    /// `read(2)`: how many bytes were read, 0 at the end of the file.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) throws(SystemCallError) -> Int {
        try retryingInterrupts("read", { Foundation.read(fd, buffer, count) }, failed: { $0 < 0 })
    }

    /// `fchmod(2)`.
    static func changeMode(_ fd: Int32, to mode: mode_t) throws(SystemCallError) {
        _ = try retryingInterrupts("fchmod", { fchmod(fd, mode) }, failed: { $0 != 0 })
    }

    /// Writes what the file holds through to the disk.
    ///
    /// On Darwin, `fsync` only hands the data to the drive, which may keep
    /// it in its cache across a power loss; `fcntl(F_FULLFSYNC)` asks the
    /// drive to write it (Apple's `fsync(2)` manual says so). Where a file
    /// system does not support it (some network and FUSE volumes answer
    /// `ENOTSUP` or `EINVAL`), `fsync` is what there is. On Linux `fsync`
    /// reaches the disk.
    static func synchronize(_ fd: Int32) throws(SystemCallError) {
        #if canImport(Darwin)
        do {
            _ = try retryingInterrupts("F_FULLFSYNC", { fcntl(fd, F_FULLFSYNC) }, failed: { $0 == -1 })
            return
        } catch where error.errno == ENOTSUP || error.errno == EINVAL {
            // below: plain fsync
        }
        #endif
        _ = try retryingInterrupts("fsync", { fsync(fd) }, failed: { $0 != 0 })
    }

    /// `rename(2)`: atomic on a POSIX file system.
    static func rename(_ from: String, to: String) throws(SystemCallError) {
        _ = try retryingInterrupts("rename", { Foundation.rename(from, to) }, failed: { $0 != 0 })
    }

    /// `unlink(2)`.
    static func unlink(_ path: String) throws(SystemCallError) {
        _ = try retryingInterrupts("unlink", { Foundation.unlink(path) }, failed: { $0 != 0 })
    }

    /// An exclusive `flock(2)`: `true` when it is held, `false` when another
    /// holds it and `wait` is `false`.
    static func lockExclusively(_ fd: Int32, wait: Bool) throws(SystemCallError) -> Bool {
        do {
            _ = try retryingInterrupts("flock", { flock(fd, wait ? LOCK_EX : LOCK_EX | LOCK_NB) }, failed: { $0 != 0 })
            return true
        } catch where !wait && (error.errno == EWOULDBLOCK || error.errno == EAGAIN) {
            return false
        }
    }

    /// Releases a `flock(2)`.
    static func unlock(_ fd: Int32) throws(SystemCallError) {
        _ = try retryingInterrupts("flock", { flock(fd, LOCK_UN) }, failed: { $0 != 0 })
    }
}
