/// The expansion engine for one `RRULE` from one `DTSTART`, in wall-clock
/// seconds of the series' own zone.
///
/// It works the way RFC 5545 §3.3.10 describes and python-dateutil and
/// KCalendarCore implement: walk the rule's periods (years, months, weeks,
/// days, or for sub-daily rules the days holding their hours, minutes,
/// seconds) `INTERVAL` apart; in each period take the days that pass every
/// `BY…` day part and combine them with the times of day; apply `BYSETPOS`
/// to the period's sorted set; drop what comes before `DTSTART`; stop at
/// `COUNT`.
///
/// Decisions, with the RFC text that makes them:
/// - Dates that do not exist (February 30, the 31st of a short month) are never
///   generated, so they are neither produced nor counted (RFC 5545 errata 4271).
///   Wall times in a DST gap *are* produced here; the set shifts them.
/// - `DTSTART` counts as the first occurrence toward `COUNT` even when the rule
///   would not produce it (§3.8.5.3: "The DTSTART property value always counts
///   as the first occurrence"). dateutil and libical start counting at the
///   first generated instance instead; ``countsUnsynchronisedStart`` switches
///   to their behaviour for differential tests.
/// - `BYWEEKNO` alone in a `YEARLY` rule gives every day of the week (the RFC
///   table says BYWEEKNO *expands*); days of a week that belongs to the next
///   or previous ISO-style week-year still belong to the calendar year they are
///   in, as in dateutil.
/// - Iteration stops at the end of year 9999, the last year iCalendar can write,
///   and as soon as a whole calendar cycle (400 Gregorian years) of periods has
///   produced nothing, so a rule that can never match again ends instead of
///   spinning.
///
/// - Complexity: cost is proportional to the periods walked. Without `COUNT`
///   the iterator can ``seek(toWall:)`` straight to the period holding a
///   window's start, so a window's cost does not grow with the age of the series.
struct RuleIterator {
    let frequency: RecurrenceRule.Frequency
    let interval: Int
    let startWall: Int64
    let startDay: Int
    let startYear: Int
    let startMonth: Int
    let count: Int?
    let isDate: Bool

    // Day filters.
    let monthMask: UInt16  // bit m set: month m allowed (0 = no filter)
    let monthDayPos: UInt32  // bit d: day d of the month
    let monthDayNeg: UInt32  // bit d: day -d of the month
    let hasMonthDay: Bool
    let yearDayPos: Set<Int>
    let yearDayNeg: Set<Int>
    let weekNos: Set<Int>
    let weekdayMask: UInt8  // bit w: every such weekday (0 = none)
    let numbered: [(ordinal: Int, weekday: Int)]
    let hasByDay: Bool
    /// Whether the day filters need the day's year, month and day.
    let needsCivil: Bool
    /// Whether plain weekdays (`BYDAY=MO,WE`) are the only day filter: a
    /// week's days then need no other test.
    let weekdaysOnly: Bool
    let weekStart: Int
    let setPos: [Int]

    /// Times of day (seconds since midnight), sorted, for day-or-longer rules.
    let dayTimes: [Int]
    // Sub-daily time parts (empty: no filter / take from DTSTART where the RFC says so).
    let hours: [Int]
    let minutes: [Int]
    let seconds: [Int]
    let hourSet: UInt32
    let minuteSet: UInt64
    let secondSet: UInt64

    // State.
    private var period: Int = 0  // period index (YEARLY…DAILY) or day number (sub-daily)
    private var buffer: [Int64] = []
    private var position = 0
    private var emitted = 0
    private var emptyRun = 0
    private var finished = false
    private var subDailyCache: [Int: [Int]] = [:]
    /// Whether `DTSTART` counts toward `COUNT` when the rule does not produce it.
    var countsUnsynchronisedStart = true

