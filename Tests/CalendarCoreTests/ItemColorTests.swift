import CalendarCore
import Foundation
import Testing
import _CalendarTestFixtures

@Suite("Colours and the red rule")
struct ItemColorTests {
    struct Row: Decodable, Sendable { var name: String; var deltaE00: Double }
    struct RowFile: Decodable { var rows: [Row] }

    static let reference: [Row] = {
        guard let data = try? Fixture.data("ciede2000_css_vs_red.json"), let f = try? JSONDecoder().decode(RowFile.self, from: data)
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

    @Test("the red family: the issue's reds refused, its colours accepted, custom reds too")
    func redFamily() throws {
        for name in ["red", "darkred", "firebrick", "maroon", "crimson", "indianred", "orangered", "tomato", "brown"] {
            #expect(try ItemColor.named(name).isReservedForBusyDays, "\(name) must be refused")
        }
        for name in ["teal", "royalblue", "gold", "seagreen", "orange", "mediumpurple", "deeppink", "coral", "salmon", "sienna", "chocolate", "steelblue"] {
            #expect(try !ItemColor.named(name).isReservedForBusyDays, "\(name) must be accepted")
        }
        for hex in ["#e00000", "#fe0000", "#f00a0a", "#c04040", "#ff3030", "#600000"] {
            let rgb = try #require(ItemColor.RGB(hex: hex))
            #expect(ItemColor(rgb: rgb).isReservedForBusyDays, "\(hex) must be refused")
        }
        #expect(!ItemColor(rgb: .init(64, 0, 0)).isReservedForBusyDays, "#400000 reads as black (chroma 33)")
        #expect(!ItemColor.fallback.isReservedForBusyDays, "the colour of uncoloured items is not red")
    }

    @Test("a colour typed as CSS: #rgb doubles each digit, #rrggbb as it is, nothing else")
    func cssHex() throws {
        #expect(ItemColor.RGB(css: "#f00") == ItemColor.RGB(255, 0, 0))
        #expect(ItemColor.RGB(css: "#0A0") == ItemColor.RGB(0, 0xAA, 0))
        #expect(ItemColor.RGB(css: "#1e90ff") == ItemColor.RGB(0x1E, 0x90, 0xFF))
        for wrong in ["f00", "#f0", "#f000", "#+fff", "#ggg", "#", "teal", "#1e90f"] {
            #expect(ItemColor.RGB(css: wrong) == nil, "\(wrong)")
        }
        #expect(ItemColor(rgb: try #require(ItemColor.RGB(css: "#f00"))).isReservedForBusyDays)
        #expect(!ItemColor(rgb: try #require(ItemColor.RGB(css: "#0a0"))).isReservedForBusyDays)
    }

    @Test("what a refusal suggests is clearly not red: 20° of hue or more outside the family")
    func suggestionsAreClearlyNotRed() {
        let family = ReservedRedFamily()
        #expect(ItemColor.clearlyNotRed.count == 4)
        for c in ItemColor.clearlyNotRed {
            #expect(!family.contains(c))
            let h = c.lch.hue
            let distance = min(abs(h - family.hues.lowerBound), abs(h - family.hues.upperBound), 360 - abs(h - family.hues.lowerBound))
            #expect(!family.hues.contains(h) && distance >= 20, "\(c): hue \(h)")
        }
    }

    /// The table in Docs/Colors.md, one row per CSS colour name: `| name | #rrggbb | L | C | h | accepted/refused |`.
    static func documentedVerdicts() throws -> [(name: String, refused: Bool)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Docs/Colors.md"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 6, cells[1].hasPrefix("#"), ["accepted", "refused"].contains(cells[5]) else { return nil }
            return (cells[0], cells[5] == "refused")
        }
    }

    @Test("Docs/Colors.md gives the library's verdict on all 147 CSS colour names")
    func documentedTable() throws {
        let rows = try Self.documentedVerdicts()
        #expect(rows.count == 147)
        #expect(Set(rows.map(\.name)) == Set(ItemColor.cssPalette.map(\.name)))
        for row in rows {
            #expect(try ItemColor.named(row.name).isReservedForBusyDays == row.refused, "\(row.name): the table says \(row.refused ? "refused" : "accepted")")
        }
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
            #expect(error.field == .color)
            #expect(error.message.contains("two or more items"))
        }
        do {
            try orangered.validate()
            Issue.record("accepted orangered")
        } catch {
            #expect(error.message.contains("red family (hue 45°, chroma 97, lightness 58)"))
            #expect(error.message.contains("orange, deeppink, royalblue or seagreen"))
            #expect(!error.message.contains("crimson") && !error.message.contains("tomato"))
        }
        try item(color: try .named("coral")).validate()
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
