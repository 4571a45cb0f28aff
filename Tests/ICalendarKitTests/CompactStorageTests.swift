import CalendarCore
import Foundation
import Testing
import _CalendarTestSupport
@testable import ICalendarKit

/// The compact forms the import keeps its items in (issue 3's memory target):
/// each must behave exactly like the plain form it replaced.
@Suite("Compact storage behaves like the plain values it replaced")
struct CompactStorageTests {
    // MARK: ContentLine

    @Test("A content line is stored in canonical text and read back field by field")
    func contentLineCanonicalText() throws {
        let line = ContentLine(name: "x-gym", parameters: [.init(name: "cn", values: ["Sala 1, Centre", "plain"]), .init(name: "X-Q", values: ["say \"hi\""])],
                               value: "mailto:a@b.c;x=1")
        #expect(line.text == #"X-GYM;CN="Sala 1, Centre",plain;X-Q=say 'hi':mailto:a@b.c;x=1"#)
        #expect(line.name == "X-GYM")
        #expect(line.parameters == [.init(name: "CN", values: ["Sala 1, Centre", "plain"]), .init(name: "X-Q", values: ["say 'hi'"])])
        #expect(line.value == "mailto:a@b.c;x=1")
        #expect(line.parameter("CN") == "Sala 1, Centre")
        #expect(line.parameter("X-Q") == "say 'hi'")
        #expect(line.parameter("PARTSTAT") == nil)

        // A quoted parameter value holding ':' does not end the parameters.
        let quoted = ContentLine(name: "ATTENDEE", parameters: [.init(name: "DELEGATED-FROM", values: ["mailto:x@y.z"])], value: "mailto:a@b.c")
        #expect(quoted.text == #"ATTENDEE;DELEGATED-FROM="mailto:x@y.z":mailto:a@b.c"#)
        #expect(quoted.value == "mailto:a@b.c")

        // Each setter keeps the other fields.
        var changed = line
        changed.value = "v2"
        #expect(changed.text == #"X-GYM;CN="Sala 1, Centre",plain;X-Q=say 'hi':v2"#)
        changed.name = "x-room"
        #expect(changed.name == "X-ROOM" && changed.value == "v2" && changed.parameters.count == 2)
        changed.parameters = []
        #expect(changed.text == "X-ROOM:v2")
        changed.parameters.append(.init(name: "LANGUAGE", values: ["ca"]))
        #expect(changed.text == "X-ROOM;LANGUAGE=ca:v2")

        // Empty parts.
        #expect(ContentLine(name: "X-EMPTY", value: "").text == "X-EMPTY:")
        #expect(ContentLine(name: "X", parameters: [.init(name: "P", values: [""])], value: "v").parameters == [.init(name: "P", values: [""])])
    }