    /// Compiles a rule for a start, applying the defaults RFC 5545 takes from `DTSTART`.
    init(rule: RecurrenceRule, start: LocalDateTime, isDate: Bool) {
        frequency = rule.frequency
        // Any INTERVAL past the 400-billion-second span of iCalendar's dates
        // (0001–9999) gives only the first period; the cap keeps period
        // arithmetic far from overflow.
        interval = min(max(1, rule.interval), 400_000_000_000)
        startWall = start.localSeconds
        startDay = start.date.dayNumber
        startYear = start.date.year
        startMonth = start.date.month
        count = rule.count
        self.isDate = isDate
        weekStart = rule.weekStart.rawValue
        setPos = rule.bySetPos

        var byMonth = rule.byMonth
        var byMonthDay = rule.byMonthDay
        var byDay = rule.byDay
        // Defaults from DTSTART (§3.3.10: "Information, not contained in the
        // rule, necessary to determine the various recurrence instance start
        // time and dates are derived from the Start Time ("DTSTART")").
        let noDayParts = rule.byWeekNo.isEmpty && rule.byYearDay.isEmpty && rule.byMonthDay.isEmpty && rule.byDay.isEmpty
        if noDayParts {
            switch rule.frequency {
            case .yearly:
                if byMonth.isEmpty { byMonth = [start.date.month] }
                byMonthDay = [start.date.day]
            case .monthly:
                byMonthDay = [start.date.day]
            case .weekly:
                byDay = [.init(start.date.weekday)]
            default: break
            }
        }
        var mm: UInt16 = 0
        for m in byMonth { mm |= 1 << m }
        monthMask = mm
        var pos: UInt32 = 0
        var neg: UInt32 = 0
        for d in byMonthDay { if d > 0 { pos |= 1 << d } else { neg |= 1 << -d } }
        monthDayPos = pos
        monthDayNeg = neg
        hasMonthDay = !byMonthDay.isEmpty
        yearDayPos = Set(rule.byYearDay.filter { $0 > 0 })
        yearDayNeg = Set(rule.byYearDay.filter { $0 < 0 }.map { -$0 })
        weekNos = Set(rule.byWeekNo)
        var wm: UInt8 = 0
        var nums: [(Int, Int)] = []
        for d in byDay {
            if let n = d.ordinal, rule.frequency == .monthly || rule.frequency == .yearly {
                nums.append((n, d.weekday.rawValue))
            } else {
                wm |= 1 << d.weekday.rawValue
            }
        }
        weekdayMask = wm
        numbered = nums
        hasByDay = !byDay.isEmpty

        // Times of day.
        hours = rule.byHour.sorted()
        minutes = rule.byMinute.sorted()
        seconds = rule.bySecond.map { min($0, 59) }.sorted()
        var hs: UInt32 = 0
        for h in hours { hs |= 1 << h }
        var ms: UInt64 = 0
        for m in minutes { ms |= 1 << m }
        var ss: UInt64 = 0
        for s in seconds { ss |= 1 << s }
        hourSet = hs
        minuteSet = ms
        secondSet = ss
        if isDate {
            dayTimes = [0]
        } else if hours.count <= 1 && minutes.count <= 1 && seconds.count <= 1 {
            // One time of day, the common case: no set to build.
            dayTimes = [(hours.first ?? start.hour) * 3600 + (minutes.first ?? start.minute) * 60 + (seconds.first ?? start.second)]
        } else {
            let hh = hours.isEmpty ? [start.hour] : hours
            let mi = minutes.isEmpty ? [start.minute] : minutes
            let se = seconds.isEmpty ? [start.second] : seconds
            var times: [Int] = []
            times.reserveCapacity(hh.count * mi.count * se.count)
            for h in hh { for m in mi { for s in se { times.append(h * 3600 + m * 60 + s) } } }
            dayTimes = Array(Set(times)).sorted()
        }
        needsCivil = monthMask != 0 || hasMonthDay || !yearDayPos.isEmpty || !yearDayNeg.isEmpty || !numbered.isEmpty
        weekdaysOnly = !needsCivil && weekNos.isEmpty && weekdayMask != 0
        switch frequency {
        case .secondly, .minutely, .hourly: period = startDay
        default: period = 0
        }
        if frequency < .daily, !setPos.isEmpty {
            // A sub-daily period's set has a fixed size: the minutes × seconds
            // of an hour, the seconds of a minute, or one second. When no
            // BYSETPOS position fits in it, the rule can never produce anything.
            let size: Int
            switch frequency {
            case .hourly: size = max(1, minutes.count) * max(1, seconds.count)
            case .minutely: size = max(1, seconds.count)
            default: size = 1
            }
            if !setPos.contains(where: { abs($0) <= size }) { finished = true }
        }
    }

    // MARK: Seeking

