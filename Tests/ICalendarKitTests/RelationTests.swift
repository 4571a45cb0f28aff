import CalendarCore
import CalendarViews
import Foundation
import ICalendarKit
import Testing
import _CalendarTestFixtures

/// Items that hold others (issue 44, 5): a league's rounds hold their
/// matches through `RELATED-TO` (RFC 5545 §3.8.4.5, RFC 9253), read from
/// either side, and a round's number is its place among its league's rounds.
@Suite("Rounds that hold their matches (RELATED-TO)")
struct RelationTests {
    /// A school league: the season holds three rounds, which hold their
    /// matches. Round b names its matches (`RELTYPE=CHILD`); every other
    /// relation is stated by the part (`PARENT`, written or left to the
    /// default). Round b stands before round a in the file.
    func league() throws -> ICalendar {
        let read = try ICalendarImporter().importCalendar(from: Fixture.data("ics/league-rounds.ics"))
        #expect(read.diagnostics.isEmpty, "RFC 9253's VALUE=URI is not a fault: \(read.diagnostics)")
        return read.calendar
    }

    func uid(_ name: String) -> String { name + "@lliga.example" }

    @Test("a relation is read as written: RELTYPE defaults to PARENT, a URI is a URI, a UID's escapes are undone")
    func reading() throws {
        let calendar = try league()
        let a2 = try #require(calendar.item(uid: uid("match-a2")))
        #expect(a2.relations == [
            .init(uid: uid("round-a"), type: .parent),
            .init(target: .uri("https://lliga.example/cal/match-a1.ics"), type: .init(rawValue: "starttofinish")),
        ])
        #expect(a2.parentUID == uid("round-a"))
        let roundB = try #require(calendar.item(uid: uid("round-b")))
        #expect(roundB.relations.map(\.type) == [.parent, .child, .child])
        #expect(roundB.parentUID == uid("season-2026"), "RELATED-TO with no RELTYPE names the parent")

        // RFC 9253 §7's VALUE=UID, a TEXT value with an escaped comma, and a
        // value type no relation has (kept, not read).
        let text = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//Horari//tests//EN\r
            BEGIN:VTODO\r
            UID:step-2\r
            DTSTAMP:20261128T090000Z\r
            SUMMARY:Step 2\r
            RELATED-TO;VALUE=UID;RELTYPE=SIBLING:step-1\r
            RELATED-TO;X-NOTE=kept:plan\\,2027\r
            RELATED-TO;VALUE=DATE:20261128\r
            END:VTODO\r
            END:VCALENDAR\r

            """
        let step = try #require(try ICalendarImporter().importCalendar(from: text).calendar.items.first)
        #expect(step.relations == [.init(uid: "step-1", type: .sibling), .init(uid: "plan,2027")])
        #expect(step.parentUID == "plan,2027")
    }

    @Test("changing relations keeps every line it does not change as written, where it stood")
    func writing() throws {
        let text = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//Horari//tests//EN\r
            BEGIN:VEVENT\r
            UID:m1\r
            DTSTAMP:20261128T090000Z\r
            DTSTART:20261003T150000Z\r
            SUMMARY:Sants v Gràcia\r
            LOCATION:Pavelló de Sants\r
            RELATED-TO;X-NOTE=kept:round-a\r
            RELATED-TO;VALUE=DATE:20261128\r
            URL:https://lliga.example/m1\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        var match = try #require(try ICalendarImporter().importCalendar(from: text).calendar.items.first)
        match.relate(to: "season", as: .sibling)
        match.relate(to: "season", as: .sibling)
        #expect(match.relations.count == 2, "a relation is added once")
        #expect(match.properties.map(\.text) == [
            "RELATED-TO;X-NOTE=kept:round-a", "RELATED-TO;RELTYPE=SIBLING:season",
            "RELATED-TO;VALUE=DATE:20261128", "URL:https://lliga.example/m1",
        ], "the line it had is kept with its parameter; the new one follows it")

        match.parentUID = "round, b"
        #expect(match.relations == [.init(uid: "round, b"), .init(uid: "season", type: .sibling)])
        #expect(match.properties.map(\.text) == [
            "RELATED-TO:round\\, b", "RELATED-TO;RELTYPE=SIBLING:season",
            "RELATED-TO;VALUE=DATE:20261128", "URL:https://lliga.example/m1",
        ], "the parent replaced where it stood, its UID escaped as TEXT; a line no relation reads stays")

        #expect(match.removeRelations(to: "season") == [.init(uid: "season", type: .sibling)])
        match.parentUID = nil
        #expect(match.relations.isEmpty)
        #expect(match.properties.map(\.text) == ["RELATED-TO;VALUE=DATE:20261128", "URL:https://lliga.example/m1"])

        // A calendar written and read again says the same.
        var calendar = ICalendar()
        var round = match
        round.parentUID = "season"
        try calendar.add(round)
        let back = try ICalendarImporter().importCalendar(from: ICalendarExporter().export(calendar)).calendar
        #expect(back.item(uid: "m1")?.relations == [.init(uid: "season")])
        #expect(back.item(uid: "m1")?.properties == round.properties)
    }

    @Test("the tree reads a parent from either side, orders parts by start, and numbers them from 1")
    func tree() throws {
        let calendar = try league()
        let tree = ItemTree(calendar.schedule())
        #expect(tree.children(of: uid("season-2026")) == ["round-a", "round-b", "round-c"].map(uid),
                "by start, not by file order")
        #expect(tree.ordinal(of: uid("round-b")) == 2)
        #expect(tree.ordinal(of: uid("round-c")) == 3)
        #expect(tree.children(of: uid("round-b")) == ["match-b1", "match-b2"].map(uid), "a parent's CHILD names its parts")
        #expect(tree.parent(of: uid("match-b2")) == uid("round-b"))
        #expect(tree.children(of: uid("round-a")) == ["match-a1", "match-a2"].map(uid))
        #expect(tree.ancestors(of: uid("match-c1")) == [uid("round-c"), uid("season-2026")])
        #expect(tree.parent(of: uid("friendly")) == nil, "a round this calendar does not hold")
        #expect(tree.ordinal(of: uid("season-2026")) == nil)
        #expect(tree.parent(of: uid("season-2026")) == nil)
    }

    @Test("a round moved to another weekend is numbered where it now falls")
    func renumbering() throws {
        var calendar = try league()
        var roundC = try #require(calendar.item(uid: uid("round-c")))
        roundC.start = .date(try LocalDate(year: 2026, month: 10, day: 10))
        roundC.end = .at(.date(try LocalDate(year: 2026, month: 10, day: 12)))
        try calendar.update(roundC)
        let tree = ItemTree(calendar.schedule())
        #expect(["round-a", "round-b", "round-c"].map { tree.ordinal(of: uid($0)) } == [1, 3, 2])
    }

    @Test("a relation to the item itself or one that would make it its own ancestor is left out of the tree")
    func cycles() throws {
        func item(_ uid: String, parent: String?, child: String? = nil) throws -> CalendarItem {
            var item = CalendarItem(uid: uid, title: uid, start: .utc(try LocalDateTime(year: 2026, month: 12, day: 1, hour: 10)))
            item.parentUID = parent
            if let child { item.relate(to: child, as: .child) }
            return item
        }
        let schedule = try Schedule(items: [
            try item("a", parent: "c"), try item("b", parent: "a"), try item("c", parent: "b"),
            try item("d", parent: "d"), try item("e", parent: nil, child: "e"),
            try item("f", parent: "g"), try item("g", parent: nil, child: "f"),
        ])
        let tree = ItemTree(schedule)
        #expect(tree.parent(of: "a") == "c")
        #expect(tree.parent(of: "b") == "a")
        #expect(tree.parent(of: "c") == nil, "c → b → a → c: the last relation read would close the circle")
        #expect(tree.ancestors(of: "b") == ["a", "c"])
        #expect(tree.parent(of: "d") == nil && tree.children(of: "e").isEmpty)
        #expect(tree.children(of: "g") == ["f"], "stated on both sides, counted once")

        // A chain 20,000 deep: each link is checked without walking the chain.
        var chain = [try item("n0", parent: nil)]
        for i in 1..<20_000 { chain.append(try item("n\(i)", parent: "n\(i - 1)")) }
        chain.append(try item("n0-again", parent: "n19999"))
        chain[0].parentUID = "n19999"   // would close a circle of 20,000
        let deep = ItemTree(try Schedule(items: chain))
        // Read in order, n0's link comes first; the last link would close the circle, and is left out.
        #expect(deep.parent(of: "n0") == "n19999" && deep.parent(of: "n19999") == nil && deep.parent(of: "n1") == "n0")
        #expect(deep.ancestors(of: "n19998").count == 19_999)
    }

    @Test("a part with no date comes after the dated ones")
    func undatedLast() throws {
        var thesis = CalendarItem(uid: "thesis", kind: .task, title: "Thesis", start: .date(try LocalDate(year: 2027, month: 6, day: 30)), hasStart: false)
        thesis.status = .needsAction
        var someday = CalendarItem(undatedTask: "outline", title: "Outline")
        someday.parentUID = "thesis"
        var draft = CalendarItem(uid: "draft", kind: .task, title: "Draft", start: .date(try LocalDate(year: 2027, month: 3, day: 1)), hasStart: false)
        draft.parentUID = "thesis"
        let tree = ItemTree(try Schedule(items: [thesis, someday, draft]))
        #expect(tree.children(of: "thesis") == ["draft", "outline"])
        #expect(tree.ordinal(of: "draft") == 1)
    }

    @Test("a list page given the tree gives each part its parent and number")
    func listView() throws {
        let schedule = try league().schedule()
        let zone = try ZoneRules.named("Europe/Madrid")
        let plain = ListView(from: try LocalDate(year: 2026, month: 10, day: 1), schedule: schedule, options: .init(timeZone: zone, limit: 20))
        #expect(plain.occurrences.allSatisfy { $0.parent == nil && $0.ordinal == nil }, "no tree given, none shown")
        let list = ListView(from: try LocalDate(year: 2026, month: 10, day: 1), schedule: schedule,
                            options: .init(timeZone: zone, limit: 20, tree: ItemTree(schedule)))
        let shown = Dictionary(list.occurrences.map { ($0.id.uid, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(shown[uid("match-b2")]?.parent == uid("round-b"))
        #expect(shown[uid("match-b2")]?.ordinal == 2)
        #expect(shown[uid("round-c")]?.ordinal == 3)
        #expect(shown[uid("season-2026")]?.parent == nil && shown[uid("season-2026")]?.ordinal == nil)
        #expect(shown[uid("friendly")]?.parent == nil)

        let json = try JSONEncoder().encode(list)
        let again = try JSONDecoder().decode(ListView.self, from: json)
        #expect(again == list, "parent and ordinal are written and read back")
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(#""parent":"round-b@lliga.example""#), "the key is parent, the value the UID")
    }
}
