// `catch Code.x` for the library's struct errors, as swift-system's `Errno`
// does: a `catch` clause's pattern is matched with `~=`, so each error's code
// matches both the error itself (under typed throws) and any `Error`.
//
// ```swift
// do { _ = try LocalDate(year: 2026, month: 2, day: 30) }
// catch TimeValueError.Code.impossibleDate { print("no such day") }
// ```

extension TimeValueError.Code {
    /// Whether an error is a ``TimeValueError`` with this code.
    /// - Parameters:
    ///   - code: the code to look for.
    ///   - error: the error caught.
    public static func ~= (code: Self, error: any Error) -> Bool { (error as? TimeValueError)?.code == code }
    /// Whether a ``TimeValueError`` has this code.
    /// - Parameters:
    ///   - code: the code to look for.
    ///   - error: the error caught.
    public static func ~= (code: Self, error: TimeValueError) -> Bool { error.code == code }
}

extension CalendarItemError.Code {
    /// Whether an error is a ``CalendarItemError`` with this code.
    /// - Parameters:
    ///   - code: the code to look for.
    ///   - error: the error caught.
    public static func ~= (code: Self, error: any Error) -> Bool { (error as? CalendarItemError)?.code == code }
    /// Whether a ``CalendarItemError`` has this code.
    /// - Parameters:
    ///   - code: the code to look for.
    ///   - error: the error caught.
    public static func ~= (code: Self, error: CalendarItemError) -> Bool { error.code == code }
}

extension RecurrenceRuleError.Code {
    /// Whether an error is a ``RecurrenceRuleError`` with this code.
    /// - Parameters:
    ///   - code: the code to look for.
    ///   - error: the error caught.
    public static func ~= (code: Self, error: any Error) -> Bool { (error as? RecurrenceRuleError)?.code == code }
    /// Whether a ``RecurrenceRuleError`` has this code.
    /// - Parameters:
    ///   - code: the code to look for.
    ///   - error: the error caught.
    public static func ~= (code: Self, error: RecurrenceRuleError) -> Bool { error.code == code }
}

extension RecurrenceError.Code {
    /// Whether an error is a ``RecurrenceError`` with this code.
    /// - Parameters:
    ///   - code: the code to look for.
    ///   - error: the error caught.
    public static func ~= (code: Self, error: any Error) -> Bool { (error as? RecurrenceError)?.code == code }
    /// Whether a ``RecurrenceError`` has this code.
    /// - Parameters:
    ///   - code: the code to look for.
    ///   - error: the error caught.
    public static func ~= (code: Self, error: RecurrenceError) -> Bool { error.code == code }
}
