import CalendarCore
import Foundation
import CalendarScheduling
import ICalendarKit
import SchedulingICalendar

/// Why a ``SchedulingStore`` call failed: the book refused the request, the
/// calendar cannot be read or written there, or its book cannot be read.
///
/// Nothing is written when a call fails, whatever the case.
///
/// ```swift
/// do { _ = try await gym.book(member: "marta", classID: "yoga", on: date) }
/// catch .refused(.classFull(let title, _, _, _)) { print("\(title) is full") }
/// ```
public enum SchedulingStoreError: HorariError, Sendable {
    /// The book refused the request: a full class, a clash, an unknown member…
    case refused(SchedulingError)
    /// Where the calendar lives failed: a server's error, a lock, a cache.
    case store(CalendarStoreError)
    /// The calendar's text cannot be read or written: not iCalendar, a file
    /// that did not import cleanly (`ICalendarError.Code.damaged`, with its
    /// diagnostics), a read-only file.
    case calendar(ICalendarError)
    /// The zone the calendar keeps its book on is not one this system knows,
    /// or a rule of the book's (a closure, the booking rules) cannot be read:
    /// with the line of the calendar property at fault in a calendar file.
    case unknownZone(SchedulingError, line: Int?)
    /// The calendar's scheduling records cannot be read as a book: every
    /// record the book refuses, the first with its line in a calendar file
    /// (`nil` in a folder or a collection, where the record names its resource).
    case unreadableBook([SchedulingBook.RecordProblem], firstLine: Int?)
    /// What the caller's own code threw: the body given to
    /// ``SchedulingStore/change(_:)``, or ``SchedulingStore/Settings/now``.
    case failed(any Error)

    /// What went wrong, in a sentence a person can act on.
    public var description: String {
        switch self {
        case .refused(let error), .unknownZone(let error, _): error.description
        case .store(let error): error.description
        case .calendar(let error): error.description
        case .unreadableBook(let problems, let line):
            (line.map { "line \($0): " } ?? "") + (problems.first?.message ?? "the scheduling book cannot be read")
                + (problems.count > 1 ? " (and \(problems.count - 1) more)" : "")
        case .failed(let error): String(describing: error)
        }
    }

    /// What to do about it, when the error inside says.
    public var recoverySuggestion: String? {
        switch self {
        case .refused(let error), .unknownZone(let error, _): error.recoverySuggestion
        case .store(let error): error.recoverySuggestion
        case .calendar(let error): error.recoverySuggestion
        case .unreadableBook: nil
        case .failed(let error): (error as? any LocalizedError)?.recoverySuggestion
        }
    }

    /// The case's number (Docs/Errors.md); the error inside is `NSUnderlyingErrorKey`.
    public var errorCode: Int {
        switch self {
        case .refused: 1
        case .store: 2
        case .calendar: 3
        case .unknownZone: 4
        case .unreadableBook: 5
        case .failed: 6
        }
    }

    /// The sentence, the suggestion and the error inside, under Foundation's keys.
    public var errorUserInfo: [String: Any] {
        switch self {
        case .refused(let error), .unknownZone(let error, _): foundationUserInfo(underlying: error)
        case .store(let error): foundationUserInfo(underlying: error)
        case .calendar(let error): foundationUserInfo(underlying: error)
        case .unreadableBook: foundationUserInfo(underlying: nil)
        case .failed(let error): foundationUserInfo(underlying: error)
        }
    }

    /// The error as this type: one of its own, else by what threw it.
    static func from(_ error: any Error) -> SchedulingStoreError {
        switch error {
        case let error as SchedulingStoreError: error
        case let error as SchedulingError: .refused(error)
        case let error as CalendarStoreError: .store(error)
        case let error as ICalendarError: .calendar(error)
        default: .failed(error)
        }
    }
}

extension SchedulingStoreError {
    /// Whether a change of the whole book stopped to take the book's lease first.
    var isLeaseNeeded: Bool {
        if case .failed(let error) = self { return error is SchedulingStore.LeaseNeeded }
        return false
    }
}
