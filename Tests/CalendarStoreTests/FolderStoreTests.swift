import CalendarCore
@testable import CalendarStore
import Foundation
import ICalendarKit
import SchedulingICalendar
import Testing
import _CalendarTestSupport

@Suite("A calendar in a folder of one .ics per UID")
struct FolderStoreTests {
    private func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("horari-vdir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func event(_ uid: String, _ title: String, day: Int) throws -> CalendarItem {
        CalendarItem(uid: uid, title: title, start: .zoned(try LocalDateTime(year: 2026, month: 11, day: day, hour: 18), "Europe/Madrid"),
                     end: .duration(.init(seconds: 3600)), timestamp: .utc(try LocalDateTime(year: 2026, month: 11, day: 1)))
    }

    /// A calendar of one event per UID, each with its UID as title.
    private func calendar(_ uids: [String]) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Horari tests//EN\r\n"
            + uids.map { "BEGIN:VEVENT\r\nUID:\($0)\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:20261123T100000Z\r\nSUMMARY:\($0)\r\nEND:VEVENT\r\n" }.joined()
            + "END:VCALENDAR\r\n"
    }

    private func names(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test("SHA-256 gives FIPS 180-4's digests")
    func sha256() {
        #expect(Digest.sha256Hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Digest.sha256Hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Digest.sha256Hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Digest.sha256Hex([UInt8](repeating: 0x61, count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Issue 21: a UID is never used as a path as it stands.
    @Test("a UID names a file inside the folder, however it is written", arguments: [
        "../../etc/x", "a/b", "a%2Fb", "a%2fb", "nul\u{0}byte", String(repeating: "x", count: 10_000), ".hidden", "..", "with space", "yoga",
    ])
    func safeNames(uid: String) async throws {
        let name = ResourceName.forUID(uid)
        #expect(!name.contains("/") && !name.contains("\u{0}") && !name.contains("%") && !name.hasPrefix(".") && name.utf8.count <= 240)
        #expect(name.hasSuffix(".ics"))
        #expect(uid != "yoga" || name == "yoga.ics", "a plain UID names its file as other clients do")
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CalendarStore(.folder(folder))
        try await store.update { calendar in calendar.items.append(try event(uid, "Hostile", day: 23)) }
        #expect(try names(folder) == [name])
        // (The importer takes control characters out of every line: RFC 5545 allows none but the tab.)
        #expect(try await store.load().calendar.items.map(\.uid) == [uid.replacingOccurrences(of: "\u{0}", with: "")])
    }

    /// Issue 28, item 14: a resource with bare-CR line ends was one line
    /// (`BEGIN:VCALENDARVERSION:2.0…`), read as an unknown component.
    @Test("a resource with CR-only line ends (classic Mac OS) is read as lines, and a change elsewhere leaves it as it is")
    func crOnlyResource() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mac = Array(("BEGIN:VCALENDAR\rVERSION:2.0\rPRODID:-//Old Mac//EN\rBEGIN:VEVENT\rUID:old-mac\rDTSTAMP:19990101T000000Z\r"
            + "DTSTART:20261124T090000Z\rSUMMARY:Saved in 1999\rEND:VEVENT\rEND:VCALENDAR\r").utf8)
        try Data(mac).write(to: folder.appendingPathComponent("old-mac.ics"))
        let store = CalendarStore(.folder(folder))
        let read = try await store.load()
        #expect(read.diagnostics.isEmpty, "\(read.diagnostics)")
        #expect(read.calendar.components.isEmpty)
        #expect(read.calendar.items.map(\.title) == ["Saved in 1999"])
        try await store.update { calendar in calendar.items.append(try event("yoga", "Yoga", day: 23)) }
        #expect(try Array(Data(contentsOf: folder.appendingPathComponent("old-mac.ics"))) == mac)
        #expect(try await store.load().calendar.items.map(\.uid).sorted() == ["old-mac", "yoga"])
    }

    @Test("one file per UID; a change writes only the files it changes; the calendar's properties in their journal")
    func oneFilePerUID() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CalendarStore(.folder(folder))
        try await store.update { calendar in
            calendar.name = "Gimnàs Sants"
            calendar.properties = [ContentLine(name: "X-HORARI-TIMEZONE", value: "Europe/Madrid")]
            calendar.items = [try event("yoga", "Yoga", day: 23), try event("spin", "Spinning", day: 27)]
        }
        #expect(try names(folder) == ["horari-calendar.ics", "spin.ics", "yoga.ics"])
        let spin = try Data(contentsOf: folder.appendingPathComponent("spin.ics"))
        let spinDate = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("spin.ics").path)[.modificationDate] as? Date
        try await Task.sleep(nanoseconds: 50_000_000)
        try await store.update { calendar in
            if let i = calendar.items.firstIndex(where: { $0.uid == "yoga" }) { calendar.items[i].title = "Yoga flow" }
        }
        #expect(try Data(contentsOf: folder.appendingPathComponent("spin.ics")) == spin)
        #expect(try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("spin.ics").path)[.modificationDate] as? Date == spinDate, "spin.ics was not written")
        let loaded = try await store.load().calendar
        #expect(loaded.name == "Gimnàs Sants")
        #expect(loaded.calendarZone(namedBy: ICalendar.bookZoneProperties) == "Europe/Madrid")
        #expect(loaded.items.map(\.title).sorted() == ["Spinning", "Yoga flow"])
        // khal reads the folder as a calendar of its own events: each file is a whole VCALENDAR with its zone.
        let yoga = try String(contentsOf: folder.appendingPathComponent("yoga.ics"), encoding: .utf8)
        #expect(yoga.hasPrefix("BEGIN:VCALENDAR\r\n") && yoga.contains("BEGIN:VTIMEZONE\r\nTZID:Europe/Madrid\r\n") && yoga.hasSuffix("END:VCALENDAR\r\n"))
        // A removed item's file goes.
        try await store.update { calendar in calendar.items.removeAll { $0.uid == "spin" } }
        #expect(try names(folder) == ["horari-calendar.ics", "yoga.ics"])
    }

    @Test("a change of several files killed after its first is finished by the next read, from its journal; a journal Horari did not write is read past and refused by a change, nothing written")
    func journalledChange() async throws {
        let scratch = try scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (folder, whole) = (scratch.appendingPathComponent("gym"), scratch.appendingPathComponent("whole"))
        let store = CalendarStore(.folder(folder))
        try await store.update { calendar in calendar.items = [try event("yoga", "Yoga", day: 23), try event("spin", "Spinning", day: 27)] }
        try FileManager.default.copyItem(at: folder, to: whole)
        // The change made whole elsewhere: what a killed process had journalled.
        try await CalendarStore(.folder(whole)).update { calendar in
            if let yoga = calendar.items.firstIndex(where: { $0.uid == "yoga" }) { calendar.items[yoga].title = "Yoga flow" }
            calendar.items.removeAll { $0.uid == "spin" }
            calendar.items.append(try event("pilates", "Pilates", day: 26))
        }
        let entries = ["yoga.ics", "spin.ics", "pilates.ics"].map { name in
            FolderStore.JournalledChange.Entry(name: name, bytes: FileManager.default.contents(atPath: whole.appendingPathComponent(name).path))
        }
        #expect(entries.map { $0.bytes == nil } == [false, true, false])
        let journal = folder.appendingPathComponent(FolderStore.journalName)
        try JSONEncoder().encode(FolderStore.JournalledChange(entries: entries)).write(to: journal)
        try #require(entries[0].bytes).write(to: folder.appendingPathComponent("yoga.ics"))  // killed after its first file
        let read = try await store.load().calendar
        #expect(read.items.map(\.title).sorted() == ["Pilates", "Yoga flow"])
        #expect(try names(folder) == names(whole) && !FileManager.default.fileExists(atPath: journal.path))

        // Not Horari's journal: a name outside the folder is never written.
        let outside = scratch.appendingPathComponent("evil.ics")
        try JSONEncoder().encode(FolderStore.JournalledChange(entries: [.init(name: "../evil.ics", bytes: Data("x".utf8)), .init(name: "yoga.ics", bytes: nil)])).write(to: journal)
        // A read shows the folder as it is; a change is refused, saying why.
        #expect(try await store.load().calendar.items.map(\.title).sorted() == ["Pilates", "Yoga flow"])
        do {
            try await store.update { _ in }
            Issue.record("a foreign journal was taken")
        } catch {
            #expect("\(error)".contains("is not the journal of a change Horari made; nothing was changed"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: outside.path) && FileManager.default.fileExists(atPath: folder.appendingPathComponent("yoga.ics").path))
    }

    @Test("an empty folder, or one with vdirsyncer's metadata, is an empty calendar; a folder of other things and no .ics is refused, read or changed, and left as it was")
    func folderOfOtherThings() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try await CalendarStore(.folder(folder)).load().calendar.items.isEmpty)
        try Data("Gym".utf8).write(to: folder.appendingPathComponent("displayname"))
        #expect(try await CalendarStore(.folder(folder)).load().calendar.items.isEmpty)
        try Data("buy mats\n".utf8).write(to: folder.appendingPathComponent("todo.txt"))
        let store = CalendarStore(.folder(folder))
        let read = await failure { _ = try await store.load() }
        #expect(read?.code == .notACalendar)
        #expect(read?.description.contains("holds no .ics file but 1 other entry (such as ‘todo.txt’)") == true)
        let change = await failure {
            try await store.update { calendar in calendar.items = [try event("yoga", "Yoga", day: 23)] }
        }
        #expect(change?.code == .notACalendar)
        #expect(try names(folder) == ["displayname", "todo.txt"])
    }

    /// One event in `zone`, with a `VTIMEZONE` of that name whose rules begin in `onset`.
    private func zoned(_ uid: String, _ zone: String, onset: Int, offset: String = "+0100") -> Data {
        Data("""
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//Test//EN\r
            BEGIN:VTIMEZONE\r
            TZID:\(zone)\r
            BEGIN:STANDARD\r
            DTSTART:\(onset)1026T030000\r
            TZOFFSETFROM:\(offset)\r
            TZOFFSETTO:\(offset)\r
            RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r
            END:STANDARD\r
            END:VTIMEZONE\r
            BEGIN:VEVENT\r
            UID:\(uid)\r
            DTSTAMP:20260101T000000Z\r
            DTSTART;TZID=\(zone):\(onset)0715T190000\r
            DURATION:PT1H\r
            SUMMARY:\(uid)\r
            END:VEVENT\r
            END:VCALENDAR\r

            """.utf8)
    }

    @Test("resources that define an IANA zone from different years read together and say nothing; a custom zone defined two ways is said")
    func zoneDefinitions() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try zoned("yoga", "Europe/Madrid", onset: 2026).write(to: folder.appendingPathComponent("yoga.ics"))
        try zoned("yoga@2019", "Europe/Madrid", onset: 2019).write(to: folder.appendingPathComponent("yoga@2019.ics"))
        let read = try await CalendarStore(.folder(folder)).load()
        #expect(read.diagnostics.isEmpty, "\(read.diagnostics)")
        // July in Madrid is CEST (+02:00) in either year, from the tz database, whatever the definitions say.
        let starts = try read.calendar.items.sorted { $0.uid < $1.uid }.map { try $0.start.instant(floatingZone: .utc) }
        #expect(starts.map(\.timeIntervalSince1970) == [1_784_134_800, 1_563_210_000])
        try zoned("a", "My Office", onset: 2020).write(to: folder.appendingPathComponent("office-a.ics"))
        try zoned("b", "My Office", onset: 2020, offset: "+0300").write(to: folder.appendingPathComponent("office-b.ics"))
        let again = try await CalendarStore(.folder(folder)).load()
        #expect(again.diagnostics.map(\.message) == ["office-b.ics defines the zone ‘My Office’ otherwise than another resource; its times are read with the first definition read"])
    }

    /// A folder another program wrote: an event with a changed instance in
    /// one file (one UID), a file that is not iCalendar. Nothing of it is
    /// lost by a change.
    @Test("another program's files keep their names and what else they hold")
    func foreignFiles() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let series = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//khal//EN\r\n"
            + "BEGIN:VEVENT\r\nUID:a\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:20261123T100000Z\r\nRRULE:FREQ=DAILY;COUNT=3\r\nSUMMARY:A\r\nEND:VEVENT\r\n"
            + "BEGIN:VEVENT\r\nUID:a\r\nDTSTAMP:20261101T000000Z\r\nRECURRENCE-ID:20261124T100000Z\r\nDTSTART:20261124T120000Z\r\nSUMMARY:A, later\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        try Data(series.utf8).write(to: folder.appendingPathComponent("series.ics"))
        try Data("not a calendar".utf8).write(to: folder.appendingPathComponent("notes.ics"))
        let one = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//khal//EN\r\n"
            + "BEGIN:VEVENT\r\nUID:c\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:20261123T100000Z\r\nSUMMARY:C\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        try Data(one.utf8).write(to: folder.appendingPathComponent("c.ics"))
        let store = CalendarStore(.folder(folder))
        let read = try await store.load()
        #expect(read.calendar.items.map(\.uid) == ["c", "a"])
        #expect(read.diagnostics.contains { $0.message.hasPrefix("notes.ics: ") })
        try await store.update { calendar in
            if let i = calendar.items.firstIndex(where: { $0.uid == "a" }) { calendar.items[i].title = "A, renamed" }
        }
        #expect(try names(folder) == ["c.ics", "notes.ics", "series.ics"])
        let after = try await store.load().calendar
        #expect(after.items.map(\.title) == ["C", "A, renamed"])
        #expect(after.item(uid: "a")?.overrides.count == 1)
        #expect(try String(contentsOf: folder.appendingPathComponent("notes.ics"), encoding: .utf8) == "not a calendar")
    }

    /// Issue 41, 16: one whole calendar among one-event files was read as
    /// part of the folder; two were refused. Any file of several UIDs now
    /// refuses it, naming the file and how to bring its events in.
    @Test("a whole calendar beside one-event files: the folder is refused, read or changed, and left as it was; moved out and imported, each event gets its file")
    func wholeCalendarAmongEvents() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(calendar(["a"]).utf8).write(to: folder.appendingPathComponent("a.ics"))
        try Data(calendar(["b"]).utf8).write(to: folder.appendingPathComponent("b.ics"))
        try Data(calendar(["g1", "g2", "g3"]).utf8).write(to: folder.appendingPathComponent("gym.ics"))
        let store = CalendarStore(.folder(folder))
        let read = await failure { _ = try await store.load() }
        #expect(read?.code == .notACalendar)
        #expect(read?.description.contains("of 2 files of one event or task each, and also holds a whole calendar (gym.ics: 3 UIDs)") == true, "\(read?.description ?? "")")
        #expect(read?.description.contains("horari import gym.ics --into") == true, "\(read?.description ?? "")")
        #expect(await failure { try await store.update { calendar in calendar.items.append(try event("new", "New", day: 24)) } } != nil)
        #expect(try names(folder) == ["a.ics", "b.ics", "gym.ics"])
        // What the error says to do: move it out, import it in.
        let outside = folder.deletingLastPathComponent().appendingPathComponent("gym-\(UUID().uuidString).ics")
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.moveItem(at: folder.appendingPathComponent("gym.ics"), to: outside)
        let gym = try ICalendarImporter().importCalendar(from: Data(contentsOf: outside)).calendar
        try await store.update { calendar in _ = calendar.merge(gym) }
        #expect(try await store.load().calendar.items.map(\.uid).sorted() == ["a", "b", "g1", "g2", "g3"])
        #expect(try names(folder).count == 5)
    }

    /// Issue 28, 8: `--calendar somedir` on a folder of whole calendars
    /// merged them without a word, and `add` wrote a new file among them.
    @Test("a folder of whole calendars (gym.ics, club.ics) is not a calendar folder: refused, read or changed, and left as it was")
    func wholeCalendars() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(calendar(["g1", "g2", "g3"]).utf8).write(to: folder.appendingPathComponent("gym.ics"))
        try Data(calendar(["c1", "c2"]).utf8).write(to: folder.appendingPathComponent("club.ics"))
        let store = CalendarStore(.folder(folder))
        let read = await failure { _ = try await store.load() }
        #expect(read?.code == .notACalendar)
        #expect(read?.description.contains("holds 2 whole calendars (club.ics: 2 UIDs, gym.ics: 3 UIDs)") == true, "\(read?.description ?? "")")
        #expect(await failure { try await store.update { calendar in calendar.items.append(try event("new", "New", day: 24)) } } != nil)
        #expect(try names(folder) == ["club.ics", "gym.ics"])
        // One whole calendar alone in a folder is named, not read as the folder.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("club.ics"))
        #expect((await failure { _ = try await store.load() })?.description.contains("name the file instead") == true)
    }

    @Test("a damaged file refuses a change, byte for byte; forced, the file is kept beside")
    func damaged() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cut = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:20261123T100000Z\r\nSUMMA"
        try Data(cut.utf8).write(to: folder.appendingPathComponent("a.ics"))
        let store = CalendarStore(.folder(folder))
        #expect(await calendarFailure { try await store.update { calendar in calendar.name = "x" } } != nil)
        #expect(try String(contentsOf: folder.appendingPathComponent("a.ics"), encoding: .utf8) == cut)
        try await store.update(ifDamaged: .keepCopy { _ in }) { calendar in calendar.name = "x" }
        #expect(try String(contentsOf: folder.appendingPathComponent("a.ics.damaged"), encoding: .utf8) == cut)
    }

    @Test("processes changing one folder take turns: none loses another's change")
    func concurrentChanges() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CalendarStore(.folder(folder))
        try await store.update { calendar in calendar.name = "Race" }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<16 {
                group.addTask {
                    try await store.update { calendar in calendar.items.append(try event("e\(i)", "Event \(i)", day: 1 + i)) }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.load().calendar.items.count == 16)
        #expect(try names(folder).filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    /// Review of issue 21: a new UID whose own name another program's file
    /// already has gets another name, and that file is not written over.
    @Test("a new item never takes the name of a file that holds another UID")
    func nameTaken() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let theirs = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//khal//EN\r\n"
            + "BEGIN:VEVENT\r\nUID:3F2A-their-standup\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:20261123T090000Z\r\nSUMMARY:Their standup\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        try Data(theirs.utf8).write(to: folder.appendingPathComponent("standup.ics"))
        let store = CalendarStore(.folder(folder))
        try await store.update { calendar in calendar.items.append(try event("standup", "Our standup", day: 24)) }
        #expect(try String(contentsOf: folder.appendingPathComponent("standup.ics"), encoding: .utf8) == theirs)
        #expect(try names(folder).count == 2)
        #expect(try await store.load().calendar.items.map(\.title).sorted() == ["Our standup", "Their standup"])
    }

    /// Review of issue 21: the calendar's properties are one journal, in
    /// whatever file holds it; a file another program wrote keeps its mode.
    @Test("the properties journal is changed where it is; a private file stays private")
    func propertiesWhereTheyAre() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CalendarStore(.folder(folder))
        try await store.update { calendar in
            calendar.name = "Gimnàs"
            calendar.items = [try event("yoga", "Yoga", day: 23)]
        }
        try FileManager.default.moveItem(at: folder.appendingPathComponent("horari-calendar.ics"), to: folder.appendingPathComponent("renamed.ics"))
        chmod(folder.appendingPathComponent("yoga.ics").path, 0o600)
        try await store.update { calendar in
            calendar.name = "Gimnàs Sants"
            if let i = calendar.items.firstIndex(where: { $0.uid == "yoga" }) { calendar.items[i].title = "Yoga flow" }
        }
        #expect(try names(folder) == ["renamed.ics", "yoga.ics"])
        #expect(try await store.load().calendar.name == "Gimnàs Sants")
        let mode = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("yoga.ics").path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    /// Issue 28, item 7: a file of the folder marked read-only is not
    /// replaced, and neither is any other: the change is refused whole.
    @Test("a change that would replace or remove a read-only file of the folder is refused before any file is written")
    func readOnlyFile() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CalendarStore(.folder(folder))
        try await store.update { calendar in calendar.items = [try event("yoga", "Yoga", day: 23), try event("spin", "Spinning", day: 27)] }
        let yoga = folder.appendingPathComponent("yoga.ics"), spin = folder.appendingPathComponent("spin.ics")
        chmod(yoga.path, 0o444)
        let before = try [Data(contentsOf: yoga), Data(contentsOf: spin)]
        for change in [
            { (calendar: inout ICalendar) in for i in calendar.items.indices { calendar.items[i].title += " (moved)" } },
            { (calendar: inout ICalendar) in calendar.items.removeAll() },
        ] {
            let error = await failure { try await store.update(change) }
            #expect(error?.code == .io)
            #expect(error?.message == "\(yoga.path) is read-only (mode 444: no one may write it), so it was not changed; to change it, make it writable (chmod u+w \(yoga.path))")
            #expect(try [Data(contentsOf: yoga), Data(contentsOf: spin)] == before)
            #expect(try names(folder) == ["spin.ics", "yoga.ics"])
        }
        // A change that leaves the read-only file as it is goes on.
        try await store.update { calendar in if let i = calendar.items.firstIndex(where: { $0.uid == "spin" }) { calendar.items[i].title = "Spin" } }
        #expect(try Data(contentsOf: yoga) == before[0])
        #expect(try await store.load().calendar.items.map(\.title).sorted() == ["Spin", "Yoga"])
    }

    /// Issue 28, item 10: a file of the folder that is a link is written
    /// through, and stays a link.
    @Test("a file of the folder that is a link is changed where it leads, and stays a link")
    func linkedFile() async throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("vdir"), elsewhere = root.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = CalendarStore(.folder(elsewhere))
        try await store.update { calendar in calendar.items = [try event("yoga", "Yoga", day: 23)] }
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("yoga.ics").path, withDestinationPath: "../elsewhere/yoga.ics")
        try await CalendarStore(.folder(folder)).update { calendar in calendar.items[0].title = "Yoga flow" }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("yoga.ics").path) == "../elsewhere/yoga.ics")
        #expect(try await store.load().calendar.items.map(\.title) == ["Yoga flow"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }.isEmpty, "a temporary file was left")
    }

    /// Issue 28, item 17: what a killed process left while saving a file of
    /// the folder goes with the next change; a live process's stays.
    @Test("the next change removes the temporary files of the folder's calendars whose process is gone, and nothing else")
    func staleTemporaries() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CalendarStore(.folder(folder))
        try await store.update { calendar in calendar.items = [try event("yoga", "Yoga", day: 23)] }
        let dead = try deadProcessID()
        let stale = [".yoga.ics.\(dead).1.tmp", ".spin.ics.\(dead).2.tmp"]
        let kept = [".yoga.ics.\(getpid()).3.tmp", ".notes.txt.\(dead).4.tmp", ".yoga.ics.\(dead).x.tmp"]
        for name in stale + kept { try Data("BEGIN:VCALENDAR\r\n".utf8).write(to: folder.appendingPathComponent(name)) }
        try await store.update { calendar in calendar.name = "Gimnàs" }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }.sorted() == kept.sorted())
    }
}
