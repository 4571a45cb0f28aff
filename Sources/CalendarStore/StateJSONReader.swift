import Foundation

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
    private let bytes: [UInt8]
    private var at = 0

    /// The state in `bytes`, or `nil` when it is not a state this reader takes.
    static func state(_ bytes: [UInt8]) -> CollectionStore.State? {
        var reader = StateJSONReader(bytes: bytes)
        guard let state = reader.state() else { return nil }
        reader.skipSpace()
        return reader.at == bytes.count ? state : nil
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func state() -> CollectionStore.State? {
        var collection: String?
        // Those JSONDecoder requires (the optionals may be left out).
        var members = false, pending = false
        var state = CollectionStore.State(collection: "")
        let read = object { key, reader in
            switch key {
            case "collection": collection = reader.string(); return collection != nil
            case "syncToken": return reader.optional { $0.string() }.map { state.syncToken = $0 } != nil
            case "members":
                members = true
                return reader.object { href, reader in
                    guard let member = reader.member() else { return false }
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
        let read = object { key, reader in
            switch key {
            case "etag": return reader.optional { $0.string() }.map { etag = $0 } != nil
            case "file": file = reader.string(); return file != nil
            case "uids": return reader.optional { $0.strings() }.map { uids = $0 } != nil
            default: return false
            }
        }
        guard read, let file else { return nil }
        return CollectionStore.State.Member(etag: etag, file: file, uids: uids)
    }

    // MARK: JSON

    private mutating func skipSpace() {
        while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
    }

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

    /// A string, its escapes read (RFC 8259 §7); `nil` for anything else, or text that is not UTF-8.
    private mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = at
        while at < bytes.count, bytes[at] != UInt8(ascii: "\""), bytes[at] != UInt8(ascii: "\\"), bytes[at] >= 0x20 { at += 1 }
        guard at < bytes.count else { return nil }
        if bytes[at] == UInt8(ascii: "\"") {
            at += 1
            return String(validating: bytes[start..<(at - 1)], as: UTF8.self)
        }
        var text = Array(bytes[start..<at])
        while at < bytes.count {
            let byte = bytes[at]
            at += 1
            switch byte {
            case UInt8(ascii: "\""): return String(validating: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard at < bytes.count else { return nil }
                let escaped = bytes[at]
                at += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "u"):
                    guard var scalar = hex4() else { return nil }
                    if (0xD800..<0xDC00).contains(scalar) {
                        // A pair: the low half must follow.
                        guard bytes[at...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else { return nil }
                        at += 2
                        guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { return nil }
                    UTF8.encode(unicode) { text.append($0) }
                default: return nil
                }
            case 0..<0x20: return nil
            default: text.append(byte)
            }
        }
        return nil
    }

    private mutating func hex4() -> UInt32? {
        guard bytes.count - at >= 4, let value = UInt32(String(decoding: bytes[at..<(at + 4)], as: UTF8.self), radix: 16) else { return nil }
        at += 4
        return value
    }

    /// A value (of any JSON type) read by `JSONDecoder` as `type`.
    private mutating func decoded<T: Decodable>(_ type: T.Type) -> T? {
        skipSpace()
        let start = at
        guard skipValue() else { return nil }
        return try? JSONDecoder().decode(type, from: Data(bytes[start..<at]))
    }

    /// Steps over one value of any type; `false` when it is not one.
    private mutating func skipValue() -> Bool {
        skipSpace()
        guard at < bytes.count else { return false }
        switch bytes[at] {
        case UInt8(ascii: "\""): return string() != nil
        case UInt8(ascii: "{"): return object { _, reader in reader.skipValue() }
        case UInt8(ascii: "["):
            at += 1
            if take(UInt8(ascii: "]")) { return true }
            repeat { guard skipValue() else { return false } } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]"))
        default:
            // A number, true, false or null: JSONDecoder says whether it is one.
            let start = at
            while at < bytes.count, !([0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}")].contains(bytes[at])) { at += 1 }
            return at > start
        }
    }
}