    @Test("Lines read from a file equal lines made in code, however the file quoted and cased them")
    func contentLineFromFile() throws {
        let cases: [(String, ContentLine)] = [
            (#"attendee;cn="Jane Doe";partstat=ACCEPTED:mailto:jane@example.com"#,
             ContentLine(name: "ATTENDEE", parameters: [.init(name: "CN", values: ["Jane Doe"]), .init(name: "PARTSTAT", values: ["ACCEPTED"])], value: "mailto:jane@example.com")),
            (#"X-A;P="a,b",c:v"#, ContentLine(name: "X-A", parameters: [.init(name: "P", values: ["a,b", "c"])], value: "v")),
            (#"X-A;P=a"b:v"#, ContentLine(name: "X-A", parameters: [.init(name: "P", values: ["a'b"])], value: "v")),
            ("X-A;P=:v:w", ContentLine(name: "X-A", parameters: [.init(name: "P", values: [""])], value: "v:w")),
            (#"X-A;P="":v"#, ContentLine(name: "X-A", parameters: [.init(name: "P", values: [""])], value: "v")),
            ("DESCRIPTION:Sala 1\\, Gimnàs", ContentLine(name: "DESCRIPTION", value: "Sala 1\\, Gimnàs")),
        ]
        for (text, expected) in cases {
            guard case .success(let parsed) = ContentLineSyntax.parse(Array(text.utf8)) else {
                Issue.record("\(text) did not parse")
                continue
            }
            #expect(parsed.line == expected, "\(text)")
            #expect(parsed.line.text == expected.text, "\(text)")
            #expect(parsed.name == expected.name)
            #expect(parsed.line.hashValue == expected.hashValue)
        }
    }

    @Test("Any line made in code reads back the same from its text (2,000 random lines)")
    func contentLineRandomRoundTrip() throws {
        var rng = SplitMix64(seed: 3)
        let alphabet: [String] = ["a", "Z", "0", "-", " ", ":", ";", ",", "\\", "é", "€", "🙂", "=", "'", "x"]
        func word(_ max: Int, _ letters: [String]) -> String {
            (0..<Int.random(in: 0...max, using: &rng)).map { _ in letters.randomElement(using: &rng) ?? "x" }.joined()
        }
        let nameLetters = ["A", "b", "C", "-", "X", "9"]
        for _ in 0..<2000 {
            let name = "X" + word(8, nameLetters)
            let parameters = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                ContentLine.Parameter(name: "P" + word(4, nameLetters), values: (0..<Int.random(in: 1...3, using: &rng)).map { _ in word(6, alphabet) })
            }
            let value = word(20, alphabet + ["\""])
            let line = ContentLine(name: name, parameters: parameters, value: value)
            #expect(line.name == name.uppercased())
            #expect(line.parameters == parameters.map { .init(name: $0.name.uppercased(), values: $0.values) })
            #expect(line.value == value)
            guard case .success(let parsed) = ContentLineSyntax.parse(Array(line.text.utf8)) else {
                Issue.record("\(line.text) did not parse")
                continue
            }
            #expect(parsed.line == line, "\(line.text)")
        }
    }

    @Test("A content line encodes to the same JSON as before: name, parameters, value")
    func contentLineJSON() throws {
        let line = ContentLine(name: "X-A", parameters: [.init(name: "P", values: ["1", "a,b"])], value: "v")
        let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(line)) as? [String: Any])
        #expect(object["name"] as? String == "X-A" && object["value"] as? String == "v")
        #expect((object["parameters"] as? [[String: Any]])?.first?["values"] as? [String] == ["1", "a,b"])
        #expect(try JSONDecoder().decode(ContentLine.self, from: JSONEncoder().encode(line)) == line)
    }

    // MARK: ContentLines

