@testable import CalendarStore
import Foundation
import Testing

/// `state.json` read by ``StateJSONReader`` must be what `JSONDecoder` reads, or nothing.
@Suite("A collection cache's state.json, read without JSONDecoder")
struct StateJSONReaderTests {
    typealias State = CollectionStore.State

    /// JSONDecoder's reading, the reference.
    private func decoded(_ bytes: [UInt8]) -> State? {
        try? JSONDecoder().decode(State.self, from: Data(bytes))
    }

    /// States of every shape: no members, tags and UIDs absent or empty,
    /// text that JSONEncoder escapes (quotes, backslashes, slashes, control
    /// characters, tabs) and text beyond ASCII, pending writes with leases
    /// and gates, lost updates with a date.
    private func states() -> [State] {
        let odd = ["/gym/yoga.ics", "/gym/a%20b.ics", "\"W/\\\"x\"", "tab\there", "line\nbreak\r", "\u{1}\u{1F}\u{7F}",
                   "Sants — ioga ✓", "emoji 😀 and 𝄞", "", "\\", "/", "\u{FEFF}start"]
        var states: [State] = [State(collection: "http://127.0.0.1:5232/gym/big/")]
        var full = State(collection: "https://example.com/cal/ü/", syncToken: "http://radicale.org/ns/sync/abc")
        for (i, text) in odd.enumerated() {
            full.members["/cal/\(i)-\(text)"] = State.Member(etag: i % 3 == 0 ? nil : text, file: "t-\(i).ics",
                                                            uids: i % 4 == 1 ? nil : (i % 4 == 2 ? [] : [text, "uid-\(i)"]))
        }
        full.pending = [CollectionStore.PendingWrite(href: "/cal/a.ics", etag: "\"1\"", file: "p-a.ics"),
                        CollectionStore.PendingWrite(href: "/cal/b.ics", etag: nil, file: nil,
                                                     lease: CollectionStore.LeaseGuard(href: "/cal/book.ics", etag: "\"7\""), gate: true)]
        full.lostUpdates = LostUpdatesSeen(count: 2, last: Date(timeIntervalSinceReferenceDate: 812_345_678.25), resource: "yoga.ics")
        states.append(full)
        var many = State(collection: "http://h/c/", syncToken: nil)
        for i in 0..<500 { many.members["/c/\(i).ics"] = State.Member(etag: "\"\(i)\"", file: "t-\(i).ics", uids: ["\(i)@x"]) }
        states.append(many)
        return states
    }

    private func encodings(_ state: State) throws -> [[UInt8]] {
        let formattings: [JSONEncoder.OutputFormatting] = [[.sortedKeys], [], [.prettyPrinted], [.withoutEscapingSlashes, .sortedKeys]]
        return try formattings.map { formatting in
            let encoder = JSONEncoder()
            encoder.outputFormatting = formatting
            return Array(try encoder.encode(state))
        }
    }

    @Test("what JSONEncoder writes, in any key order and spacing, is read as JSONDecoder reads it")
    func sameAsJSONDecoder() throws {
        for state in states() {
            for bytes in try encodings(state) {
                let read = try #require(StateJSONReader.state(bytes), "\(String(decoding: bytes.prefix(300), as: UTF8.self))")
                #expect(read == state)
                #expect(read == decoded(bytes))
            }
        }
    }

    @Test("JSON's own escapes (\\u, a surrogate pair, \\/) and absent optionals read as JSONDecoder reads them")
    func escapesAndAbsentKeys() throws {
        let texts = [
            #"{"collection":"c","members":{"\/a\u00e9.ics":{"file":"f","etag":null}},"pending":[]}"#,
            #"{ "pending" : [ ] , "members" : { "x" : { "uids" : [ "\ud83d\ude00" , "\t" ] , "file" : "\u0066" } } , "collection" : "c" , "syncToken" : null , "lostUpdates" : null }"#,
            #"{"collection":"c","members":{},"pending":[{"href":"h","gate":false}],"lostUpdates":{"count":1,"last":3.5,"resource":"r"}}"#,
        ]
        for text in texts {
            let bytes = Array(text.utf8)
            let reference = try #require(decoded(bytes), "\(text)")
            #expect(StateJSONReader.state(bytes) == reference, "\(text)")
        }
    }

    @Test("anything else is left to JSONDecoder: cut short at every byte, each byte changed, an unknown key, a missing table, a lone surrogate")
    func nothingOtherwise() throws {
        let small = try encodings(states()[1])[0]
        // Cut short: JSONDecoder refuses every prefix, and so must the reader.
        for end in 0..<small.count {
            #expect(StateJSONReader.state(Array(small[..<end])) == nil, "cut at \(end)")
        }
        // Every byte changed in turn to a few others: the reader reads nothing, or what JSONDecoder reads.
        var differ = 0
        for at in small.indices {
            for byte: UInt8 in [0x00, 0x20, 0x22, 0x2C, 0x5C, 0x7D, 0xFF, UInt8(ascii: "n"), UInt8(ascii: "1")] where small[at] != byte {
                var changed = small
                changed[at] = byte
                if let read = StateJSONReader.state(changed), read != decoded(changed) { differ += 1 }
            }
        }
        #expect(differ == 0)
        for text in [#"{"collection":"c","members":{},"pending":[],"extra":1}"#,
                     #"{"collection":"c","pending":[]}"#, #"{"collection":"c","members":{}}"#,
                     #"{"collection":"c","members":{"x":{"file":"f","etag":1}},"pending":[]}"#,
                     #"{"collection":"c","members":{"x":{"file":"\udc00"}},"pending":[]}"#,
                     #"{"collection":"c","members":{"x":{"file":"\ud800x"}},"pending":[]}"#,
                     #"{"collection":"c","members":{"x":{"file":"\u+041"}},"pending":[]}"#,
                     "\u{FEFF}" + #"{"collection":"c","members":{},"pending":[]}"#,
                     #"{"collection":"c","members":{},"pending":[]} x"#,
                     // A key twice: JSONDecoder keeps the first.
                     #"{"collection":"a","collection":"b","members":{},"pending":[]}"#,
                     #"{"collection":"c","members":{"a":{"file":"x"}},"members":{"b":{"file":"y"}},"pending":[]}"#,
                     #"{"collection":"c","members":{"a":{"file":"x"},"a":{"file":"y"}},"pending":[]}"#,
                     #"{"collection":"c","members":{"a":{"file":"x","file":"y"}},"pending":[]}"#,
                     // Nested past any state: refused, not a stack overflow.
                     #"{"collection":"c","members":{},"pending":"# + String(repeating: "[", count: 200_000)] {
            #expect(StateJSONReader.state(Array(text.utf8)) == nil, "\(text)")
        }
        // Not UTF-8 in a string.
        var latin = Array(#"{"collection":"c","members":{"x":{"file":"é"}},"pending":[]}"#.utf8)
        let e = try #require(latin.firstIndex(of: 0xC3))
        latin.replaceSubrange(e...(e + 1), with: [0xE9])
        #expect(StateJSONReader.state(latin) == nil)
    }
}