    /// Moves to the first period that can hold a wall time at or after `wall`.
    ///
    /// Only valid for a rule without `COUNT` (counting needs every earlier
    /// occurrence) and before the first ``next()``.
    mutating func seek(toWall wall: Int64) {
        guard count == nil, wall > startWall else { return }
        let day = Int(wall >= 0 ? wall / 86_400 : (wall - 86_399) / 86_400)
        let date = LocalDate(dayNumber: day)
        switch frequency {
        case .yearly: period = max(0, (date.year - startYear) / interval)
        case .monthly: period = max(0, ((date.year - startYear) * 12 + date.month - startMonth) / interval)
        case .weekly:
            let w0 = startDay - weekOffset(startDay)
            let w = day - weekOffset(day)
            period = max(0, (w - w0) / 7 / interval)
        case .daily: period = max(0, (day - startDay) / interval)
        case .hourly, .minutely, .secondly: period = max(startDay, day)
        }
    }

    @inline(__always)
    private func weekOffset(_ day: Int) -> Int {
        ((LocalDate.weekdayIndex(ofDayNumber: day) - weekStart) % 7 + 7) % 7
    }

    // MARK: Iteration

    /// The next occurrence's wall time in seconds, or `nil` when the rule has ended.
    mutating func next() -> Int64? {
        while true {
            if position < buffer.count {
                let value = buffer[position]
                position += 1
                if value < startWall { continue }
                if let count {
                    if emitted == 0, countsUnsynchronisedStart, value != startWall { emitted = 1 }
                    if emitted >= count { finished = true; buffer.removeAll(); return nil }
                }
                emitted += 1
                return value
            }
            if finished { return nil }
            fillNextPeriod()
        }
    }

    /// Builds the candidates of the next period into `buffer`.
    private mutating func fillNextPeriod() {
        buffer.removeAll(keepingCapacity: true)
        position = 0
        switch frequency {
        case .yearly:
            let year = startYear + period * interval
            guard year <= 9999 else { finished = true; return }
            fillYear(year)
        case .monthly:
            let index = (startMonth - 1) + period * interval
            let year = startYear + index / 12
            guard year <= 9999 else { finished = true; return }
            let month = index % 12 + 1
            if monthMask == 0 || monthMask & (1 << month) != 0 {
                let first = LocalDate.days(fromCivil: year, month, 1)
                let length = LocalDate.daysIn(month: month, year: year)
                for d in first..<(first + length) where dayPasses(d, scopeMonth: true) { appendDay(d) }
            }
        case .weekly:
            let w0 = startDay - weekOffset(startDay)
            let first = w0 + period * interval * 7
            guard first <= LocalDate.lastDayNumber else { finished = true; return }
            if weekdaysOnly {
                var weekday = LocalDate.weekdayIndex(ofDayNumber: first)
                for d in first..<(first + 7) {
                    if weekdayMask & (1 << weekday) != 0 { appendDay(d) }
                    weekday = weekday == 6 ? 0 : weekday + 1
                }
            } else {
                for d in first..<(first + 7) where dayPasses(d, scopeMonth: true) { appendDay(d) }
            }
        case .daily:
            let d = startDay + period * interval
            guard d <= LocalDate.lastDayNumber else { finished = true; return }
            if dayPasses(d, scopeMonth: true) { appendDay(d) }
        case .hourly, .minutely, .secondly:
            let d = period
            guard d <= LocalDate.lastDayNumber else { finished = true; return }
            // Days holding no unit of the INTERVAL's grid are skipped in one step.
            let gap = daysToNextAlignedUnit(d)
            if gap > 0 {
                period += gap
                return
            }
            if dayPasses(d, scopeMonth: true) { appendSubDaily(d) }
        }
        period += 1
        if !setPos.isEmpty { applySetPos() }
        if buffer.isEmpty {
            emptyRun += 1
            if emptyRun > cycleLength { finished = true }
        } else {
            emptyRun = 0
        }
    }

    /// Periods after which the Gregorian calendar repeats (400 years).
    private var cycleLength: Int {
        switch frequency {
        case .yearly: 400
        case .monthly: 4800
        case .weekly: 20_871
        case .daily: 146_097
        // A sub-daily rule's time alignment repeats every INTERVAL days at most.
        case .hourly, .minutely, .secondly: 146_097 * min(interval, 70)
        }
    }

