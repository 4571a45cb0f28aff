import CalendarCore
import _CalendarTestSupport

/// Random RFC-valid rules and starts for differential testing.
struct RandomRuleGenerator {
    var rng: SplitMix64

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &rng)] }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
    mutating func some(_ range: ClosedRange<Int>, max count: Int, excludingZero: Bool = false) -> [Int] {
        let n = Int.random(in: 1...count, using: &rng)
        var out: [Int] = []
        for _ in 0..<n {
            var v = Int.random(in: range, using: &rng)
            if excludingZero && v == 0 { v = 1 }
            if !out.contains(v) { out.append(v) }
        }
        return out
    }

    /// A rule text and a floating start (basic ISO).
    mutating func next() -> (rrule: String, dtstart: String) {
        let freq = pick(["YEARLY", "YEARLY", "MONTHLY", "MONTHLY", "WEEKLY", "WEEKLY", "DAILY", "DAILY", "HOURLY", "MINUTELY"])
        var parts = ["FREQ=" + freq]
        if chance(0.4) { parts.append("INTERVAL=\(Int.random(in: 2...4, using: &rng))") }
        if chance(0.5) { parts.append("COUNT=\(Int.random(in: 1...40, using: &rng))") }
        let days = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        if chance(0.3) { parts.append("BYMONTH=" + some(1...12, max: 3).map { String($0) }.joined(separator: ",")) }
        if freq == "YEARLY" && chance(0.15) {
            parts.append("BYWEEKNO=" + some(-53...53, max: 2, excludingZero: true).map { String($0) }.joined(separator: ","))
        }
        if ["YEARLY", "HOURLY", "MINUTELY"].contains(freq) && chance(0.15) {
            parts.append("BYYEARDAY=" + some(-366...366, max: 3, excludingZero: true).map { String($0) }.joined(separator: ","))
        }
        if freq != "WEEKLY" && chance(0.3) {
            parts.append("BYMONTHDAY=" + some(-31...31, max: 3, excludingZero: true).map { String($0) }.joined(separator: ","))
        }
        if chance(0.5) {
            let numbered = (freq == "MONTHLY" || (freq == "YEARLY" && !parts.contains { $0.hasPrefix("BYWEEKNO") })) && chance(0.5)
            let n = Int.random(in: 1...3, using: &rng)
            var items: [String] = []
            for _ in 0..<n {
                let day = pick(days)
                if numbered {
                    let limit = freq == "MONTHLY" ? 5 : 53
                    var k = Int.random(in: -limit...limit, using: &rng)
                    if k == 0 { k = 1 }
                    items.append("\(k)\(day)")
                } else {
                    items.append(day)
                }
            }
            parts.append("BYDAY=" + Array(Set(items)).sorted().joined(separator: ","))
        }
        if ["DAILY", "WEEKLY", "MONTHLY", "YEARLY"].contains(freq) && chance(0.15) {
            parts.append("BYHOUR=" + some(0...23, max: 2).map { String($0) }.joined(separator: ","))
        }
        if chance(0.1) { parts.append("BYMINUTE=" + some(0...59, max: 2).map { String($0) }.joined(separator: ",")) }
        let hasBy = parts.contains { $0.hasPrefix("BY") }
        if hasBy && chance(0.2) {
            parts.append("BYSETPOS=" + some(-3...3, max: 2, excludingZero: true).map { String($0) }.joined(separator: ","))
        }
        if chance(0.2) { parts.append("WKST=" + pick(days)) }
        let year = Int.random(in: 1995...2030, using: &rng)
        let month = Int.random(in: 1...12, using: &rng)
        let day = Int.random(in: 1...28, using: &rng)
        let hour = Int.random(in: 0...23, using: &rng)
        let minute = pick([0, 15, 30, 45])
        let dtstart = String(year) + pad2(month) + pad2(day) + "T" + pad2(hour) + pad2(minute) + "00"
        return (parts.joined(separator: ";"), dtstart)
    }

    private func pad2(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
}

