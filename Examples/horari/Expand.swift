import ArgumentParser
import CalendarCore
import Foundation

/// `horari expand`: the occurrences of one recurrence rule.
struct Expand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "expand",
        abstract: "Print the occurrences of a recurrence rule, one per line.",
        discussion: """
            Occurrences print in the form of --dtstart: YYYYMMDD for a date, \
            YYYYMMDDTHHMMSS for a floating or zoned time (the wall time in --tzid, \
            moved forward out of a daylight-saving gap), and a trailing Z for UTC. \
            Without --limit, at most 100,000 print: when there are more, that is said \
            and the exit status is 1.

            Examples:
              horari expand --rrule 'FREQ=WEEKLY;BYDAY=MO,WE;COUNT=4' \\
                  --dtstart 20260302T090000 --tzid Europe/Madrid
              horari expand --rrule 'FREQ=DAILY' --dtstart 20260101 \\
                  --from 20260301 --to 20260308
              echo '{"rrule":"FREQ=MONTHLY;BYDAY=-1FR","dtstart":"20260130","limit":3}' \\
                  | horari expand --jsonl
            """
    )

    @Option(help: "The RRULE value, such as 'FREQ=WEEKLY;BYDAY=MO'.")
    var rrule: String?

    @Option(help: "The first occurrence (DTSTART): YYYYMMDD, YYYYMMDDTHHMMSS or YYYYMMDDTHHMMSSZ.")
    var dtstart: String?

    @Option(help: "The IANA time zone of --dtstart, such as Europe/Madrid.")
    var tzid: String?

    @Option(help: "The most occurrences to print.")
    var limit: Int?

    @Option(help: "Print occurrences starting at or after this time (same forms as --dtstart; read in the rule's zone).")
    var from: String?

    @Option(help: "Print occurrences starting before this time.")
    var to: String?

    @Flag(help: "Read one JSON request per line from standard input and answer each with one JSON line.")
    var jsonl = false

    mutating func validate() throws {
        if !jsonl && (rrule == nil || dtstart == nil) {
            throw ValidationError("--rrule and --dtstart are required (or use --jsonl)")
        }
    }

    func run() async throws {
        if jsonl {
            try runJSONLines()
            return
        }
        let request = ExpandRequest(rrule: rrule ?? "", dtstart: dtstart ?? "", tzid: tzid, limit: limit, from: from, to: to)
        let answer: (occurrences: [String], warnings: [String], cut: Bool)
        do { answer = try request.expansion() } catch { throw CLIError(error.message) }
        for warning in answer.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
        for line in answer.occurrences { print(line) }
        // Cut at the cap, which nobody asked for: said, and not a success (issue 41, 8).
        if answer.cut { throw CLIError(ExpandRequest.cutMessage) }
    }

    private func runJSONLines() throws {
        let decoder = JSONDecoder()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        while let line = readLine(strippingNewline: true) {
            if line.allSatisfy(\.isWhitespace) { continue }
            let answer: ExpandAnswer
            do {
                let request = try decoder.decode(ExpandRequest.self, from: Data(line.utf8))
                let expansion = try request.expansion()
                answer = ExpandAnswer(occurrences: expansion.occurrences, warnings: expansion.warnings + (expansion.cut ? [ExpandRequest.cutMessage] : []), error: nil)
            } catch let failure as ExpandFailure {
                answer = ExpandAnswer(occurrences: nil, warnings: [], error: failure.message)
            } catch {
                answer = ExpandAnswer(occurrences: nil, warnings: [], error: "not a JSON request: \(error)")
            }
            // One answer per request, written at once (unbuffered): a client
            // may wait for each line before sending the next request.
            writeToStandardOutput(try encoder.encode(answer) + Data("\n".utf8))
        }
    }
}

/// One expansion request, from the command line or a JSON line.
struct ExpandRequest: Decodable {
    var rrule: String
    var dtstart: String
    var tzid: String?
    var limit: Int?
    var from: String?
    var to: String?

    /// The hard cap on one request's occurrences when it gives no limit.
    static let defaultCap = 100_000

