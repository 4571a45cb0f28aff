import CalendarCore
import CalendarScheduling
import CalendarStore
import Foundation
import ICalendarKit
import SchedulingICalendar
import Testing
import _SchedulingTestSupport

/// Issue 44, 7: the gym's own address, kept once with the book in every
/// store, is the sender of a class's messages when a change names none.
@Suite("The gym's address kept with the book")
struct GymAddressTests {
    static let now = { @Sendable (_: String) throws -> Date in try Gym.now("2026-11-20 10:00") }

    @Test("an address is set whole or refused with the field and a reason, leaving the book as it was")
    func setOrRefused() throws {
        var book = try Gym.book()
        #expect(book.gymAddress == nil)
        let refused: [(String, String, SchedulingError.Field)] = [
            ("", "desk@gym.example", .name), ("Gimnàs\nSants", "desk@gym.example", .name), ("Gimnàs Sants", "", .email),
            ("Gimnàs Sants", "desk", .email), ("Gimnàs Sants", "Desk <desk@gym.example>", .email), ("Gimnàs Sants", "desk@gym.example\r\nBcc: x@evil.example", .email),
            // A second address typed into the name, and a quote the calendar's CN cannot keep.
            ("Gym <desk@gym.example>, Other", "o@x.example", .name), ("Gym \"Best\"", "desk@gym.example", .name),
        ]
        for (name, email, field) in refused {
            let error = refusal { try book.setGymAddress(name: name, email: email) }
            guard case .invalid(let got, let reason)? = error else { Issue.record("\(name.debugDescription) \(email.debugDescription): \(String(describing: error))"); continue }
            #expect(got == field && reason.contains("gym"), "\(reason)")
            #expect(book.gymAddress == nil)
        }
        try book.setGymAddress(name: "Gimnàs Sants", email: "desk@gym.example")
        #expect(book.gymAddress == SchedulingNotice.Person(id: "gym", name: "Gimnàs Sants", email: "desk@gym.example"))
        let plain = try Gym.book()
        #expect(book != plain, "an address set is a change the store writes")
        book.removeGymAddress()
        #expect(book.gymAddress == nil && book == plain)
    }

