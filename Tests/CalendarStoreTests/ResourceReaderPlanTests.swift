@testable import CalendarStore
import Foundation
import ICalendarKit
import Testing

/// A plan kept in the cache must read exactly as the plan made again from
/// the texts, or not be read at all.
@Suite("How resources are read together, kept and read back")
struct ResourceReaderPlanTests {
    private func calendar(_ body: String, zone: String? = nil, offset: String = "+0100") -> [UInt8] {
        let timeZone = zone.map { """
            BEGIN:VTIMEZONE\r
            TZID:\($0)\r
            BEGIN:STANDARD\r
            DTSTART:19701025T030000\r
            TZOFFSETFROM:\(offset)\r
            TZOFFSETTO:\(offset)\r
            END:STANDARD\r
            END:VTIMEZONE\r

            """ } ?? ""
        return Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\n\(timeZone)\(body)END:VCALENDAR\r\n".utf8)
    }

    private func event(_ uid: String, _ extra: String = "", zone: String? = nil) -> String {
        """
        BEGIN:VEVENT\r
        UID:\(uid)\r
        DTSTAMP:20260101T000000Z\r
        DTSTART\(zone.map { ";TZID=\($0)" } ?? ""):20261123T190000\(zone == nil ? "Z" : "")\r
        DURATION:PT1H\r
        SUMMARY:\(uid)\r
        \(extra)END:VEVENT\r

        """
    }

    /// Sources of every kind the plan decides about: read together (one with
    /// a malformed line, so a diagnostic is mapped back), a UID in two, a
    /// custom zone defined alike and otherwise, an IANA zone, not iCalendar.
    private func sources() -> [ResourceReader.Source] {
        [
            .init(name: "yoga.ics", bytes: calendar(event("yoga", "NOT A LINE\r\n"))),
            .init(name: "spin.ics", bytes: calendar(event("spin", zone: "Europe/Madrid"), zone: "Europe/Madrid")),
            .init(name: "a.ics", bytes: calendar(event("a", zone: "My Office"), zone: "My Office")),
            .init(name: "b.ics", bytes: calendar(event("b", zone: "My Office"), zone: "My Office", offset: "+0300")),
            .init(name: "c.ics", bytes: calendar(event("c", zone: "My Office"), zone: "My Office")),
            .init(name: "twin-1.ics", bytes: calendar(event("twin"))),
            .init(name: "twin-2.ics", bytes: calendar(event("twin", "LOCATION:Hall\r\n"))),
            .init(name: "notes.txt", bytes: Array("not a calendar\n".utf8)),
            .init(name: "pilates ✓.ics", bytes: calendar(event("pilates"))),
        ]
    }

    @Test("a plan read back from its bytes is the plan, and reads as the sources read")
    func roundTrip() throws {
        let sources = sources()
        let options = ImportOptions()
        let plan = ResourceReader.plan(sources, options: options)
        // The fixture reaches every field.
        #expect(plan.alone == [3, 5, 6, 7])
        #expect(plan.notes.count == 2 && plan.zones == ["Europe/Madrid": true, "My Office": false])
        #expect(plan.owners["yoga"] == 0 && plan.owners["twin"] == 6 && plan.origin.contains { $0.source == -1 })
        let bytes = plan.encoded
        let back = try #require(ResourceReader.Plan(encoded: bytes[...]))
        #expect(back == plan)
        #expect(back.encoded == bytes)
        // In the middle of a larger array, as a pack holds it.
        let inside = [0x41, 0x42] + bytes + [0x43]
        #expect(ResourceReader.Plan(encoded: inside[2..<(inside.count - 1)]) == plan)

        let fresh = ResourceReader.read(sources, options: options)
        var asked: [Int] = []
        let kept = ResourceReader.read(back, options: options) { asked.append($0); return sources[$0].bytes }
        #expect(asked == [3, 5, 6, 7])
        #expect(kept.calendar == fresh.calendar && kept.diagnostics == fresh.diagnostics)
        #expect(kept.keys == fresh.keys && kept.damaged == fresh.damaged)
        #expect(kept.diagnostics.contains { $0.message.hasPrefix("yoga.ics: ") && $0.line == 10 })
        #expect(kept.calendar.items.count == 7)
    }

