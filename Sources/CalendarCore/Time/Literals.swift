// Date and time literals that need no `try`.
//
// The literal type is `StaticString`, which only the compiler can make: no
// string read at run time (a file, a form, a command line) can reach these
// initialisers, so a literal that is not a date is a mistake in the source,
// like an array index out of range, and stops the program at its first run
// with the literal in the message. Text from outside goes through the
// throwing initialisers (`init(year:month:day:)`, `ISOText`, `icalValue`).

extension LocalDate: ExpressibleByStringLiteral {
    /// A date written in the source as `"2026-11-26"`.
    ///
    /// ```swift
    /// let opening: LocalDate = "2026-11-26"
    /// ```
    /// - Parameter value: `YYYY-MM-DD`; any other text stops the program,
    ///   naming it.
    public init(stringLiteral value: StaticString) {
        let text = value.description
        do { self = try ISOText.date(text) } catch { preconditionFailure("LocalDate literal: \(error.message)") }
    }
}

extension LocalDateTime: ExpressibleByStringLiteral {
    /// A wall time written in the source as `"2026-11-26T18:30"` (seconds optional; a space may stand for the `T`).
    ///
    /// ```swift
    /// let start: LocalDateTime = "2026-11-26T18:30"
    /// ```
    /// - Parameter value: `YYYY-MM-DDTHH:MM[:SS]`; any other text stops the
    ///   program, naming it.
    public init(stringLiteral value: StaticString) {
        var text = value.description
        if text.count == 16 { text += ":00" }
        text = text.replacingFirstSpaceWithT()
        do { self = try ISOText.dateTime(text) } catch { preconditionFailure("LocalDateTime literal: \(error.message)") }
    }
}

extension String {
    fileprivate func replacingFirstSpaceWithT() -> String {
        guard let i = firstIndex(of: " ") else { return self }
        var s = self
        s.replaceSubrange(i...i, with: "T")
        return s
    }
}
