import CalendarCore
import CalendarScheduling
import Foundation

// A book as records and back: the book's JSON form (schema 1, the
// CalendarScheduling article "Saving a book") cut at its lists — each
// coach, client, session, member, class and roster one record, the rest
// (zone, both policies, hours, closures, class sequences) the `gym` record —
// each written as JSON with sorted keys, so a record the change did not
// touch has the same bytes and is not written again.

package enum BookRecords {
    /// The book's lists, the kind of record each element is, and the fields that make its ID.
    static let lists: [(field: String, kind: String, id: [String])] = [
        ("coaches", "coach", ["id"]), ("clients", "client", ["coachID", "id"]), ("sessions", "session", ["id"]),
        ("members", "member", ["id"]), ("classes", "class", ["id"]), ("rosters", "roster", ["classID", "date"]),
    ]
    /// The `gym` record's key.
    package static let gymKey = RecordKey(kind: "gym", id: "book")

    /// The records of a book, by key; `aside` goes back into the `gym`
    /// record's class sequences (those of classes a partial book did not hold).
    ///
    /// The book is encoded once, and each record is a slice of that text
    /// (``JSONText``): each list's elements as they are, and the gym record
    /// the object's other members. (Parsing the text into dictionaries and
    /// writing each element again with sorted keys was half of a desk's CPU
    /// in 100 bookings at once: measured with perf, Benchmarks/RESULTS.md.)
    /// The bytes are those parse-and-write gave wherever the keys are the
    /// book's own field names (a test compares them); keys that are data —
    /// class IDs in the gym record's class sequences — are in the encoder's
    /// order (by code point) where the old way's was case-insensitive and
    /// numeric, so such a gym record stored before is written again once.
    package static func records(of book: SchedulingBook, aside: [String: Any] = [:]) throws -> [RecordKey: Data] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = JSONText(bytes: [UInt8](try encoder.encode(book)))
        let members = try text.members(at: 0)
        let listFields = Dictionary(uniqueKeysWithValues: lists.map { ($0.field, $0) })
        var records: [RecordKey: Data] = [:]
        var gym: [UInt8] = [UInt8(ascii: "{")]
        for member in members {
            guard let list = listFields[member.key] else {
                if gym.count > 1 { gym.append(UInt8(ascii: ",")) }
                gym.append(contentsOf: text.bytes[member.whole])
                continue
            }
            for element in try text.elements(in: member.value) {
                let body = Data(text.bytes[element])
                let fields = try text.members(at: element.lowerBound)
                let parts = try list.id.compactMap { name in try fields.first { $0.key == name }.flatMap { try text.string(in: $0.value) } }
                guard parts.count == list.id.count, !parts.contains(where: \.isEmpty) else {
                    throw CalendarStoreError(.io, "a \(list.kind) of the book has no \(list.id.joined(separator: " and ")); it cannot be stored")
                }
                let key = RecordKey(kind: list.kind, id: parts.joined(separator: " "))
                guard records[key] == nil else { throw CalendarStoreError(.io, "two records of the book are both \(key); neither can be stored") }
                records[key] = body
            }
        }
        gym.append(UInt8(ascii: "}"))
        if aside.isEmpty {
            records[gymKey] = Data(gym)
        } else {
            records[gymKey] = try gymRecord(members.filter { listFields[$0.key] == nil }, of: text, settingAside: aside, encoder: encoder)
        }
        return records
    }

    /// A partial book's gym record: its members, with the class sequences
    /// set aside merged into its own, in the order the book's encoder puts
    /// the keys (asked of the encoder itself), so that the record has the
    /// bytes the whole book gives it and is not written again for nothing.
    private static func gymRecord(_ members: [JSONText<[UInt8]>.Member], of text: JSONText<[UInt8]>, settingAside aside: [String: Any], encoder: JSONEncoder) throws -> Data {
        var sequences: [String: Int] = [:]
        if let own = members.first(where: { $0.key == "classSequences" }) {
            sequences = try JSONDecoder().decode([String: Int].self, from: Data(text.bytes[own.value]))
        }
        for (id, n) in aside where sequences[id] == nil {
            guard let n = n as? Int else { throw CalendarStoreError(.io, "the class sequence of \(id) is not a number; the book cannot be stored") }
            sequences[id] = n
        }
        var parts: [String: [UInt8]] = [:]
        for member in members where member.key != "classSequences" { parts[member.key] = Array(text.bytes[member.whole]) }
        parts["classSequences"] = Array(#""classSequences":"#.utf8) + Array(try encoder.encode(sequences))
        // The encoder's own order of these keys.
        let probe = JSONText(bytes: Array(try encoder.encode(Dictionary(uniqueKeysWithValues: parts.keys.map { ($0, 0) }))))
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (i, member) in try probe.members(at: 0).enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: parts[member.key] ?? [])
        }
        out.append(UInt8(ascii: "}"))
        return Data(out)
    }

    /// The book the records make.
    /// - Parameter newZone: the zone of a book with no records yet.
    static func book(from records: [StoredRecord], newZone: String) throws -> SchedulingBook {
        try partialBook(from: records, newZone: newZone).book
    }

    /// The book some of the records make: the `gym` record's class
    /// sequences of classes not among them are set aside (the decoder
    /// refuses a sequence of a class it does not hold), to be put back by
    /// ``records(of:aside:)``.
    static func partialBook(from records: [StoredRecord], newZone: String) throws -> (book: SchedulingBook, aside: [String: Any]) {
        guard !records.isEmpty else { return (SchedulingBook(timeZone: try ZoneRules.named(newZone)), [:]) }
        // The book's JSON text is put together from the records' own texts: the
        // gym record's object, with each list's elements spliced in as they
        // are. Only the gym record is parsed here; the decoder reads the rest
        // once. (Parsing every record and writing the whole book out again
        // was half of a 20-year gym's `month` on SQLite: measured with perf.)
        var whole: [String: Any]?
        var lists: [String: [Data]] = [:]
        let fields = Dictionary(uniqueKeysWithValues: Self.lists.map { ($0.kind, $0.field) })
        for record in records {
            if record.key == gymKey {
                guard let object = try JSONSerialization.jsonObject(with: record.body) as? [String: Any] else {
                    throw CalendarStoreError(.badResponse, "the gym record (\(gymKey)) is not a JSON object")
                }
                whole = object
            } else if let field = fields[record.key.kind] {
                // Spliced as it is, so it must be one object and nothing else.
                guard isOneObject(record.body) else {
                    throw CalendarStoreError(.badResponse, "record \(record.key) is not one JSON object; the book cannot be read")
                }
                lists[field, default: []].append(record.body)
            } else {
                throw CalendarStoreError(.badResponse, "record \(record.key) is of a kind this library does not know (a newer Horari wrote it?)")
            }
        }
        guard var whole, whole["schema"] != nil else { throw CalendarStoreError(.badResponse, "the store holds records but no gym record (\(gymKey)); it is not a book") }
        var aside: [String: Any] = [:]
        if var sequences = whole["classSequences"] as? [String: Any] {
            let held = Set(records.filter { $0.key.kind == "class" }.map(\.key.id))
            for id in sequences.keys where !held.contains(id) { aside[id] = sequences.removeValue(forKey: id) }
            whole["classSequences"] = sequences.isEmpty ? nil : sequences
        }
        for list in Self.lists { whole.removeValue(forKey: list.field) }
        var text = [UInt8](try JSONSerialization.data(withJSONObject: whole))
        guard text.last == UInt8(ascii: "}") else { throw CalendarStoreError(.badResponse, "the gym record (\(gymKey)) is not a JSON object") }
        text.removeLast()
        var first = whole.isEmpty
        for list in Self.lists {
            text.append(contentsOf: Array((first ? "" : ",").utf8) + Array("\"\(list.field)\":[".utf8))
            first = false
            for (i, body) in (lists[list.field] ?? []).enumerated() {
                if i > 0 { text.append(UInt8(ascii: ",")) }
                text.append(contentsOf: body)
            }
            text.append(UInt8(ascii: "]"))
        }
        text.append(UInt8(ascii: "}"))
        return (try JSONDecoder().decode(SchedulingBook.self, from: Data(text)), aside)
    }

    /// Whether `body` is one JSON object, with nothing before or after it
    /// but white space: braces and brackets balanced outside strings, and
    /// closed only at its end. (Not a full check of its JSON: the decoder
    /// reads it next, and refuses what is not.)
    static func isOneObject(_ body: Data) -> Bool {
        let text = JSONText(bytes: body)
        let start = text.space(body.startIndex)
        guard start < body.endIndex, body[start] == UInt8(ascii: "{"), let end = try? text.value(start) else { return false }
        return text.space(end) == body.endIndex
    }

    /// The writes that take a store from `old` to `new`: what changed, what is new, what is gone.
    static func writes(from old: [StoredRecord], to new: [RecordKey: Data]) -> [BookCommit.Write] {
        var writes: [BookCommit.Write] = []
        var oldBodies: [RecordKey: Data] = [:]
        for record in old { oldBodies[record.key] = record.body }
        for (key, body) in new where oldBodies[key] != body { writes.append(.init(key: key, body: body)) }
        for key in oldBodies.keys where new[key] == nil { writes.append(.init(key: key, body: nil)) }
        return writes.sorted { $0.key < $1.key }
    }
}