    @Test("the JSON form and a calendar keep it (X-HORARI-GYM-ADDRESS;CN=…:mailto:…) and read it back equal; a value written by hand is read as it is, not refused, so the book stays readable")
    func keptInEveryForm() throws {
        var book = try Gym.book()
        let name = "Gimnàs Sants; Sala: 1, Barcelona"
        try book.setGymAddress(name: name, email: "desk@gym.example")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try encoder.encode(book)
        #expect(String(decoding: json, as: UTF8.self).contains("\"gymAddress\":{\"email\":\"desk@gym.example\",\"name\":\"\(name)\"}"))
        let decoded = try JSONDecoder().decode(SchedulingBook.self, from: json)
        #expect(decoded.gymAddress == book.gymAddress && decoded == book)
        let bad = String(decoding: json, as: UTF8.self).replacingOccurrences(of: "\"desk@gym.example\"", with: "\"\"")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SchedulingBook.self, from: Data(bad.utf8)) }

        var calendar = ICalendar(items: [])
        calendar.setScheduling(book)
        let text = ICalendarExporter().export(calendar).replacingOccurrences(of: "\r\n ", with: "")  // unfolded
        let line = try #require(text.components(separatedBy: "\r\n").first { $0.hasPrefix("X-HORARI-GYM-ADDRESS") })
        #expect(line == "X-HORARI-GYM-ADDRESS;CN=\"\(name)\":mailto:desk@gym.example", "\(line)")
        let read = try ICalendarImporter().importCalendar(from: text).calendar.schedulingBook()
        #expect(read.gymAddress == book.gymAddress, "\(String(describing: read.gymAddress))")
        // Not an ORGANIZER on the classes, which a scheduling server would act on.
        #expect(!text.contains("ORGANIZER;CN=\"Gimnàs") && !text.contains("ORGANIZER:mailto:desk@"), "\(text.prefix(400))")
        // The public timetable does not carry the book's own properties.
        #expect(!ICalendarExporter().export(try ICalendar(book, for: .publicTimetable)).contains("X-HORARI-GYM-ADDRESS"))

        // Written by hand: without mailto:, without a CN, not an address at all, or empty.
        func readBack(_ line: String) throws -> SchedulingNotice.Person? {
            let edited = text.replacingOccurrences(of: "X-HORARI-GYM-ADDRESS;CN=\"\(name)\":mailto:desk@gym.example", with: line)
            return try ICalendarImporter().importCalendar(from: edited).calendar.schedulingBook().gymAddress
        }
        #expect(try readBack("X-HORARI-GYM-ADDRESS;CN=Desk:desk@gym.example")?.email == "desk@gym.example")
        #expect(try readBack("X-HORARI-GYM-ADDRESS:MAILTO:desk@gym.example") == SchedulingNotice.Person(id: "gym", name: "desk@gym.example", email: "desk@gym.example"))
        #expect(try readBack("X-HORARI-GYM-ADDRESS;CN=Desk:desk")?.email == "desk", "kept as written; a message is refused from it, not the book")
        #expect(try readBack("X-HORARI-GYM-ADDRESS;CN=Desk:mailto:") == nil)
    }

    @Test("set through one desk, another desk reads it; a class change told with no sender named owes its messages from it, a change of one occurrence too",
          arguments: ["file", "folder", "sqlite"])
    func fromTheStore(_ kind: String) async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("horari-gym-address-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let location: CalendarLocation = switch kind {
        case "file": .file(scratch.appendingPathComponent("gym.ics"))
        case "folder": .folder(scratch.appendingPathComponent("gym"))
        default: try CalendarLocation(scratch.appendingPathComponent("gym.sqlite").path)
        }
        if kind == "folder" { try FileManager.default.createDirectory(at: scratch.appendingPathComponent("gym"), withIntermediateDirectories: true) }
        func desk() -> SchedulingStore {
            SchedulingStore(CalendarStore(location), settings: SchedulingStore.Settings(now: Self.now, newCalendarZone: Gym.zone))
        }
        try await desk().change { book in
            book = try Gym.book()
            try book.setGymAddress(name: "Gimnàs Sants", email: "desk@gym.example")
        }
        let gym = try await desk().load().gymAddress
        #expect(gym == SchedulingNotice.Person(id: "gym", name: "Gimnàs Sants", email: "desk@gym.example"))
        let monday = try Gym.day("2026-11-23")
        let told = try await desk().changeTelling { book in try book.book(member: "marta", classID: "yoga", on: monday, now: try Self.now("")) }
        #expect(told.gym == gym)
        let owed = try await desk().owedMessages()
        #expect(owed.count == 1 && owed.first?.gym == gym, "\(owed.map(\.gym))")
        let mail = try #require(try owed.first?.notice.email(timeZone: try .named(Gym.zone), gym: owed.first?.gym, date: try Self.now("")))
        #expect(mail.from == IMIPMessage.Mailbox(name: "Gimnàs Sants", email: "desk@gym.example"))
        // A change of one occurrence (the records it touches, in a database).
        let one = try await desk().changeOccurrenceTelling(of: "yoga", on: monday, members: ["nuria"]) { book in
            try book.book(member: "nuria", classID: "yoga", on: monday, now: try Self.now(""))
        }
        #expect(one.gym == gym && one.notices.notices.count == 1)
        #expect(try await desk().owedMessages().last?.gym == gym)
        // A sender named with the change stands over the one kept.
        let front = SchedulingNotice.Person(id: "gym", name: "Front Desk", email: "front@gym.example")
        _ = try await desk().changeTelling(gym: front) { book in try book.book(member: "oriol", classID: "yoga", on: monday, now: try Self.now("")) }
        #expect(try await desk().owedMessages().last?.gym == front)
        _ = try await desk().deliver { _ in }
        // Forgotten through a desk, gone for every other.
        try await desk().change { $0.removeGymAddress() }
        #expect(try await desk().load().gymAddress == nil)
    }
}

extension GymAddressTests {
    @Test("a BookStore an app runs on its own backend owes a class's messages from the kept address too")
    func onABookStore() async throws {
        let store = BookStore(MemoryBookStorage(), newBookZone: Gym.zone, now: Self.now)
        try await store.change { book in
            book = try Gym.book()
            try book.setGymAddress(name: "Gimnàs Sants", email: "desk@gym.example")
        }
        let monday = try Gym.day("2026-11-23")
        _ = try await store.changeTelling(gym: nil) { book in try book.book(member: "marta", classID: "yoga", on: monday, now: try Self.now("")) }
        #expect(try await store.owed().map(\.gym?.email) == ["desk@gym.example"])
    }
}