    /// What is said when the cap cut the occurrences short.
    static let cutMessage = "stopped after \(defaultCap.formatted(.number.locale(Locale(identifier: "en_US")))) occurrences, the most printed without --limit; there are more: give --limit, or a window with --from and --to"

    /// The occurrences, with a warning for each deviation read leniently,
    /// and whether the cap cut them short (no limit was given, and there are more).
    func expansion() throws(ExpandFailure) -> (occurrences: [String], warnings: [String], cut: Bool) {
        do {
            var warnings: [String] = []
            var occurrences = try expand(warnings: &warnings)
            let cut = limit == nil && occurrences.count > Self.defaultCap
            if cut { occurrences.removeLast(occurrences.count - Self.defaultCap) }
            return (occurrences, warnings, cut)
        } catch let failure as ExpandFailure {
            throw failure
        } catch {
            throw ExpandFailure(message: String(describing: error))
        }
    }

    private func expand(warnings: inout [String]) throws -> [String] {
        if let limit, limit < 1 { throw ExpandFailure(message: "the limit must be 1 or more, not \(limit)") }
        let start = try CalendarTime(icalValue: dtstart, tzid: tzid)
        let rule = try RecurrenceRule(parsing: rrule)
        let set = RecurrenceSet(start: start, rules: [rule])
        if let until = rule.until, until.isDate, !start.isDate {
            // Invalid by the letter of RFC 5545 §3.3.10 and common in real files;
            // read as every peer reads it (and as `horari import` does), with a
            // warning. The rest of the rule is still checked.
            warnings.append("UNTIL=\(until.icalValue) is a date but DTSTART has a time; read as the start of \(until.localDate), so that day is not included, as other calendars read it")
            var rest = set
            rest.rules[0].until = nil
            try rest.validate()
        } else {
            try set.validate()
        }
        let zone = try tzid.map { try ZoneRules.named($0) } ?? .utc
        let fromDate = try from.map { try CalendarTime(icalValue: $0, tzid: tzid).instant(floatingZone: zone) }
        let toDate = try to.map { try CalendarTime(icalValue: $0, tzid: tzid).instant(floatingZone: zone) }
        if toDate == nil && limit == nil && !set.isBounded {
            throw ExpandFailure(message: "the rule has no COUNT or UNTIL: give a limit or a window end")
        }
        // One more than the cap, to know whether it cut anything.
        let instances = try set.instances(from: fromDate, to: toDate, limit: limit ?? Self.defaultCap + 1, floatingZone: zone)
        return instances.map { $0.start.icalValue }
    }
}

struct ExpandFailure: Error {
    var message: String
}

struct ExpandAnswer: Encodable {
    var occurrences: [String]?
    var warnings: [String]
    var error: String?

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if let occurrences { try c.encode(occurrences, forKey: .occurrences) }
        if !warnings.isEmpty { try c.encode(warnings, forKey: .warnings) }
        if let error { try c.encode(error, forKey: .error) }
    }

    enum CodingKeys: String, CodingKey { case occurrences, warnings, error }
}

/// A failure reported to the user on stderr with exit code 1.
/// Writes to standard output, as `FileHandle.standardOutput.write(_:)` did
/// (straight to the descriptor, past `print`'s buffer). A reader that went
/// away (`horari export … | head`) ends the command quietly with 141, as
/// SIGPIPE does in a shell: Foundation's `write(_:)` traps on the error
/// instead, and once a PostgreSQL pool has run, SwiftNIO has set SIGPIPE
/// aside for the whole process, so the error is what a closed pipe gives.
func writeToStandardOutput(_ data: Data) {
    data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
        guard let base = bytes.baseAddress else { return }
        var written = 0
        while written < bytes.count {
            let n = write(STDOUT_FILENO, base + written, bytes.count - written)
            if n > 0 {
                written += n
            } else if n < 0, errno == EINTR {
                continue
            } else {
                // EPIPE, or any other failure to write: nothing more can be said here.
                Foundation.exit(141)
            }
        }
    }
}

struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ message: String) { description = message }
}
