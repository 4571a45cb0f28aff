/// `DURATION` values (RFC 5545 §3.3.6): `[+|-]P` then weeks, or days and a
/// time part `T…H…M…S`.
package enum DurationValue {
    /// The length and whether it was negative; `nil` when the text is not a duration.
    ///
    /// As lenient as libical: the parts may come in any order and combine
    /// weeks with days (`P1W2D`, which Outlook has written).
    package static func parse(_ text: Substring) -> (duration: ItemDuration, negative: Bool)? {
        var bytes = text.utf8[...]
        while let f = bytes.first, f == 0x20 || f == 0x09 { bytes = bytes.dropFirst() }
        while let l = bytes.last, l == 0x20 || l == 0x09 { bytes = bytes.dropLast() }
        var negative = false
        if let f = bytes.first, f == 0x2B || f == 0x2D {
            negative = f == 0x2D
            bytes = bytes.dropFirst()
        }
        guard let p = bytes.first, p | 0x20 == 0x70 else { return nil }
        bytes = bytes.dropFirst()
        var days = 0
        var seconds = 0
        var inTime = false
        var number: Int?
        var parts = 0
        for b in bytes {
            switch b {
            case 0x30...0x39:
                let (times10, o1) = (number ?? 0).multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(Int(b - 0x30))
                guard !o1, !o2, sum < 1_000_000_000 else { return nil }
                number = sum
            case 0x54, 0x74:  // T
                guard number == nil, !inTime else { return nil }
                inTime = true
            default:
                guard let n = number else { return nil }
                switch (b | 0x20, inTime) {
                case (0x77, false): days += 7 * n  // W
                case (0x64, false): days += n  // D
                case (0x68, true): seconds += 3600 * n  // H
                case (0x6D, true): seconds += 60 * n  // M
                case (0x73, true): seconds += n  // S
                default: return nil
                }
                number = nil
                parts += 1
            }
        }
        guard number == nil, parts > 0 else { return nil }
        return (ItemDuration(days: days, seconds: seconds), negative)
    }
}
