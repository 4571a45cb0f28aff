import CalendarCore
import CalendarStore
import Foundation
import ICalendarKit
import Testing

/// A calendar file changed by several at once, and its mode.
@Suite("Calendar files")
struct CalendarFileTests {
    @Test("Calendar files: concurrent updates under the lock lose nothing, and no temporary file is left")
    func calendarFiles() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("horari-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("cal.ics")
        await withTaskGroup(of: Void.self) { group in
            for n in 0..<16 {
                group.addTask {
                    _ = try? CalendarFile.update(url) { cal in
                        cal.items.append(CalendarItem(uid: "item-\(n)", title: "Item \(n)", start: .date(LocalDate(dayNumber: 20_500 + n))))
                    }
                }
            }
        }
        let loaded = try CalendarFile.load(url)
        #expect(Set(loaded.calendar.items.map(\.uid)) == Set((0..<16).map { "item-\($0)" }))
        #expect(loaded.diagnostics.isEmpty)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test("Calendar files: a save keeps the file's mode (a private calendar stays private); a new one is at most rw-r--r--")
    func calendarFileMode() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("horari-mode-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("cal.ics")
        func mode() throws -> Int { (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) ?? -1 }
        try CalendarFile.update(url) { cal in cal.items.append(CalendarItem(uid: "a", title: "A", start: .date(LocalDate(dayNumber: 20_500)))) }
        #expect(try mode() & ~0o644 == 0, "a new calendar is at most rw-r--r--")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        try CalendarFile.update(url) { cal in cal.items.append(CalendarItem(uid: "b", title: "B", start: .date(LocalDate(dayNumber: 20_501)))) }
        #expect(try mode() == 0o600)
        #expect(try CalendarFile.load(url).calendar.items.count == 2)
    }
}
