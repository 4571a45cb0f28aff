extension ICalendarError.Code {
    /// Whether an error is an ``ICalendarError`` with this code, for `catch ICalendarError.Code.rejected`.
    /// - Parameters:
    ///   - code: the code to look for.
    ///   - error: the error caught.
    public static func ~= (code: Self, error: any Error) -> Bool { (error as? ICalendarError)?.code == code }
    /// Whether an ``ICalendarError`` has this code.
    /// - Parameters:
    ///   - code: the code to look for.
    ///   - error: the error caught.
    public static func ~= (code: Self, error: ICalendarError) -> Bool { error.code == code }
}