/// A JSON text as bytes, cut at its structure without being parsed into
/// values: the members of an object and the elements of an array, as byte
/// ranges (strings and their escapes are skipped whole). Generic over the
/// bytes, so that a record's `Data` is read where it is, not copied.
struct JSONText<Bytes: RandomAccessCollection> where Bytes.Element == UInt8, Bytes.Index == Int {
    let bytes: Bytes

    /// A member of the top-level object: its key, its value's bytes, and the
    /// whole `"key":value`.
    struct Member {
        var key: String
        var value: Range<Int>
        var whole: Range<Int>
    }

    /// The members of the object that starts at `start`, in the text's order.
    func members(at start: Int) throws -> [Member] {
        var i = space(start)
        try expect(UInt8(ascii: "{"), at: i)
        i = space(i + 1)
        var members: [Member] = []
        if i < bytes.endIndex, bytes[i] == UInt8(ascii: "}") { return members }
        while true {
            try expect(UInt8(ascii: "\""), at: i)
            let keyEnd = try string(i)
            guard let key = try string(in: i..<keyEnd) else { throw malformed }
            var j = space(keyEnd)
            try expect(UInt8(ascii: ":"), at: j)
            j = space(j + 1)
            let valueEnd = try value(j)
            members.append(Member(key: key, value: j..<valueEnd, whole: i..<valueEnd))
            i = space(valueEnd)
            guard i < bytes.endIndex else { throw malformed }
            if bytes[i] == UInt8(ascii: "}") { return members }
            try expect(UInt8(ascii: ","), at: i)
            i = space(i + 1)
        }
    }