    @Test("libical's checks of the joined text, found clean, are kept with the plan and not run again by this libical; what they found is found each time")
    func libicalVerdict() throws {
        let geo = ResourceReader.Source(name: "talk.ics", bytes: calendar(event("talk", "GEO:abc\r\n")))
        let clean = ResourceReader.plan(sources().filter { $0.name == "yoga.ics" || $0.name == "pilates ✓.ics" }, options: ImportOptions())
        let found = ResourceReader.plan([geo], options: ImportOptions())
        let checked = ResourceReader.read(found, options: ImportOptions()) { _ in nil }
        #if LibICal
        let key = try #require(ResourceReader.Plan.libicalKey(ImportOptions()))
        #expect(key.contains("libical") && key.contains(" \(HorariVersion.current) "))
        #expect(ResourceReader.read(clean, options: ImportOptions()) { _ in nil }.libicalClean == key)
        // What libical finds is not kept: it is found by every read.
        #expect(checked.libicalClean == nil && checked.diagnostics.map(\.code) == [.libicalError])
        #expect(checked.diagnostics.first?.message.hasPrefix("talk.ics: ") == true)
        // A verdict of this libical is taken as it is: a text it was said of is not checked again
        // (shown by one it was not true of); the calendar is the same, as no value comes from libical.
        var forged = found
        forged.libicalClean = key
        let trusted = ResourceReader.read(forged, options: ImportOptions()) { _ in nil }
        #expect(trusted.diagnostics.isEmpty && trusted.calendar == checked.calendar && trusted.libicalClean == key)
        // Another libical's verdict, or none asked for: the checks run, or are not said to have.
        forged.libicalClean = "/usr/lib/libical.so.3.0.9 " + HorariVersion.current
        #expect(ResourceReader.read(forged, options: ImportOptions()) { _ in nil }.diagnostics.map(\.code) == [.libicalError])
        #expect(ResourceReader.read(clean, options: ImportOptions(checksWithLibICal: false)) { _ in nil }.libicalClean == nil)
        // Under other limits libical may have been given other components: the verdict is not taken.
        forged.libicalClean = key
        var tighter = ImportOptions()
        tighter.maxComponentBytes -= 1
        #expect(ResourceReader.read(forged, options: tighter) { _ in nil }.diagnostics.map(\.code) == [.libicalError])
        #else
        #expect(ResourceReader.Plan.libicalKey(ImportOptions()) == nil && checked.libicalClean == nil)
        #expect(ResourceReader.read(clean, options: ImportOptions()) { _ in nil }.libicalClean == nil)
        #endif
        // Kept in the plan's bytes.
        var kept = clean
        kept.libicalClean = "x 1"
        #expect(ResourceReader.Plan(encoded: kept.encoded[...]) == kept)
    }

    @Test("a plan fits only the same names, the same line limit and zones the system still reads alike")
    func fits() {
        let sources = sources()
        let plan = ResourceReader.plan(sources, options: ImportOptions())
        let names = sources.map(\.name)
        #expect(plan.fits(names, options: ImportOptions()))
        #expect(!plan.fits(names.reversed(), options: ImportOptions()))
        #expect(!plan.fits(Array(names.dropLast()), options: ImportOptions()))
        var options = ImportOptions()
        options.maxLineBytes += 1
        #expect(!plan.fits(names, options: options))
        var stale = plan
        stale.zones["My Office"] = true
        #expect(!stale.fits(names, options: ImportOptions()))
        stale = plan
        stale.horari = "0.4.0"
        #expect(!stale.fits(names, options: ImportOptions()))
    }

    @Test("a plan cut short, with more after it, or out of range is none")
    func refused() throws {
        let plan = ResourceReader.plan(sources(), options: ImportOptions())
        let bytes = plan.encoded
        for end in 0..<bytes.count {
            #expect(ResourceReader.Plan(encoded: bytes[..<end]) == nil, "cut at \(end)")
        }
        #expect(ResourceReader.Plan(encoded: (bytes + [0x0A])[...]) == nil)
        // Alone out of order, past the names; a zone read neither way; a source past the names; a number too long.
        let text = String(decoding: bytes, as: UTF8.self)
        for (from, to) in [("4;3;5;6;7;", "4;3;6;5;7;"), ("4;3;5;6;7;", "4;3;5;6;9;"), ("My Office0;", "My Office2;"),
                           ("4:yoga0;", "4:yoga9;"), ("4:yoga0;", "4:yoga-1;")] {
            #expect(text.components(separatedBy: from).count == 2, "\(from) once")
            let changed = Array(text.replacingOccurrences(of: from, with: to).utf8)
            #expect(ResourceReader.Plan(encoded: changed[...]) == nil, "\(from) → \(to)")
        }
        // A number past Int.max; origins that are not as many as the text's lines.
        let long = text.replacingOccurrences(of: "horari read plan 2\n\(plan.maxLineBytes);", with: "horari read plan 2\n99999999999999999999;")
        #expect(long != text && ResourceReader.Plan(encoded: Array(long.utf8)[...]) == nil)
        var widest = plan
        widest.maxLineBytes = .max
        #expect(ResourceReader.Plan(encoded: widest.encoded[...]) == widest)
        // The last run of origins (lines of one source one after another) made longer than the text.
        let last = try #require(plan.origin.last)
        let length = plan.origin.reversed().prefix { $0.source == last.source }.count
        let lastRun = "\(last.source);\(last.line - length + 1);\(length);"
        #expect(text.components(separatedBy: lastRun).count == 2, "the last run once")
        let longer = text.replacingOccurrences(of: lastRun, with: "\(last.source);\(last.line - length + 1);\(length + 2);")
        #expect(ResourceReader.Plan(encoded: Array(longer.utf8)[...]) == nil)
        // Every byte changed to a few others: read as something or nothing, never a crash.
        for i in stride(from: 0, to: bytes.count, by: 7) {
            for other: UInt8 in [0x00, 0x2D, 0x30, 0x39, 0x3A, 0x3B, 0xFF] where other != bytes[i] {
                var changed = bytes
                changed[i] = other
                _ = ResourceReader.Plan(encoded: changed[...])
            }
        }
    }
}
