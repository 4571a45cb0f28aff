import ArgumentParser
import Foundation

/// What `horari` says about a command line it cannot take, before
/// swift-argument-parser does: a mistyped command (`horari mnth`, which the
/// parser would hand to the default `sample` as an argument) and an unknown
/// option (`--strat`, which the parser names only after the command's own
/// checks, so `add` would first complain that --start is missing) are named,
/// with the nearest word there is. Both are usage errors (exit 2).
///
/// The commands and their options are read from the command tree itself
/// (`configuration.subcommands`, and each command's `_dumpHelp()`), so a new
/// command or option needs nothing here.
enum CommandWords {
    /// The names a command answers to.
    static func names(of command: any ParsableCommand.Type) -> [String] {
        [command._commandName] + command.configuration.aliases
    }

    /// The mistake in a command line the parser refused (or in `horari help
    /// WORDS`), said as a person can act on it; `nil` when it is neither an
    /// unknown command nor an unknown option, and the parser's message stands.
    static func mistake(in arguments: [String], root: any ParsableCommand.Type) -> String? {
        var path: [any ParsableCommand.Type] = [root]
        var index = 0
        var current: any ParsableCommand.Type = root
        // `horari help month`: the words after help name commands, and nothing else is read.
        if arguments.first == "help" {
            for word in arguments.dropFirst() where !word.hasPrefix("-") {
                guard let next = current.configuration.subcommands.first(where: { names(of: $0).contains(word) }) else {
                    return unknownCommand(word, in: path)
                }
                path.append(next)
                current = next
            }
            return nil
        }
        // The words that name subcommands, down to the command that runs.
        while index < arguments.count, !current.configuration.subcommands.isEmpty {
            let word = arguments[index]
            if word.hasPrefix("-") { break }
            if path.count == 1, word == "help" { return nil }
            guard let next = current.configuration.subcommands.first(where: { names(of: $0).contains(word) }) else {
                return unknownCommand(word, in: path)
            }
            path.append(next)
            current = next
            index += 1
        }
        // The command the user typed is the one named (`horari --verison`:
        // "horari has no option", not the hidden default's name).
        let typed = path
        if !current.configuration.subcommands.isEmpty {
            guard let byDefault = current.configuration.defaultSubcommand else { return nil }
            path.append(byDefault)
            current = byDefault
        }
        let known = Options(of: current)
        var words = arguments[index...].makeIterator()
        while let word = words.next() {
            if word == "--" { break }
            guard word.hasPrefix("-"), word.count > 1, !isNumber(word) else { continue }
            if word.hasPrefix("--") {
                let name = String(word.dropFirst(2).prefix { $0 != "=" })
                guard let takesValue = known.long[name] else { return unknownOption("--" + name, in: typed, known: known) }
                if takesValue, !word.contains("=") { _ = words.next() }
            } else {
                let letters = Array(word.dropFirst())
                for (n, letter) in letters.enumerated() {
                    guard let takesValue = known.short[letter] else { return unknownOption("-\(letter)", in: typed, known: known) }
                    if takesValue {
                        if n == letters.count - 1 { _ = words.next() }
                        break
                    }
                }
            }
        }
        return nil
    }

    /// Whether a word is a number (`-30`, `-1.5`), a value rather than an option.
    static func isNumber(_ word: String) -> Bool { Double(word) != nil }

    /// The options a command takes: long and short names, each with whether
    /// it takes a value.
    struct Options {
        var long: [String: Bool] = ["help": false, "version": false, "generate-completion-script": true, "experimental-dump-help": false]
        var short: [Character: Bool] = ["h": false]

        init(of command: any ParsableCommand.Type) {
            guard let dump = try? JSONDecoder().decode(Dump.self, from: Data(command._dumpHelp().utf8)) else { return }
            for argument in dump.command.arguments ?? [] where argument.kind != "positional" {
                for name in argument.names ?? [] {
                    let takesValue = argument.kind == "option"
                    if name.kind == "short", let letter = name.name.first { short[letter] = takesValue } else { long[name.name] = takesValue }
                }
            }
        }

