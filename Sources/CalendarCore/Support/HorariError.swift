import Foundation

/// An error Horari throws, in Foundation's terms: its problem is
/// `localizedDescription`, what to do is `recoverySuggestion`, and it has a
/// stable domain and code as an `NSError`.
///
/// Every public error of the library conforms, and shares this machinery
/// rather than writing it again (as GRDB's `DatabaseError` and swift-system's
/// `Errno` share theirs). Horari writes each error as one sentence,
/// “problem; remedy”: that is its `description`, what a command-line tool
/// prints. `errorDescription` is the problem alone and `recoverySuggestion`
/// the remedy, so an app that shows both (an alert's message and its
/// informative text) says each once, and one that shows only
/// `localizedDescription` shows Horari's words, not “The operation could
/// not be completed”. As an `NSError`, the domain is `"Horari."` and the
/// type's name, and the code is the number its type's table gives the
/// error's kind (Docs/Errors.md): codes keep their numbers from release to
/// release, and a new kind takes a new number.
///
/// ```swift
/// import CalendarCore
/// import Foundation
///
/// do { _ = try LocalDate(year: 2026, month: 2, day: 30) }
/// catch { print(error.localizedDescription) }   // February 2026 has 28 days…
/// ```
public protocol HorariError: LocalizedError, CustomNSError, CustomStringConvertible {}

extension HorariError {
    /// The problem: the error's `description` without the remedy that
    /// `recoverySuggestion` gives (“problem; remedy”), so that the two
    /// shown together say each part once.
    public var errorDescription: String? {
        guard let remedy = recoverySuggestion, let range = description.range(of: "; " + remedy) else { return description }
        var problem = description
        problem.removeSubrange(range)
        return problem
    }

    /// What to do: the part of `description` after its first semicolon
    /// (“problem; remedy”), or `nil` for a sentence with none.
    public var recoverySuggestion: String? { remedy(of: description) }

    /// `"Horari."` and the type's name, without its generic arguments
    /// (`"Horari.CalendarStoreFailure"` for any `CalendarStoreFailure<…>`).
    public static var errorDomain: String {
        let name = String(describing: Self.self)
        return horariDomain(String(name.prefix { $0 != "<" }))
    }

    /// The sentence and the suggestion under Foundation's keys, for an error
    /// with nothing inside it.
    public var errorUserInfo: [String: Any] { foundationUserInfo(underlying: nil) }

    /// The user-info an `NSError` of this error carries: its sentence
    /// (`NSLocalizedDescriptionKey`), what to do
    /// (`NSLocalizedRecoverySuggestionErrorKey`) and the error it was made
    /// from (`NSUnderlyingErrorKey`).
    ///
    /// Darwin's Foundation reads `LocalizedError` by itself; the open-source
    /// Foundation of Linux reads only these keys (it prints “The operation
    /// could not be completed” otherwise), so every Horari error gives them.
    /// - Parameter underlying: the error inside this one, if any.
    public func foundationUserInfo(underlying: (any Error)?) -> [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: errorDescription ?? description]
        if let recoverySuggestion { info[NSLocalizedRecoverySuggestionErrorKey] = recoverySuggestion }
        if let underlying { info[NSUnderlyingErrorKey] = underlying as NSError }
        return info
    }

    /// The `NSError` domain of a Horari error type: `"Horari."` and its name.
    /// - Parameter name: the type's name, as written in the source.
    public static func horariDomain(_ name: String) -> String { "Horari." + name }

    /// What to do, in a sentence written “problem; remedy”: the part after
    /// the first semicolon, or `nil` for a sentence with none.
    /// - Parameter sentence: the error's sentence.
    /// A "; " inside ‘…’ (a title or a value the sentence quotes) is the
    /// quoted text's, not the sentence's.
    public func remedy(of sentence: String) -> String? {
        var quoted = 0
        var i = sentence.startIndex
        while i < sentence.endIndex {
            let c = sentence[i]
            if c == "‘" { quoted += 1 } else if c == "’", quoted > 0 { quoted -= 1 } else if c == ";", quoted == 0 {
                let after = sentence.index(after: i)
                if after < sentence.endIndex, sentence[after] == " " {
                    let rest = sentence[sentence.index(after: after)...].trimmingCharacters(in: .whitespaces)
                    return rest.isEmpty ? nil : rest
                }
            }
            i = sentence.index(after: i)
        }
        return nil
    }
}

/// An error with a code that a `catch` clause can name, as swift-system's
/// `Errno` is caught: `catch TimeValueError.Code.impossibleDate`.
///
/// A `catch` clause's pattern is matched with `~=`; ``ErrorCode`` gives
/// every coded error's codes the two that match the error itself (under
/// typed throws) and any `Error`, once for all of them.
public protocol CodedError: HorariError {
    /// The type of the error's kinds.
    associatedtype Code: ErrorCode where Code.Coded == Self
    /// The kind of problem.
    var code: Code { get }
}

/// The kinds of a ``CodedError``, each one a `catch` pattern.
///
/// ```swift
/// do { _ = try LocalDate(year: 2026, month: 2, day: 30) }
/// catch TimeValueError.Code.impossibleDate { print("no such day") }
/// ```
///
/// A code is a struct of constants rather than an enum, as swift-system's
/// `Errno`: `catch TimeValueError.Code.x` is then an expression pattern that
/// `~=` matches (an enum case there is read as an enum pattern, which cannot
/// match an error). Its name is its `rawValue` and its `description`; its
/// number is its place in ``numbered``, counted from 1.
public protocol ErrorCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible where RawValue == String {
    /// The error type whose kinds these are.
    associatedtype Coded: CodedError where Coded.Code == Self
    /// Every code of the type in the order of its table (Docs/Errors.md):
    /// the first is number 1. A new code goes at the end.
    static var numbered: [Self] { get }
}

extension CodedError {
    /// The code's number in its type's table (``ErrorCode/numbered``); 0
    /// for a code made elsewhere.
    public var errorCode: Int { Code.numbered.firstIndex(of: code).map { $0 + 1 } ?? 0 }
}

extension ErrorCode {
    /// The code's name.
    public var description: String { rawValue }

    /// Whether an error is of this code's type and has this code.
    /// - Parameters:
    ///   - code: the code to look for.
    ///   - error: the error caught.
    public static func ~= (code: Self, error: any Error) -> Bool { (error as? Coded)?.code == code }

    /// Whether an error of this code's type has this code.
    /// - Parameters:
    ///   - code: the code to look for.
    ///   - error: the error caught.
    public static func ~= (code: Self, error: Coded) -> Bool { error.code == code }
}