    private mutating func fillYear(_ year: Int) {
        let first = LocalDate.days(fromCivil: year, 1, 1)
        let length = LocalDate.isLeapYear(year) ? 366 : 365
        if monthMask != 0 && weekNos.isEmpty && yearDayPos.isEmpty && yearDayNeg.isEmpty {
            // Only the months asked for; numbered weekdays count within each month.
            for month in 1...12 where monthMask & (1 << month) != 0 {
                let m0 = LocalDate.days(fromCivil: year, month, 1)
                for d in m0..<(m0 + LocalDate.daysIn(month: month, year: year)) where dayPasses(d, scopeMonth: true) {
                    appendDay(d)
                }
            }
            return
        }
        let weeks = weekNos.isEmpty ? nil : WeekYears(year: year, weekStart: weekStart)
        for d in first..<(first + length) {
            if let weeks, !weeks.contains(d, weekNos) { continue }
            if dayPasses(d, scopeMonth: monthMask != 0, yearFirst: first, yearLength: length) { appendDay(d) }
        }
    }

    @inline(__always)
    private mutating func appendDay(_ d: Int) {
        let base = Int64(d) * 86_400
        for t in dayTimes { buffer.append(base + Int64(t)) }
    }

    /// Whether a day passes every day filter. Numbered weekdays count within
    /// the month when `scopeMonth` (MONTHLY, or YEARLY with BYMONTH), else
    /// within the year.
    @inline(__always)
    private func dayPasses(_ d: Int, scopeMonth: Bool, yearFirst: Int? = nil, yearLength: Int? = nil) -> Bool {
        var y = 0, m = 0, md = 0
        if needsCivil { (y, m, md) = LocalDate.civil(fromDays: d) }
        if monthMask != 0 && monthMask & (1 << m) == 0 { return false }
        if hasMonthDay {
            let len = LocalDate.daysIn(month: m, year: y)
            if monthDayPos & (1 << md) == 0 && monthDayNeg & (1 << (len - md + 1)) == 0 { return false }
        }
        if !yearDayPos.isEmpty || !yearDayNeg.isEmpty {
            let first = yearFirst ?? LocalDate.days(fromCivil: y, 1, 1)
            let len = yearLength ?? (LocalDate.isLeapYear(y) ? 366 : 365)
            let yd = d - first + 1
            if !yearDayPos.contains(yd) && !yearDayNeg.contains(len - yd + 1) { return false }
        }
        if hasByDay {
            let wd = LocalDate.weekdayIndex(ofDayNumber: d)
            if weekdayMask & (1 << wd) != 0 { return true }
            if numbered.isEmpty { return false }
            let first: Int
            let len: Int
            if scopeMonth {
                first = d - md + 1
                len = LocalDate.daysIn(month: m, year: y)
            } else {
                first = yearFirst ?? LocalDate.days(fromCivil: y, 1, 1)
                len = yearLength ?? (LocalDate.isLeapYear(y) ? 366 : 365)
            }
            let index = d - first
            let fromStart = index / 7 + 1
            let fromEnd = -((len - 1 - index) / 7 + 1)
            for (n, w) in numbered where w == wd && (n == fromStart || n == fromEnd) { return true }
            return false
        }
        return true
    }

    /// Units (hours, minutes or seconds) and units a day for a sub-daily rule.
    private var subDailyUnit: (unit: Int, perDay: Int) {
        switch frequency {
        case .hourly: (3600, 24)
        case .minutely: (60, 1440)
        default: (1, 86_400)
        }
    }

    /// The first unit of the INTERVAL's grid on day `d`, counted from the day's start.
    private func firstAlignedUnit(_ d: Int) -> Int {
        let (unit, perDay) = subDailyUnit
        // Units are counted from DTSTART's own unit so INTERVAL stays aligned.
        let startUnit = Int(startWall >= 0 ? startWall / Int64(unit) : (startWall - Int64(unit) + 1) / Int64(unit))
        return ((startUnit - d * perDay) % interval + interval) % interval
    }

    /// How many days to move on from `d` to reach a day holding a grid unit (0: `d` holds one).
    private func daysToNextAlignedUnit(_ d: Int) -> Int {
        firstAlignedUnit(d) / subDailyUnit.perDay
    }