        /// The part of swift-argument-parser's `--experimental-dump-help` JSON read here.
        private struct Dump: Decodable {
            struct Name: Decodable {
                let kind: String
                let name: String
            }
            struct Argument: Decodable {
                let kind: String
                let names: [Name]?
            }
            struct Command: Decodable { let arguments: [Argument]? }
            let command: Command
        }
    }

    static func unknownCommand(_ word: String, in path: [any ParsableCommand.Type]) -> String {
        let command = path.map { $0._commandName }.joined(separator: " ")
        var candidates: [String] = []
        for sub in path.last?.configuration.subcommands ?? [] { candidates += names(of: sub) }
        if path.count == 1 { candidates.append("help") }
        let guess = nearest(word, among: candidates).map { "; did you mean ‘\($0)’?" } ?? "."
        return "\(command) has no command ‘\(word)’\(guess)\nSee '\(command) --help' for its commands."
    }

    static func unknownOption(_ option: String, in path: [any ParsableCommand.Type], known: Options) -> String {
        let command = path.map { $0._commandName }.joined(separator: " ")
        // A one-letter option is not guessed at: any other letter is one edit away.
        let guess = option.hasPrefix("--") ? nearest(option, among: known.long.keys.sorted().map { "--" + $0 }).map { "; did you mean \($0)?" } ?? "." : "."
        return "\(command) has no option \(option)\(guess)\nSee '\(command) --help' for its options."
    }

    /// The candidate nearest a mistyped word, counting a swap of two
    /// neighbouring letters as one edit (optimal string alignment); `nil`
    /// when none is within two edits, or a third of the word for a long one.
    static func nearest(_ word: String, among candidates: [String]) -> String? {
        let limit = max(2, word.count / 3)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let d = distance(word, candidate)
            if d <= limit, d < (best?.distance ?? Int.max) { best = (candidate, d) }
        }
        return best?.candidate
    }

    /// The optimal string alignment distance: insertions, deletions,
    /// substitutions and swaps of two neighbouring characters.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased()), b = Array(b.lowercased())
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}

/// Whole numbers typed for options. The options that take them read the
/// next word whatever it looks like (`parsing: .unconditional`), so
/// `--minutes -30` is a value, refused here as what it is rather than taken
/// for an unknown option `-3`; each refusal is a usage error (exit 2), the
/// same in every command.
enum WholeNumber {
    /// A length in minutes: 1 or more.
    @Sendable static func minutes(_ text: String) throws -> Int { try read(text, least: 1, what: "a length in minutes") }
    /// A buffer in minutes: 0 or more.
    @Sendable static func buffer(_ text: String) throws -> Int { try read(text, least: 0, what: "a buffer in minutes") }
    /// A notice in minutes: 0 to a year.
    @Sendable static func notice(_ text: String) throws -> Int {
        let n = try read(text, least: 0, what: "a notice in minutes")
        guard n <= 366 * 24 * 60 else { throw ValidationError("a notice in minutes is at most a year (527040)") }
        return n
    }
    /// How many to show: 1 or more.
    @Sendable static func limit(_ text: String) throws -> Int { try read(text, least: 1, what: "the number to show") }
    /// How many places: 1 or more.
    @Sendable static func places(_ text: String) throws -> Int { try read(text, least: 1, what: "a number of places") }

    static func read(_ text: String, least: Int, what: String) throws -> Int {
        guard let n = Int(text) else {
            let digits = text.drop { $0 == "-" || $0 == "+" }
            if !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) { throw ValidationError("too large a number for \(what)") }
            throw ValidationError("\(what) is a whole number, such as \(least == 0 ? 10 : 45)")
        }
        if n < 0 { throw ValidationError("\(what) cannot be negative; give \(least) or more") }
        if n < least { throw ValidationError("\(what) is \(least) or more") }
        return n
    }
}

extension Character {
    /// 0 through 9.
    var isASCIIDigit: Bool { isASCII && isNumber }
}
