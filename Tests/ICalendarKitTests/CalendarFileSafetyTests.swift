import CalendarCore
import Foundation
@testable import ICalendarKit
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 28, item 10: what a change does to the file it saves — a link is
/// written through.
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
}