    /// Adds the sub-daily candidates of one day.
    private mutating func appendSubDaily(_ d: Int) {
        let (unit, perDay) = subDailyUnit
        let offset = firstAlignedUnit(d)
        let times: [Int]
        if let cached = subDailyCache[offset] {
            times = cached
        } else {
            times = subDailyTimes(offset: offset, unit: unit, perDay: perDay)
            if subDailyCache.count < 4096 { subDailyCache[offset] = times }
        }
        let base = Int64(d) * 86_400
        if setPos.isEmpty {
            for t in times { buffer.append(base + Int64(t)) }
        } else {
            // BYSETPOS works on each period (hour, minute or second) separately.
            var group: [Int64] = []
            var current = -1
            for t in times {
                let p = t / unit
                if p != current, !group.isEmpty {
                    buffer.append(contentsOf: Self.select(group, setPos))
                    group.removeAll(keepingCapacity: true)
                }
                current = p
                group.append(base + Int64(t))
            }
            if !group.isEmpty { buffer.append(contentsOf: Self.select(group, setPos)) }
        }
    }

    private func subDailyTimes(offset: Int, unit: Int, perDay: Int) -> [Int] {
        var out: [Int] = []
        let startSOD = Int(((startWall % 86_400) + 86_400) % 86_400)
        let minuteList = minutes.isEmpty ? [startSOD / 60 % 60] : minutes
        let secondList = seconds.isEmpty ? [startSOD % 60] : seconds
        var u = offset
        while u < perDay {
            let sod = u * unit
            let h = sod / 3600, m = sod / 60 % 60, s = sod % 60
            switch frequency {
            case .hourly:
                if hourSet == 0 || hourSet & (1 << h) != 0 {
                    for mi in minuteList { for se in secondList { out.append(h * 3600 + mi * 60 + se) } }
                }
            case .minutely:
                if (hourSet == 0 || hourSet & (1 << h) != 0) && (minuteSet == 0 || minuteSet & (1 << m) != 0) {
                    for se in secondList { out.append(h * 3600 + m * 60 + se) }
                }
            default:
                if (hourSet == 0 || hourSet & (1 << h) != 0) && (minuteSet == 0 || minuteSet & (1 << m) != 0)
                    && (secondSet == 0 || secondSet & (1 << s) != 0)
                {
                    out.append(sod)
                }
            }
            u += interval
        }
        return out.sorted()
    }

    private mutating func applySetPos() {
        guard frequency >= .daily else { return }  // sub-daily rules select per period as they fill
        if buffer.isEmpty { return }
        let picked = Self.select(buffer, setPos)
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: picked)
    }

    /// The elements at the given 1-based positions (negative from the end), sorted.
    static func select(_ set: [Int64], _ positions: [Int]) -> [Int64] {
        var out: [Int64] = []
        for p in positions {
            let i = p > 0 ? p - 1 : set.count + p
            if i >= 0 && i < set.count { out.append(set[i]) }
        }
        return Array(Set(out)).sorted()
    }
}

/// Week numbers (RFC 5545 `BYWEEKNO`, ISO 8601 generalised to any `WKST`)
/// for the days of one calendar year: week 1 is the first week with at least
/// four days in the year.
struct WeekYears {
    let previous: (start: Int, weeks: Int)
    let current: (start: Int, weeks: Int)
    let next: (start: Int, weeks: Int)

    init(year: Int, weekStart: Int) {
        func week1(_ y: Int) -> Int {
            let jan1 = LocalDate.days(fromCivil: y, 1, 1)
            let offset = ((LocalDate.weekday(ofDayNumber: jan1).rawValue - weekStart) % 7 + 7) % 7
            return offset <= 3 ? jan1 - offset : jan1 + 7 - offset
        }
        let p = week1(year - 1), c = week1(year), n = week1(year + 1), nn = week1(year + 2)
        previous = (p, (c - p) / 7)
        current = (c, (n - c) / 7)
        next = (n, (nn - n) / 7)
    }

    /// Whether day `d` lies in one of the numbered weeks of its own week-year.
    func contains(_ d: Int, _ numbers: Set<Int>) -> Bool {
        let year = d >= next.start ? next : (d >= current.start ? current : previous)
        let n = (d - year.start) / 7 + 1
        return numbers.contains(n) || numbers.contains(n - year.weeks - 1)
    }
}

extension LocalDate {
    /// The day number of 9999-12-31, the last date iCalendar can write.
    static let lastDayNumber = LocalDate.days(fromCivil: 9999, 12, 31)
}
