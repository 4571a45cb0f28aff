import CalendarCore
import Foundation

/// The `VALARM` codec (RFC 5545 §3.6.6): an `Alarm`'s fields from its
/// component and back. CalendarCore holds the fields; this module alone
/// spells the component (Docs/Modules.md, "The iCalendar model").
extension Alarm {
    /// The names of the lines an alarm's fields hold (the first of each): the
    /// others a file wrote (`ATTACH`, `X-WR-ALARMUID`, `ACKNOWLEDGED`, a second
    /// `DESCRIPTION`…) are kept as written.
    private static let fields: [String: Kept.Field] = ["ACTION": .action, "TRIGGER": .trigger, "REPEAT": .repeatCount, "DURATION": .repeatInterval,
                                                       "DESCRIPTION": .message, "SUMMARY": .summary]

    /// The parameters the fields model, by line name: any other is kept.
    private static let modelledParameters: [String: Set<String>] = ["TRIGGER": ["RELATED", "VALUE", "TZID"]]

    /// Reads a `VALARM` component.
    ///
    /// - Throws: `AlarmError` naming the property that is wrong: no
    ///   `TRIGGER`, one that is not a duration or UTC date-time, one further
    ///   than a year away, a `REPEAT` without `DURATION` or the other way
    ///   round, more than `Alarm.repeatLimit` repetitions.
    public init(component: ContentComponent) throws(AlarmError) {
        guard component.name.uppercased() == "VALARM" else {
            throw AlarmError(.notAnAlarm, property: nil, "a \(component.name) is not an alarm (VALARM)")
        }
        var action = "DISPLAY", message: String?, summary: String?
        var trigger = Trigger.relative(Offset(), to: .start)
        var repeatCount = 0, repeatInterval: Offset?
        var sawTrigger = false, sawRepeat = false
        var repeatLine: String?
        var kept = Kept()
        kept.components = component.components
        var seen: Set<String> = []
        for line in component.properties {
            // A line the fields do not hold: kept as written. A second of a name they hold once (another
            // language's text): kept with its field, which takes it along when it is cleared.
            guard let field = Self.fields[line.name] else {
                kept.lines.append(line)
                continue
            }
            guard seen.insert(line.name).inserted else {
                kept.duplicates[field.rawValue, default: []].append(line)
                continue
            }
            let other = line.parameters.filter { !(Self.modelledParameters[line.name] ?? []).contains($0.name) }
            if !other.isEmpty { kept.parameters[field.rawValue] = other }
            switch line.name {
            case "ACTION": action = line.value.trimmingCharacters(in: .whitespaces).uppercased()
            case "DESCRIPTION": message = TextEscaping.unescape(line.valueText)
            case "SUMMARY": summary = TextEscaping.unescape(line.valueText)
            case "TRIGGER":
                sawTrigger = true
                trigger = try Self.trigger(line)
            case "REPEAT":
                sawRepeat = true
                guard let n = Int(line.value.trimmingCharacters(in: .whitespaces)), n >= 0 else {
                    throw AlarmError(.malformedRepeat, property: "REPEAT", "REPEAT ‘\(line.value.prefix(40))’ is not a whole number of repetitions")
                }
                guard n <= Self.repeatLimit else {
                    throw AlarmError(.tooManyRepeats, property: "REPEAT", "REPEAT:\(n) asks for more than \(Self.repeatLimit) repetitions of one alarm")
                }
                repeatCount = n
            case "DURATION":
                repeatLine = line.value
                guard let (d, negative) = DurationValue.parse(line.valueText), !negative, d.days > 0 || d.seconds > 0 else {
                    throw AlarmError(.malformedRepeat, property: "DURATION", "the alarm's DURATION ‘\(line.value.prefix(40))’ is not a positive length such as PT5M")
                }
                repeatInterval = Offset(days: d.days, seconds: d.seconds)
            default: break
            }
        }
        guard sawTrigger else { throw AlarmError(.missingTrigger, property: nil, "this alarm has no TRIGGER, so it never goes off (RFC 5545 §3.6.6 requires one)") }
        // RFC 5545 §3.6.6: "duration" and "repeat" are both optional, "but if
        // one occurs, so MUST the other".
        if sawRepeat && repeatLine == nil && repeatCount > 0 {
            throw AlarmError(.repeatWithoutInterval, property: "REPEAT", "REPEAT:\(repeatCount) has no DURATION to say how far apart the repetitions are; add DURATION (for example PT5M) or remove REPEAT")
        }
        if let repeatLine, !sawRepeat {
            throw AlarmError(.repeatWithoutInterval, property: "DURATION", "the alarm's DURATION:\(repeatLine.prefix(40)) has no REPEAT to say how many times; add REPEAT or remove DURATION")
        }
        if let far = Self.triggerReachProblem(trigger) { throw AlarmError(far.code, property: "TRIGGER", far.message) }
        if let far = Self.repetitionReachProblem(trigger, repeatCount, repeatInterval) { throw AlarmError(far.code, property: "REPEAT", far.message) }
        self.init(reading: component, action: action, trigger: trigger, repeatCount: repeatCount, repeatInterval: repeatInterval, message: message, summary: summary,
                  kept: kept)
    }

