import Foundation

/// RFC 2047 encoded words (`=?UTF-8?Q?Eve=0D=0A?=`), as a mail program
/// decodes them in a `To:` or `Subject:` header.
///
/// Not API: the book refuses a person's name whose encoded words stand for a
/// line break (`SchedulingBook`), and `IMIPMessage` refuses such a name and
/// writes any text holding `=?` as encoded words of its own, so that what a
/// person typed is shown as typed and never read as a header (issue 41, 12).
package enum EncodedWords {
    /// Whether `text` holds something a mail program may decode as an
    /// encoded word: `=?` followed, later, by `?=`.
    package static func mayHoldAny(_ text: String) -> Bool {
        guard let open = text.range(of: "=?") else { return false }
        return text[open.upperBound...].contains("?=")
    }

    /// `text` with each well-formed encoded word (RFC 2047 §2: `=?charset?B?…?=`
    /// or `=?charset?Q?…?=`, a language after `*` allowed) replaced by what
    /// it decodes to, as UTF-8 with a lossy fallback. Anything else is kept.
    package static func decoded(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.range(of: "=?") {
            out += rest[..<open.lowerBound]
            let after = rest[open.upperBound...]
            let parts = after.split(separator: "?", maxSplits: 3, omittingEmptySubsequences: false)
            // charset, encoding, text, and what follows the closing "?=".
            guard parts.count == 4, parts[3].hasPrefix("="), !parts[0].isEmpty, !parts[2].contains(" "),
                  let bytes = decode(parts[2], encoding: parts[1].uppercased()) else {
                out += "=?"
                rest = after
                continue
            }
            out += String(decoding: bytes, as: UTF8.self)
            rest = parts[3].dropFirst()
        }
        return out + rest
    }

    /// Whether an encoded word in `text` stands for a line break or another
    /// control character.
    package static func standForAControlCharacter(_ text: String) -> Bool {
        mayHoldAny(text) && decoded(text).unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    private static func decode(_ text: Substring, encoding: String) -> [UInt8]? {
        switch encoding {
        case "B":
            var padded = String(text)
            while padded.utf8.count % 4 != 0 { padded += "=" }
            return Data(base64Encoded: padded).map { [UInt8]($0) }
        case "Q":
            var bytes: [UInt8] = []
            var i = text.utf8.startIndex
            let utf8 = text.utf8
            while i != utf8.endIndex {
                let c = utf8[i]
                if c == UInt8(ascii: "_") {
                    bytes.append(0x20)
                } else if c == UInt8(ascii: "=") {
                    let h = utf8.index(after: i)
                    guard h != utf8.endIndex, utf8.index(after: h) != utf8.endIndex,
                          let hi = hex(utf8[h]), let lo = hex(utf8[utf8.index(after: h)]) else { return nil }
                    bytes.append(hi << 4 | lo)
                    i = utf8.index(after: utf8.index(after: h))
                    continue
                } else {
                    bytes.append(c)
                }
                i = utf8.index(after: i)
            }
            return bytes
        default:
            return nil
        }
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
