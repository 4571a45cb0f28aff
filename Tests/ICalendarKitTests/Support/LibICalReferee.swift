#if LibICal
import CLibICal
import ICalendarKit

/// libical's own reading of iCalendar values, as a referee for the
/// importer's own parsers.
///
/// libical keeps global error state and is not safe to call from several
/// threads, and Swift Testing runs tests in parallel: every call goes
/// through the library's one libical owner (`LibICal.serialized`), the same
/// lock the importer uses. (IntegrationTests has libical's recurrence
/// iterator as the recurrence engine's referee.)
enum LibICalReferee {
    /// libical's reading of a `DURATION` value: (days, seconds, negative), or
    /// `nil` when libical calls it a bad duration.
    static func duration(_ text: String) -> (days: Int, seconds: Int, negative: Bool)? {
        LibICal.serialized {
            horari_icalerror_clear()
            let d = icaldurationtype_from_string(text)
            if icaldurationtype_is_bad_duration(d) != 0 { return nil }
            return (Int(d.days) + 7 * Int(d.weeks), Int(d.hours) * 3600 + Int(d.minutes) * 60 + Int(d.seconds), d.is_neg != 0)
        }
    }
}
#endif
