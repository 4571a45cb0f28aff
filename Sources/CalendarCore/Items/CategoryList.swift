import Foundation

/// An item's categories in one string, so the usual one or two short tags
/// take no allocation at all (a string of up to 15 bytes is stored inline):
/// as `[String]` they cost an array each, 3.5 MB of the 50,000-event import.
///
/// The text is each category after a `,`, with `\` and `,` inside a category
/// written `\\` and `\,`: `[]` is `""`, `[""]` is `","`, `["Gym", "a,b"]`
/// is `",Gym,a\,b"`, so every list has exactly one text. It encodes as the
/// array it stands for.
struct CategoryList: Hashable, Sendable, Codable {
    private var text: String

    /// Whether the list has no category (`[]`; `[""]` has one).
    var isEmpty: Bool { text.isEmpty }

    init(_ values: [String]) {
        var t = ""
        for v in values {
            t.append(",")
            if v.utf8.contains(where: { $0 == 0x5C || $0 == 0x2C }) {
                for c in v.unicodeScalars {
                    if c == "\\" || c == "," { t.unicodeScalars.append("\\") }
                    t.unicodeScalars.append(c)
                }
            } else {
                t.append(v)
            }
        }
        text = t
    }

    var values: [String] {
        guard !text.isEmpty else { return [] }
        if !text.utf8.contains(0x5C) {
            return text.utf8.dropFirst().split(separator: 0x2C, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        }
        var out: [String] = []
        var current = ""
        var escaping = false
        for c in text.unicodeScalars.dropFirst() {
            if escaping {
                current.unicodeScalars.append(c)
                escaping = false
            } else if c == "\\" {
                escaping = true
            } else if c == "," {
                out.append(current)
                current = ""
            } else {
                current.unicodeScalars.append(c)
            }
        }
        out.append(current)
        return out
    }

    init(from decoder: any Decoder) throws { self.init(try [String](from: decoder)) }

    func encode(to encoder: any Encoder) throws { try values.encode(to: encoder) }
}
