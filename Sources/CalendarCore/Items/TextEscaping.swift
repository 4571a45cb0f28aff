import Foundation

/// TEXT escapes (RFC 5545 §3.3.11) done on UTF-8 bytes, with the result the
/// character-by-character reading gives.
///
/// The importer and the exporter used to walk TEXT values by `Character`
/// (grapheme cluster), which cost the 50,000-event benchmark a quarter of its
/// import. Byte by byte is the same wherever every escape-relevant ASCII
/// character is a cluster of its own: CR and LF always are (a control breaks
/// clusters on both sides, but for CR LF, which both readings treat alike),
/// and `\`, `;` and `,` are whenever their neighbouring bytes are ASCII (only
/// a non-ASCII scalar can extend a cluster or prepend to one). When that does
/// not hold these functions return `nil` and the caller takes the
/// character-by-character path, so no output byte changes.
package enum TextEscaping {
    /// `\\`, `\;`, `\,`, `\n`/`\N` undone, or `nil` when a backslash, or the
    /// character it escapes, shares a cluster with a neighbouring scalar.
    package static func unescapedBytes(_ text: Substring.UTF8View) -> [UInt8]? {
        if let done = text.withContiguousStorageIfAvailable({ unescapedBytes($0) }) { return done }
        return Array(text).withUnsafeBufferPointer { unescapedBytes($0) }
    }

    private static func unescapedBytes(_ b: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let n = b.count
        var out: [UInt8] = []
        out.reserveCapacity(n)
        var i = 0
        while i < n {
            let c = b[i]
            guard c == 0x5C else {
                out.append(c)
                i += 1
                continue
            }
            guard i + 1 < n else {
                guard isBreak(b, at: i) else { return nil }
                out.append(0x5C)  // a lone backslash at the end is kept
                break
            }
            let e = b[i + 1]
            // The backslash and the character it escapes are clusters of their
            // own (an `n` with a combining mark is not a line break).
            guard isBreak(b, at: i), isBreak(b, at: i + 1), e >= 0x80 || isBreak(b, at: i + 2) else { return nil }
            out.append(e == 0x6E || e == 0x4E ? 0x0A : e)
            i += 2
        }
        return out
    }

    /// Whether a value needs TEXT escaping at all.
    package static func needsEscaping(_ text: String.UTF8View) -> Bool {
        text.contains { $0 == 0x5C || $0 == 0x3B || $0 == 0x2C || $0 == 0x0A || $0 == 0x0D }
    }

    /// Appends `text` escaped (`\`, `;`, `,` and a line break escaped, a lone
    /// CR dropped) to `out`; `false`, with `out` unchanged, when `\`, `;` or
    /// `,` shares a cluster with a neighbouring scalar.
    package static func appendEscaped(_ text: String.UTF8View, to out: inout [UInt8]) -> Bool {
        let start = out.count
        let done = text.withContiguousStorageIfAvailable { appendEscaped($0, to: &out) }
            ?? Array(text).withUnsafeBufferPointer { appendEscaped($0, to: &out) }
        if !done { out.removeSubrange(start...) }
        return done
    }

    private static func appendEscaped(_ b: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) -> Bool {
        let n = b.count
        out.reserveCapacity(out.count + n + n / 8)
        for i in 0..<n {
            let c = b[i]
            switch c {
            case 0x5C, 0x3B, 0x2C:
                guard isBreak(b, at: i), isBreak(b, at: i + 1) else { return false }
                out.append(0x5C)
                out.append(c)
            case 0x0A:
                out.append(0x5C)
                out.append(0x6E)
            case 0x0D:
                break  // alone it is dropped; before LF, the LF writes the break
            default:
                out.append(c)
            }
        }
        return true
    }

    /// Whether a cluster boundary lies before the byte at `j` (which starts a
    /// scalar): always between two ASCII bytes but CR LF; otherwise the two
    /// scalars are asked (whether two scalars join depends on them alone
    /// when one is ASCII: Unicode's rules GB3–GB9b and GB999).
    package static func isBreak(_ b: UnsafeBufferPointer<UInt8>, at j: Int) -> Bool {
        guard j > 0, j < b.count else { return true }
        let x = b[j - 1], y = b[j]
        if x < 0x80, y < 0x80 { return !(x == 0x0D && y == 0x0A) }
        var s = j - 1
        while s > 0, j - s < 4, b[s] & 0xC0 == 0x80 { s -= 1 }
        let length = y < 0x80 ? 1 : y >= 0xF0 ? 4 : y >= 0xE0 ? 3 : 2
        let e = min(b.count, j + length)
        return String(decoding: UnsafeBufferPointer(rebasing: b[s..<e]), as: UTF8.self).count == 2
    }

    /// Undoes TEXT escapes: `\\`, `\;`, `\,`, `\n`/`\N`.
    package static func unescape(_ s: Substring) -> String {
        guard s.utf8.contains(0x5C) else { return String(s) }  // not `contains("\\")`: Foundation's, and slow
        if let bytes = unescapedBytes(s.utf8) { return String(decoding: bytes, as: UTF8.self) }
        // A backslash inside a cluster of several scalars (`\` after a
        // prepended mark, before a combining one): read character by character,
        // as it always was.
        var out = ""
        var escaping = false
        for c in s {
            if escaping {
                out.append(c == "n" || c == "N" ? "\n" : c)
                escaping = false
            } else if c == "\\" {
                escaping = true
            } else {
                out.append(c)
            }
        }
        if escaping { out.append("\\") }
        return out
    }

    /// `s` as a TEXT value: `\\`, `;`, `,` and line breaks escaped, a lone CR dropped.
    package static func escaped(_ s: String) -> String {
        guard needsEscaping(s.utf8) else { return s }
        var bytes: [UInt8] = []
        if appendEscaped(s.utf8, to: &bytes) { return String(decoding: bytes, as: UTF8.self) }
        // `\`, `;` or `,` in a cluster with a combining mark: character by character.
        var out = ""
        for c in s {
            switch c {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n", "\r\n": out += "\\n"
            case "\r": break
            default: out.append(c)
            }
        }
        return out
    }
}
