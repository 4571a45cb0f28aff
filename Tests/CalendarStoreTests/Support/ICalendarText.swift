import CalendarStore

// What the store's tests share: reading iCalendar text as a test compares
// it, and the error a call throws.

/// Every value of a property in iCalendar text (unfolded; CR LF or LF line ends).
func values(_ name: String, in data: [UInt8]?) -> [String] {
    guard let data else { return [] }
    let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n ", with: "")
    return text.split(separator: "\n").filter { $0.hasPrefix(name + ":") || $0.hasPrefix(name + ";") }.compactMap { line in
        line.split(separator: ":", maxSplits: 1).dropFirst().first.map(String.init)
    }
}

/// The first value of a property in iCalendar text.
func property(_ name: String, in data: [UInt8]?) -> String? {
    values(name, in: data).first
}

/// The error `body` throws, as a ``CalendarStoreError``; `nil` when it throws none or another.
func failure(_ body: () throws -> Void) -> CalendarStoreError? {
    do {
        try body()
        return nil
    } catch let error as CalendarStoreError {
        return error
    } catch {
        return nil
    }
}