    /// The alarm's `VALARM`: as the file wrote it while no field has been
    /// changed; else written from its fields (`ACTION`, `TRIGGER`,
    /// `DESCRIPTION`, `SUMMARY`, `REPEAT` and `DURATION`, with the
    /// parameters the file gave them), followed by the lines and components
    /// the file wrote that the fields do not hold. An absolute trigger is
    /// written in the form it holds (UTC, as RFC 5545 §3.8.6.3 asks; with the
    /// `TZID`, or floating, as a file wrote it).
    public var component: ContentComponent {
        if let source, !edited { return source }
        var lines: [ContentLine] = []
        func add(_ name: String, _ parameters: [ContentLine.Parameter] = [], value: String) {
            guard let field = Self.fields[name] else { return }
            lines.append(ContentLine(name: name, parameters: parameters + (kept.parameters[field.rawValue] ?? []), value: value))
            lines += kept.duplicates[field.rawValue] ?? []
        }
        add("ACTION", value: action)
        switch trigger {
        case .relative(let offset, let edge):
            add("TRIGGER", edge == .end ? [.init(name: "RELATED", values: ["END"])] : [], value: offset.icalValue)
        case .absolute(let time):
            var parameters: [ContentLine.Parameter] = [.init(name: "VALUE", values: ["DATE-TIME"])]
            if case .zoned(_, let tzid) = time { parameters.append(.init(name: "TZID", values: [tzid])) }
            add("TRIGGER", parameters, value: time.icalValue)
        }
        if let message { add("DESCRIPTION", value: TextEscaping.escaped(message)) }
        if let summary { add("SUMMARY", value: TextEscaping.escaped(summary)) }
        // REPEAT and DURATION as the fields hold them, one without the other too: what is read back is what they say.
        if repeatCount != 0 || repeatInterval != nil { add("REPEAT", value: String(repeatCount)) }
        if let interval = repeatInterval { add("DURATION", value: interval.icalValue) }
        return ContentComponent(name: "VALARM", properties: ContentLines(lines + kept.lines), components: kept.components)
    }

    /// Reads a `TRIGGER` line: a duration (with `RELATED`), or `VALUE=DATE-TIME`.
    private static func trigger(_ line: ContentLine) throws(AlarmError) -> Trigger {
        let value = line.value.trimmingCharacters(in: .whitespaces)
        if line.parameter("VALUE")?.uppercased() == "DATE-TIME" || (value.first != "-" && value.first != "+" && value.first != "P" && value.first != "p") {
            do {
                let time = try CalendarTime(icalValue: value, tzid: line.parameter("TZID"))
                guard !time.isDate else { throw TimeValueError(.malformed, "a date alone is not a moment") }
                return .absolute(time)
            } catch {
                throw AlarmError(.malformedTrigger, property: "TRIGGER", "TRIGGER ‘\(value.prefix(40))’ is neither a length such as -PT15M nor a UTC date-time such as 20261124T080000Z")
            }
        }
        guard let (d, negative) = DurationValue.parse(Substring(value)) else {
            throw AlarmError(.malformedTrigger, property: "TRIGGER", "TRIGGER ‘\(value.prefix(40))’ is neither a length such as -PT15M nor a UTC date-time such as 20261124T080000Z")
        }
        let related: Edge
        switch line.parameter("RELATED")?.uppercased() {
        case nil, "START": related = .start
        case "END": related = .end
        case let other?: throw AlarmError(.malformedTrigger, property: "TRIGGER", "RELATED=\(other.prefix(20)) is neither START nor END")
        }
        let sign = negative ? -1 : 1
        return .relative(Offset(days: sign * d.days, seconds: sign * d.seconds), to: related)
    }
}
