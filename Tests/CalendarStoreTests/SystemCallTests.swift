import Foundation
import Testing
@testable import CalendarStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 30, 4: the system calls of locking and atomic writes turn `errno`
/// into a typed error and are made again after `EINTR`, on real files.
@Suite("System calls, typed")
struct SystemCallTests {
    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("horari-syscalls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("a call interrupted by a signal is made again; another failure is thrown with its errno")
    func interrupts() throws {
        var calls = 0
        let value = try SystemCall.retryingInterrupts("test", {
            calls += 1
            if calls < 3 { errno = EINTR; return -1 }
            return 7
        }, failed: { $0 < 0 })
        #expect(value == 7 && calls == 3)
        let refused = #expect(throws: SystemCallError.self) {
            _ = try SystemCall.retryingInterrupts("test", { errno = EACCES; return -1 }, failed: { $0 < 0 })
        }
        #expect(refused == SystemCallError(call: "test", errno: EACCES))
        #expect(refused?.description == "test: \(String(cString: strerror(EACCES)))")
    }

    @Test("open, write, synchronize, rename, read, unlink on a real file; a missing one is ENOENT")
    func files() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = #expect(throws: SystemCallError.self) { _ = try SystemCall.open(dir.appendingPathComponent("none").path, O_RDONLY) }
        #expect(missing?.errno == ENOENT && missing?.call == "open")

        let temporary = dir.appendingPathComponent(".cal.tmp").path, target = dir.appendingPathComponent("cal.ics").path
        let fd = try SystemCall.open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
        let text = Array("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8)
        try text.withUnsafeBytes { try SystemCall.writeAll(fd, $0) }
        try SystemCall.synchronize(fd)
        try SystemCall.close(fd)
        let again = #expect(throws: SystemCallError.self) { _ = try SystemCall.open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode: 0o600) }
        #expect(again?.errno == EEXIST)
        try SystemCall.rename(temporary, to: target)
        #expect(FileManager.default.contents(atPath: target) == Data(text))
        // A descriptor that is none: EBADF, typed. (Not `fd` closed above: tests
        // run in parallel, and another one's open may already have been given
        // its number again — CI once saw fsync succeed on it.)
        #expect(throws: SystemCallError(call: "fsync", errno: EBADF)) { try SystemCall.synchronize(-1) }
        try SystemCall.unlink(target)
        #expect(throws: SystemCallError(call: "unlink", errno: ENOENT)) { try SystemCall.unlink(target) }
    }

    @Test("a folder locked through one descriptor is busy through another until unlocked")
    func locks() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try SystemCall.open(dir.path, O_RDONLY | O_DIRECTORY)
        let second = try SystemCall.open(dir.path, O_RDONLY | O_DIRECTORY)
        defer { try? SystemCall.close(first); try? SystemCall.close(second) }
        #expect(try SystemCall.lockExclusively(first, wait: false))
        #expect(try SystemCall.lockExclusively(second, wait: false) == false)
        try SystemCall.unlock(first)
        #expect(try SystemCall.lockExclusively(second, wait: false))
    }
}
