import CalendarCore
import Testing
import _CalendarTestSupport
@testable import ICalendarKit

/// TEXT escaping is done on bytes for speed; its results must be those of the
/// character-by-character reading it replaced, grapheme clusters included.
@Suite("TEXT escapes on bytes read as they did by character")
struct TextEscapingTests {
    /// The reading by `Character` the byte path must agree with (the code as it was).
    static func referenceUnescape(_ s: Substring) -> String {
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

    static func referenceEscape(_ s: String) -> String {
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

    /// Pieces that meet escapes in every way that matters: combining marks
    /// after them (`\u{301}`), a prepended mark before them (`\u{600}`, Arabic
    /// number sign), a zero-width joiner, CR LF, emoji and plain accents.
    static let pieces = ["\\", ";", ",", "n", "N", "\n", "\r", "\r\n", "\u{301}", "\u{600}", "\u{200D}", "é", "e", "👍🏽", "\u{93F}", "a", " "]

    @Test("Hand-picked values, with clusters around the escapes")
    func handPicked() {
        let values = [
            #"plain"#, #"a\,b\;c\\d\ne\Nf"#, "\\", "end\\", #"\n\u{301}"#, "\\n\u{301}x", "\u{600}\\n", "\\\u{301}n", "café\\, bar",
            "x\\é", "\\\r\n", ",\u{301}", "\u{600},", "a\r\nb", "a\rb", "line\nbreak", "😀\\,😀", "\\\\\u{301}",
        ]
        for v in values {
            #expect(ContentLineSyntax.unescape(Substring(v)) == Self.referenceUnescape(Substring(v)), "unescape \(v.debugDescription)")
            #expect(ContentWriter.escape(v) == Self.referenceEscape(v), "escape \(v.debugDescription)")
        }
    }

    @Test("Random strings of those pieces")
    func random() {
        var generator = SplitMix64(seed: 19)
        for _ in 0..<20_000 {
            let count = Int.random(in: 1...8, using: &generator)
            var v = ""
            for _ in 0..<count { v += Self.pieces[Int.random(in: 0..<Self.pieces.count, using: &generator)] }
            #expect(ContentLineSyntax.unescape(Substring(v)) == Self.referenceUnescape(Substring(v)), "unescape \(v.debugDescription)")
            #expect(ContentWriter.escape(v) == Self.referenceEscape(v), "escape \(v.debugDescription)")
            var w = ContentWriter()
            w.line("DESCRIPTION", text: v)
            var r = ContentWriter()
            r.line("DESCRIPTION", value: Self.referenceEscape(v))
            #expect(w.bytes == r.bytes, "written \(v.debugDescription)")
        }
    }

    @Test("a TEXT line is written escaped and read back as it was")
    func textLines() {
        let line = ContentLine(name: "X-WR-CALNAME", text: "Gimnàs, Sants; sala\\1\nplanta 2")
        #expect(line.value == "Gimnàs\\, Sants\\; sala\\\\1\\nplanta 2")
        #expect(line.textValue == "Gimnàs, Sants; sala\\1\nplanta 2")
    }
}
