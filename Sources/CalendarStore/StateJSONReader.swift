import Foundation
import ICalendarKit

/// Reads a collection cache's `state.json` (``CollectionStore/State``)
/// straight from its bytes, without `JSONDecoder`'s keyed containers:
/// for 10,000 members (2 MB) those were a ninth of an unchanged sync's
/// CPU (issue 42, 2), for a table of three fields a member.
///
/// The file stays JSON, written by `JSONEncoder` as before, so a cache is
/// read alike by earlier and later versions, by the conformance checks
/// and by a person. This reader takes any JSON of that shape (keys in any
/// order, any spacing and escapes), reads `pending` and `lostUpdates` —
/// small, and rare — with `JSONDecoder`, and gives up (`nil`) on anything
/// else: a key it does not know, a value of another type, text that is
/// not UTF-8, a number where a string goes. `readState` then asks
/// `JSONDecoder`, so that this reader can only be faster, never read a
/// state otherwise (a test compares the two on states of every shape).
struct StateJSONReader {
    /// The cursor, and the string reading (the package's one).
    private var json: JSONReader
    /// The reader's bytes (the same storage), held here too: read through
    /// `json` each time, every look at a byte retained and released them.
    private let bytes: [UInt8]
    private var at: Int {
        get { json.i }
        set { json.i = newValue }
    }

    /// The state in `bytes`, or `nil` when it is not a state this reader takes.
    static func state(_ bytes: [UInt8]) -> CollectionStore.State? {
        // A byte order mark is not JSON (JSONReader steps over one; JSONDecoder refuses it).
        guard !bytes.starts(with: [0xEF, 0xBB, 0xBF]) else { return nil }
        var reader = StateJSONReader(json: JSONReader(bytes: bytes))
        guard let state = reader.state() else { return nil }
        reader.skipSpace()
        return reader.at == bytes.count ? state : nil
    }

    private init(json: JSONReader) {
        self.json = json
        bytes = json.bytes
    }

    private mutating func state() -> CollectionStore.State? {
        var collection: String?
        // Those JSONDecoder requires (the optionals may be left out).
        var members = false, pending = false
        var state = CollectionStore.State(collection: "")
        // A key given twice (or an href twice, in any Unicode form) is refused: JSONDecoder keeps the first.
        var seen: Set<String> = []
        let read = object { key, reader in
            guard seen.insert(key).inserted else { return false }
            switch key {
            case "collection": collection = reader.string(); return collection != nil
            case "syncToken": return reader.optional { $0.string() }.map { state.syncToken = $0 } != nil
            case "members":
                members = true
                return reader.object { href, reader in
                    guard state.members[href] == nil, let member = reader.member() else { return false }
                    state.members[href] = member
                    return true
                }
            case "pending":
                pending = true
                return reader.decoded([CollectionStore.PendingWrite].self).map { state.pending = $0 } != nil
            case "lostUpdates": return reader.optional { $0.decoded(LostUpdatesSeen.self) }.map { state.lostUpdates = $0 } != nil
            default: return false
            }
        }
        guard read, let collection, members, pending else { return nil }
        state.collection = collection
        return state
    }

    private mutating func member() -> CollectionStore.State.Member? {
        var etag: String?, file: String?, uids: [String]?
        var seen = (etag: false, file: false, uids: false)
        let read = object { key, reader in
            switch key {
            case "etag" where seen.etag, "file" where seen.file, "uids" where seen.uids: return false
            case "etag": seen.etag = true; return reader.optional { $0.string() }.map { etag = $0 } != nil
            case "file": seen.file = true; file = reader.string(); return file != nil
            case "uids": seen.uids = true; return reader.optional { $0.strings() }.map { uids = $0 } != nil
            default: return false
            }
        }
        guard read, let file else { return nil }
        return CollectionStore.State.Member(etag: etag, file: file, uids: uids)
    }

    // MARK: JSON

    private mutating func skipSpace() { json.skipSpace() }

    /// Takes `byte` (after any space) when it is next.
    private mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard at < bytes.count, bytes[at] == byte else { return false }
        at += 1
        return true
    }

    /// An object, each key and its value given to `value`, which reads the value and says whether it could.
    private mutating func object(_ value: (String, inout StateJSONReader) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            guard let key = string(), take(UInt8(ascii: ":")), value(key, &self) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    /// `null` (read as `.some(nil)`), else what `read` reads; `nil` when neither.
    private mutating func optional<T>(_ read: (inout StateJSONReader) -> T?) -> T?? {
        skipSpace()
        if bytes[at...].starts(with: Self.null) {
            at += Self.null.count
            return .some(nil)
        }
        return read(&self).map { .some($0) }
    }

    private static let null = Array("null".utf8)

    private mutating func strings() -> [String]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var all: [String] = []
        if take(UInt8(ascii: "]")) { return all }
        repeat {
            guard let s = string() else { return nil }
            all.append(s)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? all : nil
    }

    /// A string (``JSONReader``'s reading of one); `nil` for anything else, or text that is not UTF-8.
    private mutating func string() -> String? {
        skipSpace()
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { return nil }
        return try? json.string()
    }

    /// A value (of any JSON type) read by `JSONDecoder` as `type`.
    private mutating func decoded<T: Decodable>(_ type: T.Type) -> T? {
        skipSpace()
        let start = at
        guard json.skipValue() else { return nil }
        return try? JSONDecoder().decode(type, from: Data(bytes[start..<at]))
    }
}
