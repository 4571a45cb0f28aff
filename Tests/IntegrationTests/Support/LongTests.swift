import Foundation
import Testing

extension Tag {
    /// A test that takes many seconds in a debug build (the libical
    /// differential, about 100 s; the extents against occurrences, about
    /// 10 s). A plain `swift test` skips it; `make test-long` and CI run it.
    @Tag static var long: Self
}

/// Whether the long tests run: only when `HORARI_LONG_TESTS` is set, as
/// `make test-long` sets it.
let longTestsEnabled = ProcessInfo.processInfo.environment["HORARI_LONG_TESTS"] != nil

extension Trait where Self == ConditionTrait {
    /// Runs a test only when ``longTestsEnabled``; give it `.tags(.long)` too.
    static var onlyInLongRuns: Self {
        .enabled(if: longTestsEnabled, "a long test: set HORARI_LONG_TESTS=1 (make test-long) to run it")
    }
}
