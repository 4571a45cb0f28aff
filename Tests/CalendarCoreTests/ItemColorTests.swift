import CalendarCore
import Foundation
import Testing

@Suite("Colours and the red rule")
struct ItemColorTests {
    struct Row: Decodable, Sendable { var name: String; var deltaE00: Double }
    struct Fixture: Decodable { var rows: [Row] }

    static let reference: [Row] = {
        guard let url = Bundle.module.url(forResource: "ciede2000_css_vs_red", withExtension: "json", subdirectory: "Fixtures"),
            let data = try? Data(contentsOf: url), let f = try? JSONDecoder().decode(Fixture.self, from: data)
        else { return [] }
        return f.rows
    }()

    @Test("our CIEDE2000 matches colour-science for all 147 CSS3 colours against red")
    func ciede2000AgainstPeer() throws {
        #expect(Self.reference.count == 147)
        for row in Self.reference {
            let ours = try ItemColor.named(row.name).difference(from: .red)
            #expect(abs(ours - row.deltaE00) < 0.01, "\(row.name): ours \(ours), colour-science \(row.deltaE00)")
        }
    }

    @Test("exactly the colours within ΔE00 < 10 of red are reserved")
    func reservedSet() throws {
        let reserved = try Self.reference.filter { try ItemColor.named($0.name).isReservedForBusyDays }.map(\.name)
        #expect(reserved.sorted() == ["orangered", "red"])
        #expect(try !ItemColor.named("tomato").isReservedForBusyDays)
        #expect(ItemColor(rgb: .init(250, 5, 5)).isReservedForBusyDays, "a custom near-red is refused too")
    }

    @Test func unknownNameIsAnError() {
        do {
            _ = try ItemColor.named("reddish")
            Issue.record("accepted")
        } catch {
            #expect(error.code == .unknownColor)
        }
    }

    @Test func hexRoundTrip() throws {
        let c = try #require(ItemColor.RGB(hex: "#3366Cc"))
        #expect(c.hex == "#3366cc")
        #expect(ItemColor.RGB(hex: "#33") == nil)
    }
}

@Suite("Calendar item validation")
struct CalendarItemTests {
    func item(_ title: String = "Yoga", color: ItemColor? = nil) throws -> CalendarItem {
        CalendarItem(uid: "u1", title: title, start: .zoned(try LocalDateTime(year: 2026, month: 3, day: 2, hour: 18), "Europe/Madrid"),
                     end: .duration(.init(seconds: 3600)), color: color)
    }

    @Test func redIsRefusedWithAReason() throws {
        let red = try item(color: .red)
        let orangered = try item(color: try .named("orangered"))
        do {
            try red.validate()
            Issue.record("accepted red")
        } catch {
            #expect(error.code == .reservedColor)
            #expect(error.field == "color")
            #expect(error.message.contains("two or more items"))
        }
        do {
            try orangered.validate()
            Issue.record("accepted orangered")
        } catch {
            #expect(error.message.contains("ΔE 6.4"))
        }
        try item(color: try .named("crimson")).validate()
    }

    @Test func titles() throws {
        #expect(throws: CalendarItemError.self) { try item("   ").validate() }
        try item("5k run").validate()
        let digitFirst = try item("5k run")
        do {
            try digitFirst.validate(ValidationRules(forbidTitlesStartingWithDigit: true))
            Issue.record("accepted")
        } catch {
            #expect(error.code == .titleStartsWithDigit)
        }
    }

    @Test func endsAndRecurrence() throws {
        var i = try item()
        i.end = .at(.zoned(try LocalDateTime(year: 2026, month: 3, day: 2, hour: 17), "Europe/Madrid"))
        do { try i.validate(); Issue.record("accepted") } catch { #expect(error.code == .endBeforeStart) }
        i.end = .at(.date(try LocalDate(year: 2026, month: 3, day: 3)))
        do { try i.validate(); Issue.record("accepted") } catch { #expect(error.code == .endTypeMismatch) }
        i.end = nil
        i.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20260310")]
        do { try i.validate(); Issue.record("accepted") } catch { #expect(error.code == .invalidRecurrence) }
        i.start = .zoned(try LocalDateTime(year: 2026, month: 3, day: 2, hour: 18), "Nowhere/Land")
        i.recurrenceRules = []
        do { try i.validate(); Issue.record("accepted") } catch { #expect(error.code == .unknownTimeZone) }
    }

    @Test("an impossible date is a typed error, not a crash")
    func impossibleDate() {
        do {
            _ = try LocalDate(year: 2026, month: 2, day: 30)
            Issue.record("accepted")
        } catch {
            #expect(error.code == .impossibleDate)
            #expect(error.message.contains("28 days"))
        }
        #expect(throws: TimeValueError.self) { try CalendarTime(icalValue: "20261301") }
        #expect(throws: TimeValueError.self) { try CalendarTime(icalValue: "20260101T250000") }
        #expect(throws: TimeValueError.self) { try CalendarTime(icalValue: "2026-01-01") }
    }
}
