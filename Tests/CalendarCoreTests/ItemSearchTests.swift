import CalendarCore
import Foundation
import Testing

/// `ItemSearch`: what a person types finds what the calendar says, whatever
/// the case, the accents or the field (issue 44, 10; khal #1057).
@Suite("Searching items by what they say")
struct ItemSearchTests {
    func item(_ uid: String, _ title: String, notes: String? = nil, location: String? = nil, categories: [String] = []) throws -> CalendarItem {
        CalendarItem(uid: uid, title: title, start: .floating(try LocalDateTime(year: 2026, month: 11, day: 30, hour: 10, minute: 0)),
                     notes: notes, location: location, categories: categories)
    }

    @Test("case, accents and width are ignored; each word is found in any field; every word must be")
    func words() throws {
        let items = [
            try item("a", "Reunió amb la Núria", location: "Cafè Central"),
            try item("b", "DENTIST", notes: "Bring the X-ray"),
            try item("c", "Piano", categories: ["Música"]),
            try item("d", "Ｙｏｇａ", location: "Sala 2"),  // full-width letters, as a Japanese keyboard types them
        ]
        func found(_ text: String) throws -> [String] { items.filter(try ItemSearch(text).matches).map(\.uid) }
        #expect(try found("nuria") == ["a"])
        #expect(try found("NÚRIA cafe") == ["a"])
        #expect(try found("cafe dentist") == [], "every word must be found")
        #expect(try found("dentist x-ray") == ["b"])
        #expect(try found("musica") == ["c"])
        #expect(try found("yoga sala") == ["d"])
        #expect(try found("a") == ["a", "b", "c", "d"], "a word is found inside others")
        #expect(try found("  piano\t") == ["c"])
    }

    @Test("a repeating item is found by its series or by one of its dates, retitled")
    func instances() throws {
        var series = try item("s", "Standup")
        series.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=5")]
        var retitled = series
        retitled.recurrenceRules = []
        retitled.title = "Standup with the Ærø team"
        series.overrides = [RecurrenceOverride(recurrenceID: series.start, item: retitled)]
        #expect(try ItemSearch("aero").matches(series) == false, "Æ is a letter of its own, not A with an accent")
        #expect(try ItemSearch("ærø").matches(series))
        #expect(try ItemSearch("standup").matches(series))
        #expect(try ItemSearch("retro").matches(series) == false)
    }

    @Test("no word, or a text past 255 characters, is refused with what to do")
    func refused() {
        func refusal(_ text: String) -> String? {
            do { _ = try ItemSearch(text); return nil } catch { return error.message }
        }
        for text in ["", "   ", "\n\t"] { #expect(refusal(text) == "give a word to search for") }
        #expect(refusal(String(repeating: "a", count: 256)) == "the text searched for is 256 characters long; at most 255")
        #expect((try? ItemSearch(String(repeating: "a", count: 255))) != nil)
    }
}