    @Test("ContentLines behaves as [ContentLine] under 3,000 random edits")
    func contentLinesLikeAnArray() throws {
        var rng = SplitMix64(seed: 7)
        var lines = ContentLines()
        var array: [ContentLine] = []
        func randomLine() -> ContentLine {
            let n = Int.random(in: 0..<1000, using: &rng)
            return ContentLine(name: "X-\(n % 7)", parameters: n % 3 == 0 ? [.init(name: "P", values: ["\(n)", "a:b"])] : [], value: String(repeating: "é", count: n % 5) + "\(n)")
        }
        for step in 0..<3000 {
            switch Int.random(in: 0..<7, using: &rng) {
            case 0, 1:
                let l = randomLine()
                lines.append(l)
                array.append(l)
            case 2:
                let i = Int.random(in: 0...array.count, using: &rng)
                let l = randomLine()
                lines.insert(l, at: i)
                array.insert(l, at: i)
            case 3 where !array.isEmpty:
                let i = Int.random(in: 0..<array.count, using: &rng)
                #expect(lines.remove(at: i) == array.remove(at: i))
            case 4 where !array.isEmpty:
                let i = Int.random(in: 0..<array.count, using: &rng)
                let l = randomLine()
                lines[i] = l
                array[i] = l
            case 5:
                let a = Int.random(in: 0...array.count, using: &rng)
                let b = Int.random(in: a...array.count, using: &rng)
                let new = (0..<Int.random(in: 0...3, using: &rng)).map { _ in randomLine() }
                lines.replaceSubrange(a..<b, with: new)
                array.replaceSubrange(a..<b, with: new)
            default:
                let k = Int.random(in: 0..<7, using: &rng)
                lines.removeAll { $0.name == "X-\(k)" }
                array.removeAll { $0.name == "X-\(k)" }
            }
            #expect(lines.count == array.count, "step \(step)")
            #expect(Array(lines) == array, "step \(step)")
            #expect(lines == ContentLines(array) && lines.hashValue == ContentLines(array).hashValue)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(lines) == encoder.encode(array))
        #expect(try JSONDecoder().decode(ContentLines.self, from: JSONEncoder().encode(array)) == lines)
        #expect(ContentLines([]) == ContentLines() && ContentLines() != [ContentLine(name: "X", value: "")])
        #expect(lines.filter { $0.name == "X-1" }.allSatisfy { $0.name == "X-1" })
    }

    // MARK: The side box of rare fields

    @Test("Rarely used fields live in a side box that behaves like plain fields: shared until changed, cleared back to none, the same JSON")
    func rareFieldsBox() throws {
        let start = CalendarTime.zoned(try LocalDateTime(year: 2026, month: 3, day: 2, hour: 9), "Europe/Madrid")
        let plain = CalendarItem(uid: "r", title: "R", start: start)
        var a = plain
        a.color = try .named("teal")
        a.calendar = "Work"
        a.recurrenceDates = [start]
        a.categories = ["Gym", "a,b"]
        a.status = .confirmed
        a.lastModified = .utc(try LocalDateTime(year: 2026, month: 1, day: 1, hour: 0))
        a.components = [ContentComponent(name: "X-THING", properties: [ContentLine(name: "X-A", value: "1")])]
        a.alarms = [try Alarm(.before(.seconds(900)), message: "Soon")]
        a.unreadableAlarms = [UnreadableAlarm(problem: AlarmError(.missingTrigger, property: nil, "no trigger"),
                                              component: ContentComponent(name: "VALARM", properties: [ContentLine(name: "ACTION", value: "DISPLAY")]))]
        a.completed = .utc(try LocalDateTime(year: 2026, month: 1, day: 2, hour: 0))
        a.percentComplete = 40
        a.extraParameters["SUMMARY"] = [.init(name: "LANGUAGE", values: ["ca"])]
        a.overrides.append(RecurrenceOverride(recurrenceID: start, item: plain))
        let b = a
        a.overrides.append(RecurrenceOverride(recurrenceID: start, item: plain, isCancelled: true))
        a.recurrenceDates.append(start)
        #expect(b.overrides.count == 1 && a.overrides.count == 2)
        #expect(b.recurrenceDates.count == 1 && a.recurrenceDates.count == 2)
        #expect(b.categories == ["Gym", "a,b"] && b.status == .confirmed && b.calendar == "Work")
        #expect(a != b)
        let made = CalendarItem(uid: "r", title: "R", start: start, color: try .named("teal"), calendar: "Work", recurrenceDates: [start],
                                overrides: [RecurrenceOverride(recurrenceID: start, item: plain)], categories: ["Gym", "a,b"], status: .confirmed,
                                lastModified: b.lastModified, components: b.components, extraParameters: b.extraParameters)
        var madeWhole = made
        (madeWhole.alarms, madeWhole.unreadableAlarms, madeWhole.completed, madeWhole.percentComplete) = (b.alarms, b.unreadableAlarms, b.completed, b.percentComplete)
        #expect(made != b)
        #expect(madeWhole == b && madeWhole.hashValue == b.hashValue)
        let decoded = try JSONDecoder().decode(CalendarItem.self, from: JSONEncoder().encode(a))
        #expect(decoded == a && decoded.hashValue == a.hashValue)
        // The JSON has a key for every field (nil ones left out), as before the box.
        let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(a)) as? [String: Any])
        let keys: Set = ["uid", "kind", "title", "start", "color", "calendar", "recurrenceRules", "recurrenceDates", "exceptionDates",
                         "overrides", "categories", "status", "sequence", "lastModified", "properties", "components",
                         "extraParameters", "hasStart", "hasMaster", "alarms", "unreadableAlarms", "completed", "percentComplete"]
        #expect(Set(object.keys) == keys)
        #expect(object["categories"] as? [String] == ["Gym", "a,b"] && object["calendar"] as? String == "Work")
        // Cleared field by field, it is the item that never had them, hash included.
        a.color = nil
        a.calendar = nil
        a.recurrenceDates = []
        a.categories = []
        a.status = nil
        a.lastModified = nil
        a.components.removeAll()
        (a.alarms, a.unreadableAlarms, a.completed, a.percentComplete) = ([], [], nil, nil)
        a.extraParameters = [:]
        a.overrides.removeAll()
        #expect(a == plain && a.hashValue == plain.hashValue)
        let cleared = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(a)) as? NSDictionary)
        #expect(try cleared == #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(plain)) as? NSDictionary))
    }

    // MARK: Categories

    @Test("Categories keep every list exactly, commas, backslashes and empty names included")
    func categoriesRoundTrip() throws {
        var item = CalendarItem(uid: "c", title: "C", start: .date(try LocalDate(year: 2026, month: 3, day: 2)))
        let lists: [[String]] = [[], [""], ["", ""], ["Gym"], ["Training", "Gym"], ["a,b", "c\\", "\\,", ",", "é🙂"], [",,"], ["\\"]]
        var seen: [[String]: CalendarItem] = [:]
        for list in lists {
            item.categories = list
            #expect(item.categories == list)
            let decoded = try JSONDecoder().decode(CalendarItem.self, from: JSONEncoder().encode(item))
            #expect(decoded.categories == list && decoded == item)
            seen[list] = item
        }
        // Different lists are different items.
        #expect(Set(seen.values).count == lists.count)
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(item)) as? [String: Any])
        #expect(json["categories"] as? [String] == ["\\"])
    }

    // MARK: Dates

    @Test("A date holds years −32767…32767; day numbers beyond are clamped, not trapped")
    func dateRange() throws {
        #expect(LocalDate(dayNumber: .max).description == "32767-12-31")
        #expect(LocalDate(dayNumber: .min).year == -32767)
        var rng = SplitMix64(seed: 11)
        for _ in 0..<5000 {
            let n = Int.random(in: -12_600_000...11_248_736, using: &rng)
            let d = LocalDate(dayNumber: n)
            #expect(d.dayNumber == n)
            #expect(LocalDate(dayNumber: n + 1) > d)
        }
        let t = try LocalDateTime(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59)
        #expect(LocalDateTime(localSeconds: t.localSeconds) == t)
        #expect(MemoryLayout<CalendarTime>.size == 24, "CalendarTime grew: the import's memory budget counts on 24 bytes")
    }

    // MARK: The UID index

    /// `merge` as it was, with a dictionary of our UIDs and a set of theirs.
    static func referenceMerge(_ own: inout [CalendarItem], _ incoming: [CalendarItem]) -> MergeReport {
        var report = MergeReport()
        var index: [String: Int] = [:]
        for (i, item) in own.enumerated() { index[item.uid] = i }
        var seen: Set<String> = []
        for new in incoming {
            guard seen.insert(new.uid).inserted else { continue }
            guard let i = index[new.uid] else {
                index[new.uid] = own.count
                own.append(new)
                report.added.append(new.uid)
                continue
            }
            let old = own[i]
            if old == new {
                report.unchanged.append(new.uid)
                continue
            }
            switch ICalendar.compareVersions(new, old) {
            case .orderedDescending:
                own[i] = new
                report.updated.append(new.uid)
            case .orderedAscending: report.keptNewer.append(new.uid)
            case .orderedSame: report.conflicts.append(new.uid)
            }
        }
        report.missing = own.map(\.uid).filter { !seen.contains($0) }
        return report
    }

    @Test("merge with position tables does what it did with a dictionary and a set: 300 random pairs, repeated UIDs on both sides")
    func mergeLikeDictionary() throws {
        var rng = SplitMix64(seed: 19)
        let start = CalendarTime.date(try LocalDate(year: 2026, month: 1, day: 1))
        func items(_ n: Int) -> [CalendarItem] {
            (0..<n).map { _ in
                CalendarItem(uid: "u\(Int.random(in: 0..<12, using: &rng))", title: ["A", "B"][Int.random(in: 0..<2, using: &rng)], start: start,
                             sequence: Int.random(in: 0..<3, using: &rng))
            }
        }
        for _ in 0..<300 {
            let own = items(Int.random(in: 0..<10, using: &rng))
            let incoming = items(Int.random(in: 0..<10, using: &rng))
            var merged = ICalendar(items: own)
            let report = merged.merge(ICalendar(items: incoming))
            var expected = own
            let expectedReport = Self.referenceMerge(&expected, incoming)
            #expect(report == expectedReport)
            #expect(merged.items == expected)
        }
    }

    @Test("The importer's UID index finds what a dictionary finds (20,000 UIDs, repeats included)")
    func uidIndex() throws {
        var rng = SplitMix64(seed: 5)
        var items: [CalendarItem] = []
        var index = UIDIndex()
        var reference: [String: Int] = [:]
        let start = CalendarTime.date(try LocalDate(year: 2026, month: 1, day: 1))
        for _ in 0..<20000 {
            let uid = "uid-\(Int.random(in: 0..<15000, using: &rng))@example"
            #expect(index.position(of: uid, in: items) == reference[uid])
            if reference[uid] == nil {
                reference[uid] = items.count
                index.insert(uid, at: items.count)
            }
            items.append(CalendarItem(uid: uid, title: "", start: start))
        }
        #expect(index.count == reference.count)
        for (uid, i) in reference { #expect(index.position(of: uid, in: items) == i) }
        #expect(index.position(of: "missing", in: items) == nil)
        // Built at once, the first item of each UID wins, as in the dictionary.
        let rebuilt = UIDIndex(items)
        for (uid, i) in reference { #expect(rebuilt.position(of: uid, in: items) == i) }
    }
}
