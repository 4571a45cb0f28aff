import Foundation

/// An error Horari throws, in Foundation's terms: its sentence is
/// `localizedDescription`, and it has a stable domain and code as an `NSError`.
///
/// Every public error of the library conforms. `errorDescription` is the
/// error's `description` (the sentence Horari wrote, with its line or field),
/// so an app that shows `error.localizedDescription` shows Horari's words,
/// not “The operation could not be completed”. Where a message says what to
/// do, that part is also `recoverySuggestion`. As an `NSError`, the domain is
/// `"Horari."` and the type's name (``horariDomain(_:)``) and the code is the
/// number its type's table gives the error's kind (Docs/Errors.md): codes keep
/// their numbers from release to release, and a new kind takes a new number.
///
/// ```swift
/// do { _ = try LocalDate(year: 2026, month: 2, day: 30) }
/// catch { print(error.localizedDescription) }   // February 2026 has 28 days…
/// ```
public protocol HorariError: LocalizedError, CustomNSError, CustomStringConvertible {}

extension HorariError {
    /// The error's `description`: the sentence Horari wrote.
    public var errorDescription: String? { description }

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
        var info: [String: Any] = [NSLocalizedDescriptionKey: description]
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
    public func remedy(of sentence: String) -> String? {
        guard let semicolon = sentence.range(of: "; ") else { return nil }
        let rest = sentence[semicolon.upperBound...].trimmingCharacters(in: .whitespaces)
        return rest.isEmpty ? nil : rest
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
public protocol ErrorCode: Hashable, Sendable {
    /// The error type whose kinds these are.
    associatedtype Coded: CodedError where Coded.Code == Self
}

extension ErrorCode {
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
