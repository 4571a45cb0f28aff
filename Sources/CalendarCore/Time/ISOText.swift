import Foundation

/// The ISO 8601 text forms the library's `Codable` values use, and that the
/// `horari` CLI's JSON (schema 1, `Docs/JSONSchema.md`) is made of:
///
/// | value | text |
/// |---|---|
/// | `LocalDate` | `2026-11-25` |
/// | `LocalDateTime` | `2026-11-25T18:30:00` (a wall reading, no offset) |
/// | ``CalendarTime/date(_:)`` | `2026-11-25` |
/// | ``CalendarTime/floating(_:)`` | `2026-11-25T18:30:00` |
/// | ``CalendarTime/utc(_:)`` | `2026-11-25T17:30:00Z` |
/// | ``CalendarTime/zoned(_:_:)`` | `2026-11-25T18:30:00+01:00[Europe/Madrid]` (RFC 9557) |
/// | an instant on a display clock | `2026-11-25T18:30:00+01:00` (RFC 3339) |
///
/// A zoned time is a wall time in its zone, so when it is read back the
/// bracketed zone decides and the offset, written for readers that know no
/// zones, is not needed (a repeated wall time is the first, RFC 5545 §3.3.5).
package enum ISOText {
    /// `±HH:MM`, or `±HH:MM:SS` for an offset with seconds (old local mean times).
    package static func offset(_ seconds: Int64) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let a = abs(seconds)
        var text = sign + String(format2: Int(a / 3600)) + ":" + String(format2: Int(a / 60 % 60))
        if a % 60 != 0 { text += ":" + String(format2: Int(a % 60)) }
        return text
    }

    /// An instant as a wall reading with its offset: `2026-11-25T18:30:00+01:00`.
    package static func instant(wall: LocalDateTime, seconds: Int64) -> String {
        wall.description + offset(wall.localSeconds - seconds)
    }

    // The same texts as bytes appended to a buffer, for a writer of many
    // (a JSON stream): what `description`, `offset(_:)` and
    // `instant(wall:seconds:)` write, with no string made (tested against them).

    /// Appends `String(format2:)`'s text of `value`.
    private static func append2(_ value: Int, to out: inout [UInt8]) {
        guard value >= 0, value < 100 else { return out.append(contentsOf: String(format2: value).utf8) }
        out.append(0x30 + UInt8(value / 10))
        out.append(0x30 + UInt8(value % 10))
    }

    /// Appends a date as `LocalDate.description` writes it: `2026-11-25`.
    package static func append(_ date: LocalDate, to out: inout [UInt8]) {
        let year = date.year
        if year >= 0, year < 10_000 {
            out.append(0x30 + UInt8(year / 1000))
            out.append(0x30 + UInt8(year / 100 % 10))
            out.append(0x30 + UInt8(year / 10 % 10))
            out.append(0x30 + UInt8(year % 10))
        } else {
            out.append(contentsOf: String(format4: year).utf8)
        }
        out.append(0x2D)
        append2(date.month, to: &out)
        out.append(0x2D)
        append2(date.day, to: &out)
    }

    /// Appends a wall time as `LocalDateTime.description` writes it: `2026-11-25T18:30:00`.
    package static func append(_ wall: LocalDateTime, to out: inout [UInt8]) {
        append(wall.date, to: &out)
        out.append(0x54)
        append2(wall.hour, to: &out)
        out.append(0x3A)
        append2(wall.minute, to: &out)
        out.append(0x3A)
        append2(wall.second, to: &out)
    }

    /// Appends ``offset(_:)``'s text.
    package static func appendOffset(_ seconds: Int64, to out: inout [UInt8]) {
        out.append(seconds < 0 ? 0x2D : 0x2B)
        let a = seconds.magnitude
        append2(Int(a / 3600), to: &out)
        out.append(0x3A)
        append2(Int(a / 60 % 60), to: &out)
        if a % 60 != 0 {
            out.append(0x3A)
            append2(Int(a % 60), to: &out)
        }
    }

    /// Appends ``instant(wall:seconds:)``'s text.
    package static func appendInstant(wall: LocalDateTime, seconds: Int64, to out: inout [UInt8]) {
        append(wall, to: &out)
        appendOffset(wall.localSeconds - seconds, to: &out)
    }

    /// Appends `text` as a JSON string: `"` and `\` escaped, `\b \f \n \r \t`
    /// for those controls and `\u00xx` (lower case) for the others, every
    /// other byte as it is. What swift-foundation's `JSONEncoder` writes with
    /// `.withoutEscapingSlashes`, and Python's `json.dumps(ensure_ascii=False)`:
    /// the one escaper of the CLI's JSON lines and of the occurrences' JSON.
    package static func appendJSONString(_ text: String, to out: inout [UInt8]) {
        out.append(0x22)
        // Most text needs no escape: copied at once.
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if plain != true {
            for byte in text.utf8 {
                switch byte {
                case 0x22: out += [0x5C, 0x22]
                case 0x5C: out += [0x5C, 0x5C]
                case 0x0A: out += [0x5C, 0x6E]
                case 0x0D: out += [0x5C, 0x72]
                case 0x09: out += [0x5C, 0x74]
                case 0x08: out += [0x5C, 0x62]
                case 0x0C: out += [0x5C, 0x66]
                case 0..<0x20: out += [0x5C, 0x75, 0x30, 0x30, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
                default: out.append(byte)
                }
            }
        }
        out.append(0x22)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `CalendarTime.isoText`.
    package static func append(_ time: CalendarTime, to out: inout [UInt8]) {
        switch time {
        case .date(let d): append(d, to: &out)
        case .floating(let t): append(t, to: &out)
        case .utc(let t):
            append(t, to: &out)
            out.append(0x5A)
        case .zoned: out.append(contentsOf: time.isoText.utf8)
        }
    }

    /// Reads `YYYY-MM-DD`.
    package static func date(_ text: some StringProtocol) throws(TimeValueError) -> LocalDate {
        let u = Array(text.utf8)
        guard u.count == 10, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"),
            let y = number(u[0..<4]), let m = number(u[5..<7]), let d = number(u[8..<10])
        else { throw TimeValueError(.malformed, "‘\(text)’ is not a date written YYYY-MM-DD") }
        return try LocalDate(year: y, month: m, day: d)
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS`.
    package static func dateTime(_ text: some StringProtocol) throws(TimeValueError) -> LocalDateTime {
        let u = Array(text.utf8)
        guard u.count == 19, u[10] == UInt8(ascii: "T"), u[13] == UInt8(ascii: ":"), u[16] == UInt8(ascii: ":"),
            let h = number(u[11..<13]), let mi = number(u[14..<16]), let s = number(u[17..<19])
        else { throw TimeValueError(.malformed, "‘\(text)’ is not a date and time written YYYY-MM-DDTHH:MM:SS") }
        return try LocalDateTime(date: date(text.prefix(10)), hour: h, minute: mi, second: s)
    }

    /// Reads `±HH:MM` or `±HH:MM:SS` as seconds east of UTC.
    package static func offsetSeconds(_ text: some StringProtocol) throws(TimeValueError) -> Int64 {
        let u = Array(text.utf8)
        guard u.count == 6 || u.count == 9, u[0] == UInt8(ascii: "+") || u[0] == UInt8(ascii: "-"), u[3] == UInt8(ascii: ":"),
            let h = number(u[1..<3]), let m = number(u[4..<6]), h < 24, m < 60
        else { throw TimeValueError(.malformed, "‘\(text)’ is not an offset written ±HH:MM") }
        var seconds = Int64(h * 3600 + m * 60)
        if u.count == 9 {
            guard u[6] == UInt8(ascii: ":"), let s = number(u[7..<9]), s < 60 else { throw TimeValueError(.malformed, "‘\(text)’ is not an offset written ±HH:MM:SS") }
            seconds += Int64(s)
        }
        return u[0] == UInt8(ascii: "-") ? -seconds : seconds
    }

    /// Reads an instant written with ``instant(wall:seconds:)``, as its wall reading and Unix seconds.
    package static func instant(_ text: some StringProtocol) throws(TimeValueError) -> (wall: LocalDateTime, seconds: Int64) {
        guard text.count > 19 else { throw TimeValueError(.malformed, "‘\(text)’ is not a time with an offset, such as 2026-11-25T18:30:00+01:00") }
        let wall = try dateTime(text.prefix(19))
        let offset = text.hasSuffix("Z") && text.count == 20 ? 0 : try offsetSeconds(text.dropFirst(19))
        return (wall, wall.localSeconds - offset)
    }

    /// A value a decoder holds, read with `read`; a text that does not
    /// parse is the decoder's `dataCorrupted` error, with the reason.
    package static func decode<T>(_ c: any SingleValueDecodingContainer, _ read: (String) throws(TimeValueError) -> T) throws -> T {
        let text = try c.decode(String.self)
        do { return try read(text) } catch {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: error.message)
        }
    }

    /// An exact length as ISO 8601 text in whole seconds: `PT1H30M`, `PT45S`, `PT0S`
    /// (hours, not days: a length is exact, and `P1D` would read as a nominal day).
    package static func duration(_ d: Duration) -> String {
        let total = d.components.seconds
        guard total != 0 else { return "PT0S" }
        let a = abs(total)
        var text = (total < 0 ? "-" : "") + "PT"
        if a >= 3600 { text += String(a / 3600) + "H" }
        if a % 3600 >= 60 { text += String(a % 3600 / 60) + "M" }
        if a % 60 != 0 { text += String(a % 60) + "S" }
        return text
    }

    /// Reads `PT#H#M#S` (each part optional, at least one) or `P#D` / `P#W`
    /// (as 24-hour days and 7-day weeks).
    package static func duration(_ text: some StringProtocol) throws(TimeValueError) -> Duration {
        let bad = TimeValueError(.malformed, "‘\(text)’ is not a length written as ISO 8601, such as PT1H30M or PT45M")
        var rest = Substring(text)
        let negative = rest.first == "-"
        if negative || rest.first == "+" { rest = rest.dropFirst() }
        guard rest.first == "P", rest.count > 1 else { throw bad }
        rest = rest.dropFirst()
        var seconds: Int64 = 0, inTime = false, digits = "", sawPart = false
        for ch in rest {
            if ch.isASCII, ch.isNumber { digits.append(ch); continue }
            if ch == "T", !inTime, digits.isEmpty { inTime = true; continue }
            guard let n = Int64(digits) else { throw bad }
            let unit: Int64
            switch (inTime, ch) {
            case (false, "W"): unit = 7 * 86_400
            case (false, "D"): unit = 86_400
            case (true, "H"): unit = 3600
            case (true, "M"): unit = 60
            case (true, "S"): unit = 1
            default: throw bad
            }
            let (product, overflow) = n.multipliedReportingOverflow(by: unit)
            guard !overflow, seconds <= Int64.max - product else { throw bad }
            seconds += product
            digits = ""
            sawPart = true
        }
        guard digits.isEmpty, sawPart else { throw bad }
        return .seconds(negative ? -seconds : seconds)
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var n = 0
        for d in digits {
            guard d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") else { return nil }
            n = n * 10 + Int(d - UInt8(ascii: "0"))
        }
        return n
    }
}

extension CalendarTime {
    /// The ISO 8601 text of this time (see `ISOText`): `2026-11-25`,
    /// `2026-11-25T18:30:00`, `2026-11-25T17:30:00Z`, or
    /// `2026-11-25T18:30:00+01:00[Europe/Madrid]` (RFC 9557; without the
    /// offset for a zone the tz database does not know).
    public var isoText: String {
        switch self {
        case .date(let d): return d.description
        case .floating(let t): return t.description
        case .utc(let t): return t.description + "Z"
        case .zoned(let t, let z):
            guard let rules = try? ZoneRules.named(z) else { return t.description + "[" + z + "]" }
            return t.description + ISOText.offset(t.localSeconds - rules.instant(forWall: t.localSeconds)) + "[" + z + "]"
        }
    }

    /// Reads the text ``isoText`` writes. A time with an offset and no zone
    /// (`2026-11-25T18:30:00+01:00`) is read as the UTC instant it names.
    /// - Throws: `TimeValueError` naming the text.
    public init(isoText text: String) throws(TimeValueError) {
        if text.count == 10 {
            self = .date(try ISOText.date(text))
        } else if text.hasSuffix("]"), let open = text.firstIndex(of: "[") {
            let zone = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
            guard !zone.isEmpty else { throw TimeValueError(.malformed, "‘\(text)’ names no zone between the brackets") }
            self = .zoned(try ISOText.dateTime(text[..<open].prefix(19)), zone)
        } else if text.count == 19 {
            self = .floating(try ISOText.dateTime(text))
        } else {
            self = .utc(LocalDateTime(localSeconds: try ISOText.instant(text).seconds))
        }
    }

    /// Decodes the text of ``isoText``.
    public init(from decoder: any Decoder) throws {
        self = try ISOText.decode(try decoder.singleValueContainer()) { text throws(TimeValueError) in try CalendarTime(isoText: text) }
    }

    /// Encodes ``isoText``.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(isoText)
    }
}
