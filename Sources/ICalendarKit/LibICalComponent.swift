#if LibICal
internal import CLibICal
import CalendarCore
import Dispatch

/// libical's reading of each `VEVENT` and `VTODO`, run beside the import.
///
/// What libical reads and what we read, and why:
/// - libical: every component is parsed by it, and what it cannot read or
///   reports as `X-LIC-ERROR` becomes a diagnostic (a component it cannot
///   read at all is rejected, kept as written).
/// - ours, from the raw lines: every value the model holds. TEXT values
///   (libical trims their leading and trailing white space), date-times
///   (libical turns an unknown `TZID` into a floating time without a word and
///   accepts 30 February), `RRULE` (libical refuses valid rules such as
///   `BYDAY=-31FR`, see Docs/Recurrence.md), `CATEGORIES` (libical splits
///   `a,b\,c` wrongly), `SEQUENCE` and `DURATION` (simple enough that a second
///   reading only costs time), and every property, parameter and component
///   libical drops or rewrites.
///
/// Since no value the import keeps comes from libical, its parse does not
/// have to finish before the next component is mapped: components are handed
/// to one serial queue, in batches (all libical calls still go through
/// ``LibICal/serialized(_:)``) and the import collects the outcomes in
/// ``finish()``. On a machine with a second core the import then takes about
/// as long as the slower of the two readings, not their sum (measured in
/// Benchmarks/RESULTS.md). At most `window` batches wait at a time, so
/// memory stays bounded however large the file is.
final class LibICalChecker: Sendable {
    /// What libical made of one component, when it found a problem.
    enum Outcome: Sendable {
        /// libical could not make a component of the text (given back, to be kept as written).
        case unreadable([UInt8])
        /// libical's `X-LIC-ERROR` reports, with the line each is about.
        case errors([(line: Int, message: String)])
    }

    private let queue = DispatchQueue(label: "horari.libical-checker")
    private let window: DispatchSemaphore
    private let outcomes = Locked<[Int: Outcome]>([:])
    /// Components waiting to be handed over, a batch at a time (one hand-over
    /// per component cost more in thread wake-ups than libical's parse).
    private let batch = Locked<[Job]>([])
    private let batchSize: Int

    private struct Job: Sendable {
        var text: [UInt8]
        var properties: [(name: String, line: Int)]
        var line: Int
        var ticket: Int
    }

    /// - Parameters:
    ///   - batchSize: components handed to the queue at a time.
    ///   - window: batches queued at most; the import waits when the queue is this far behind.
    init(batchSize: Int = 16, window: Int = 32) {
        self.batchSize = batchSize
        self.window = DispatchSemaphore(value: window)
    }

    /// Queues one component for libical.
    ///
    /// - Parameters:
    ///   - text: the component's lines, CRLF-terminated, NUL-terminated.
    ///   - properties: each property's name and line, to say which line an error is about.
    ///   - line: the component's first line.
    ///   - ticket: the caller's number for the component, the key of its outcome.
    func submit(_ text: [UInt8], properties: [(name: String, line: Int)], line: Int, ticket: Int) {
        let full: [Job]? = batch.withLock { jobs in
            jobs.append(Job(text: text, properties: properties, line: line, ticket: ticket))
            guard jobs.count >= batchSize else { return nil }
            defer { jobs = [] }
            return jobs
        }
        if let full { dispatch(full) }
    }

    private func dispatch(_ jobs: [Job]) {
        window.wait()
        queue.async { [self] in
            defer { window.signal() }
            for job in jobs {
                if let outcome = Self.check(job.text, properties: job.properties, line: job.line) {
                    outcomes.withLock { $0[job.ticket] = outcome }
                }
            }
        }
    }

    /// Waits for every queued component and returns the outcomes that found a problem, by ticket.
    func finish() -> [Int: Outcome] {
        let rest = batch.withLock { jobs in
            defer { jobs = [] }
            return jobs
        }
        if !rest.isEmpty { dispatch(rest) }
        queue.sync {}
        return outcomes.withLock { $0 }
    }

    /// libical's parse of one component; `nil` when it found nothing wrong.
    private static func check(_ text: [UInt8], properties: [(name: String, line: Int)], line: Int) -> Outcome? {
        let messages: [String]? = LibICal.serialized {
            text.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars -> [String]? in
                    guard let component = icalparser_parse_string(chars.baseAddress) else { return nil }
                    defer { icalcomponent_free(component) }
                    var messages: [String] = []
                    var next = icalcomponent_get_first_property(component, ICAL_XLICERROR_PROPERTY)
                    while let p = next {
                        messages.append(LibICal.borrowed(icalproperty_get_xlicerror(p)) ?? "unknown libical error")
                        next = icalcomponent_get_next_property(component, ICAL_XLICERROR_PROPERTY)
                    }
                    return messages
                }
            }
        }
        guard let messages else { return .unreadable(text) }
        let errors = messages.compactMap { message -> (line: Int, message: String)? in
            let name = properties.first { message.contains(" \($0.name) ") || message.contains(" \($0.name):") }
            guard let text = LibICalMessage.translated(message, property: name?.name) else { return nil }
            return (name?.line ?? line, text)
        }
        return errors.isEmpty ? nil : .errors(errors)
    }
}

/// libical's findings (`X-LIC-ERROR`) in our words: what is wrong, where, and
/// what was done, never libical's text (which ends "Removing entire
/// property:", although we remove nothing).
enum LibICalMessage {
    /// Properties whose value is TEXT (RFC 5545 §3.3.11), where an empty value
    /// is valid (`text = *(...)`): Google writes `LOCATION:` and
    /// `DESCRIPTION:` on every event. libical drops them; we keep them as
    /// written and say nothing.
    static let textValued: Set<String> = ["SUMMARY", "DESCRIPTION", "LOCATION", "COMMENT", "CONTACT", "CATEGORIES", "RESOURCES",
                                          "TZNAME", "RELATED-TO", "UID", "NAME", "TZID"]

    /// The message for one of libical's reports about a property, or `nil`
    /// when there is nothing to say.
    static func translated(_ message: String, property: String?) -> String? {
        // Properties libical does not know (STYLED-DESCRIPTION, RFC 9073) and
        // empty X- properties: we keep those lines ourselves.
        if message.hasPrefix("Parse error in property name") || message.hasPrefix("No value for X property") { return nil }
        let name = property ?? "a property"
        if message.hasPrefix("No value for ") {
            // Empty TEXT is valid; an empty CLASS is reported by the importer,
            // which leaves it out.
            if let property, textValued.contains(property) || property == "CLASS" { return nil }
            return "\(name) has no value (RFC 5545 gives it one); it was kept as written"
        }
        if message.hasPrefix("Invalid VALUE type"), let range = message.range(of: "VALUE=", options: .backwards) {
            // RFC 9253 §9.1 lets RELATED-TO name a URI or a UID, which the
            // libical we link predates.
            let type = message[range.upperBound...].split(separator: " ").first.map { $0.uppercased() }
            if property == "RELATED-TO", type == "URI" || type == "UID" { return nil }
            return "\(name);VALUE=\(message[range.upperBound...]): RFC 5545 does not allow that value type for \(name); it was kept as written"
        }
        if message.hasPrefix("Can't parse as "), let type = message.dropFirst("Can't parse as ".count).split(separator: " ").first {
            let value = message.range(of: "property: ").map { String(message[$0.upperBound...]) } ?? ""
            return "\(name) ‘\(value)’ is not a valid \(type) value; it was kept as written"
        }
        return "libical could not read \(name); it was kept as written"
    }
}
#endif
