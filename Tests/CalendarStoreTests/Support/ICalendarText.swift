import CalendarCore
import Dispatch
import Foundation
import ICalendarKit
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

/// The error `body` throws, as a ``CalendarStoreError`` (also from inside a
/// `CalendarStoreFailure.store`); `nil` when it throws none or another.
func failure(_ body: () async throws -> Void) async -> CalendarStoreError? {
    do {
        try await body()
        return nil
    } catch let error as CalendarStoreError {
        return error
    } catch let error as CalendarStoreFailure<Never> {
        if case .store(let error) = error { return error }
        return nil
    } catch let error as CalendarStoreFailure<any Error> {
        if case .store(let error) = error { return error }
        return nil
    } catch {
        return nil
    }
}

/// Runs `body` to its end from synchronous code, blocking the calling thread:
/// only for a test that must make a store call inside a change's body.
func waitingFor(_ body: @escaping @Sendable () async throws -> Void) throws {
    let done = DispatchSemaphore(value: 0)
    let outcome = Locked<(any Error)?>(nil)
    Task.detached {
        do { try await body() } catch { outcome.withLock { $0 = error } }
        done.signal()
    }
    done.wait()
    if let error = outcome.withLock({ $0 }) { throw error }
}

/// The calendar's error `body` throws (a `CalendarStoreFailure.calendar`, or
/// an `ICalendarError` as it is); `nil` when it throws none or another.
func calendarFailure(_ body: () async throws -> Void) async -> ICalendarError? {
    do {
        try await body()
        return nil
    } catch let error as ICalendarError {
        return error
    } catch let error as CalendarStoreFailure<any Error> {
        if case .calendar(let error) = error { return error }
        return nil
    } catch let error as CalendarStoreFailure<Never> {
        if case .calendar(let error) = error { return error }
        return nil
    } catch {
        return nil
    }
}

/// An executor with a thread of its own, so that a test that times a call
/// is not timed waiting for the cooperative pool: on a 2-core machine the
/// other suites' long synchronous tests hold both of its threads for many
/// seconds, and a suspended call resumes only when one is free.
final class OwnThreadExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "horari.tests.own-thread")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// How long `body` takes, run on this executor's thread, in seconds.
    static func timing(_ body: @Sendable () async -> Void) async -> TimeInterval {
        await withTaskExecutorPreference(OwnThreadExecutor()) {
            let started = Date()
            await body()
            return Date().timeIntervalSince(started)
        }
    }
}
