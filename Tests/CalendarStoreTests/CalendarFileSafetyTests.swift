import CalendarCore
import Foundation
@testable import CalendarStore
import ICalendarKit
import Testing
import _CalendarTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 28, items 7, 10 and 17: what a change does to the file it saves —
/// a read-only file is refused, a link is written through, and the
/// temporary files of a killed process are cleared.
@Suite("A calendar file keeps its promises where it lives")
struct CalendarFileSafetyTests {
    private func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("horari-safety-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func item(_ uid: String, day: Int = 0) -> CalendarItem {
        CalendarItem(uid: uid, title: uid.capitalized, start: .date(LocalDate(dayNumber: 20_500 + day)))
    }

    private func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) ?? -1
    }

    private func hidden(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }.sorted()
    }

    /// A process ID no process has: that of a child that has finished.
    private func deadPID() throws -> pid_t { try deadProcessID() }

    // MARK: Item 7: a read-only file

    /// A file marked read-only for everyone is read-only for root too (the
    /// tests run as root in CI, whom `access` never refuses).
    @Test("a file with no write permission bit is refused, and left byte for byte with its mode", arguments: [0o444, 0o400, 0o440])
    func readOnlyFile(_ readOnly: Int) throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("gym.ics")
        try CalendarFile.update(url) { $0.items.append(item("a")) }
        try FileManager.default.setAttributes([.posixPermissions: readOnly], ofItemAtPath: url.path)
        let before = try Data(contentsOf: url)
        let inode = try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int

        let update = #expect(throws: ICalendarError.self) { try CalendarFile.update(url) { $0.items.append(item("b", day: 1)) } }
        #expect(update?.code == .io)
        #expect(update?.message == "\(url.path) is read-only (mode \(String(readOnly, radix: 8)): no one may write it), so it was not changed; to change it, make it writable (chmod u+w \(url.path))")
        let save = #expect(throws: ICalendarError.self) { try CalendarFile.save(ICalendar(), to: url) }
        #expect(save?.message.contains("is read-only") == true)
        let splice = #expect(throws: ICalendarError.self) {
            _ = try CalendarFile.splice(url, indexing: ["UID"]) { _ in ((), ICalendarSplice()) }
        }
        #expect(splice?.message.contains("is read-only") == true)

        #expect(try Data(contentsOf: url) == before)
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int == inode, "the file was replaced")
        #expect(try mode(url) == readOnly)
        #expect(try hidden(folder).isEmpty, "a temporary file was left")
        // Writable again, the same change is made.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        try CalendarFile.update(url) { $0.items.append(item("b", day: 1)) }
        #expect(try CalendarFile.load(url).calendar.items.map(\.uid) == ["a", "b"])
    }

    @Test("a damaged read-only file forced to change is refused before its copy is kept")
    func readOnlyDamagedFile() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("gym.ics")
        try Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20260302T100000Z\r\n".utf8).write(to: url)
        chmod(url.path, 0o444)
        #expect(throws: ICalendarError.self) {
            try CalendarFile.update(url, exporterFor: { _ in ICalendarExporter() }, ifDamaged: .keepCopy { _ in }, { _ in })
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["gym.ics"])
    }

    // MARK: Item 10: a link

    @Test("a change through a link is written to the file it leads to, beside it, and the link stays", arguments: [true, false])
    func throughALink(relative: Bool) throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let real = root.appendingPathComponent("real"), link = root.appendingPathComponent("link")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: link, withIntermediateDirectories: true)
        let target = real.appendingPathComponent("gym.ics"), linked = link.appendingPathComponent("gym.ics")
        try CalendarFile.update(target) { $0.items.append(item("a")) }
        chmod(target.path, 0o600)
        let destination = relative ? "../real/gym.ics" : target.path
        try FileManager.default.createSymbolicLink(atPath: linked.path, withDestinationPath: destination)

        try CalendarFile.update(linked) { $0.items.append(item("b", day: 1)) }
        try CalendarFile.save(try CalendarFile.load(linked).calendar, to: linked, exporter: ICalendarExporter(options: .init(includeRejected: true)))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: linked.path) == destination, "the link was replaced")
        #expect(try CalendarFile.load(target).calendar.items.map(\.uid) == ["a", "b"])
        #expect(try mode(target) == 0o600, "the calendar keeps its mode")
        #expect(try hidden(link).isEmpty && hidden(real).isEmpty, "a temporary file was left")
        // A splice (a booking's write) goes through too.
        let spliced = try CalendarFile.splice(linked, indexing: ["UID"]) { outline -> (result: Bool, splice: ICalendarSplice)? in
            var splice = ICalendarSplice()
            for component in outline.components where component.value("UID") == "a" { splice.remove(component) }
            return (true, splice)
        }
        #expect(spliced == true)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: linked.path) == destination)
        #expect(try CalendarFile.load(target).calendar.items.map(\.uid) == ["b"])
        // A read-only target is refused through its link, naming both.
        chmod(target.path, 0o444)
        let refused = #expect(throws: ICalendarError.self) { try CalendarFile.update(linked) { $0.items.removeAll() } }
        #expect(refused?.message.hasPrefix("\(linked.path) (a link to \(target.resolvingSymlinksInPath().path)) is read-only") == true, "\(refused?.message ?? "")")
    }

    @Test("a chain of links is followed to its end; a link to no file yet makes that file; a loop of links is refused")
    func linkChains() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let end = root.appendingPathComponent("end.ics")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("middle.ics").path, withDestinationPath: "end.ics")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("start.ics").path, withDestinationPath: "middle.ics")
        try CalendarFile.update(root.appendingPathComponent("start.ics")) { $0.items.append(item("a")) }
        #expect(try CalendarFile.load(end).calendar.items.map(\.uid) == ["a"], "the dangling chain's end was made")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: root.appendingPathComponent("start.ics").path) == "middle.ics")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: root.appendingPathComponent("middle.ics").path) == "end.ics")

        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("loop-a.ics").path, withDestinationPath: "loop-b.ics")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("loop-b.ics").path, withDestinationPath: "loop-a.ics")
        let loop = #expect(throws: ICalendarError.self) { try CalendarFile.update(root.appendingPathComponent("loop-a.ics")) { $0.items.append(item("b")) } }
        #expect(loop?.code == .io)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: root.appendingPathComponent("loop-a.ics").path) == "loop-b.ics")
    }

    /// The change takes the lock of the folder the file is in, so a change
    /// through the link and one through the file's own path take turns.
    @Test("a change through a link waits for the lock of the target's folder")
    func linkTakesTheTargetsLock() async throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let real = root.appendingPathComponent("real"), link = root.appendingPathComponent("link")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: link, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link.appendingPathComponent("gym.ics").path, withDestinationPath: "../real/gym.ics")
        let lock = try CalendarFile.FolderLock(real, whileWaiting: nil)
        let waited = Locked(false)
        let change = Task.detached {
            try CalendarFile.update(link.appendingPathComponent("gym.ics"), exporterFor: { _ in ICalendarExporter() }, whileWaiting: { waited.withLock { $0 = true } }) {
                $0.items.append(CalendarItem(uid: "a", title: "A", start: .date(LocalDate(dayNumber: 20_500))))
            }
        }
        for _ in 0..<100 where !waited.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(50)) }
        #expect(waited.withLock { $0 }, "the change did not wait for the target folder's lock")
        #expect(!FileManager.default.fileExists(atPath: real.appendingPathComponent("gym.ics").path))
        lock.release()
        try await change.value
        #expect(try CalendarFile.load(real.appendingPathComponent("gym.ics")).calendar.items.map(\.uid) == ["a"])
    }

    // MARK: Item 17: a killed process's temporary files

    @Test("the next change removes the calendar's temporary files whose process is gone, and nothing else")
    func staleTemporaries() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("gym.ics")
        try CalendarFile.update(url) { $0.items.append(item("a")) }
        let dead = try deadPID(), live = getpid()
        let stale = [".gym.ics.\(dead).1234.tmp", ".gym.ics.\(dead).0.tmp"]
        let kept = [
            ".gym.ics.\(live).77.tmp",          // a save under way in a live process
            ".other.ics.\(dead).1.tmp",         // another calendar's
            ".gym.ics.\(dead).x.tmp",           // not the form we write
            ".gym.ics.+\(dead).1.tmp",
            ".gym.ics.\(dead).tmp",
            ".gym.ics.bak",
            "gym.ics.\(dead).1.tmp",            // not hidden: someone's own file
        ]
        for name in stale + kept { try Data("BEGIN:VCALENDAR\r\n".utf8).write(to: folder.appendingPathComponent(name)) }
        try CalendarFile.update(url) { $0.items.append(item("b", day: 1)) }
        #expect(try hidden(folder) == kept.filter { $0.hasPrefix(".") }.sorted())
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("gym.ics.\(dead).1.tmp").path))
        #expect(try CalendarFile.load(url).calendar.items.map(\.uid) == ["a", "b"])
    }

    @Test("a name with dots in it is parsed from the end; only a whole calendar's name matches")
    func staleTemporaryNames() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dead = try deadPID()
        let names = [".my.gym.ics.\(dead).5.tmp", ".gym.ics.\(dead).5.tmp", ".my.gym.ics.\(dead).5.6.tmp"]
        for name in names { try Data().write(to: folder.appendingPathComponent(name)) }
        CalendarFile.removeStaleTemporaries(in: folder) { $0 == "my.gym.ics" }
        #expect(try hidden(folder) == [".gym.ics.\(dead).5.tmp", ".my.gym.ics.\(dead).5.6.tmp"])
    }
}
