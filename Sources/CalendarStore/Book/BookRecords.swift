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
    package static func records(of book: SchedulingBook, aside: [String: Any] = [:]) throws -> [RecordKey: Data] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard var whole = try JSONSerialization.jsonObject(with: encoder.encode(book)) as? [String: Any] else {
            throw CalendarStoreError(.io, "the book's JSON form is not an object")
        }
        var records: [RecordKey: Data] = [:]
        for list in lists {
            for case let element as [String: Any] in whole.removeValue(forKey: list.field) as? [Any] ?? [] {
                let parts = list.id.compactMap { element[$0] as? String }
                guard parts.count == list.id.count, !parts.contains(where: \.isEmpty) else {
                    throw CalendarStoreError(.io, "a \(list.kind) of the book has no \(list.id.joined(separator: " and ")); it cannot be stored")
                }
                let key = RecordKey(kind: list.kind, id: parts.joined(separator: " "))
                guard records[key] == nil else { throw CalendarStoreError(.io, "two records of the book are both \(key); neither can be stored") }
                records[key] = try data(element)
            }
        }
        if !aside.isEmpty {
            var sequences = whole["classSequences"] as? [String: Any] ?? [:]
            sequences.merge(aside) { ours, _ in ours }
            whole["classSequences"] = sequences
        }
        records[gymKey] = try data(whole)
        return records
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
        let space: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        guard let start = body.firstIndex(where: { !space.contains($0) }), let end = body.lastIndex(where: { !space.contains($0) }),
              body[start] == UInt8(ascii: "{") else { return false }
        var depth = 0, inString = false, escaped = false
        for i in start...end {
            let byte = body[i]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth < 0 || (depth == 0 && i != end) { return false }
            default: break
            }
        }
        return depth == 0 && !inString
    }

    private static func data(_ value: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
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