    /// The elements of the array in `range`.
    func elements(in range: Range<Int>) throws -> [Range<Int>] {
        var i = space(range.lowerBound)
        try expect(UInt8(ascii: "["), at: i)
        i = space(i + 1)
        var elements: [Range<Int>] = []
        if i < bytes.endIndex, bytes[i] == UInt8(ascii: "]") { return elements }
        while true {
            let end = try value(i)
            elements.append(i..<end)
            i = space(end)
            guard i < range.upperBound else { throw malformed }
            if bytes[i] == UInt8(ascii: "]") { return elements }
            try expect(UInt8(ascii: ","), at: i)
            i = space(i + 1)
        }
    }

    /// The string value in `range`; `nil` when it is not a string.
    func string(in range: Range<Int>) throws -> String? {
        guard range.count >= 2, bytes[range.lowerBound] == UInt8(ascii: "\""), bytes[range.upperBound - 1] == UInt8(ascii: "\"") else { return nil }
        let inside = bytes[(range.lowerBound + 1)..<(range.upperBound - 1)]
        if !inside.contains(UInt8(ascii: "\\")) { return String(decoding: inside, as: UTF8.self) }
        return try JSONDecoder().decode(String.self, from: Data(bytes[range]))
    }

    private var malformed: CalendarStoreError { CalendarStoreError(.io, "the book's JSON form could not be cut into records") }

    private func expect(_ byte: UInt8, at i: Int) throws {
        guard i < bytes.endIndex, bytes[i] == byte else { throw malformed }
    }

    /// The first position from `i` on that is not white space.
    func space(_ i: Int) -> Int {
        var i = i
        while i < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        return i
    }

    /// Past the string that opens at `i`.
    private func string(_ i: Int) throws -> Int {
        var j = i + 1
        while j < bytes.endIndex {
            switch bytes[j] {
            case UInt8(ascii: "\\"): j += 2
            case UInt8(ascii: "\""): return j + 1
            default: j += 1
            }
        }
        throw malformed
    }

    /// Past the value that starts at `i`.
    func value(_ i: Int) throws -> Int {
        guard i < bytes.endIndex else { throw malformed }
        switch bytes[i] {
        case UInt8(ascii: "\""):
            return try string(i)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0, j = i
            while j < bytes.endIndex {
                switch bytes[j] {
                case UInt8(ascii: "\""):
                    j = try string(j)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return j + 1 }
                default: break
                }
                j += 1
            }
            throw malformed
        default:
            var j = i
            while j < bytes.endIndex, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D].contains(bytes[j]) { j += 1 }
            guard j > i else { throw malformed }
            return j
        }
    }
}
