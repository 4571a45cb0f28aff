#if LibICal
import CLibICal
import ICalendarKit

/// libical's own recurrence iterator, as a referee for differential tests.
///
/// libical's iterator keeps global state and is not safe to call from
/// several threads, and Swift Testing runs tests in parallel: every call goes
/// through the library's one libical owner (`LibICal.serialized`), the same
/// lock the importer uses. Strings are copied out of libical at once.
enum LibICalReferee {
    /// The first `limit` wall times (basic ISO) libical produces for a
    /// floating `DTSTART`, or `nil` when libical cannot read the rule.
    static func expand(rrule: String, dtstart: String, limit: Int) -> [String]? {
        LibICal.serialized {
            horari_icalerror_clear()
            let rule = icalrecurrencetype_from_string(rrule)
            if rule.freq == ICAL_NO_RECURRENCE { return nil }
            let start = icaltime_from_string(dtstart)
            guard let iterator = icalrecur_iterator_new(rule, start) else { return nil }
            defer { icalrecur_iterator_free(iterator) }
            var out: [String] = []
            while out.count < limit {
                let t = icalrecur_iterator_next(iterator)
                if icaltime_is_null_time(t) != 0 { break }
                out.append(format(t))
            }
            return out
        }
    }

    static func format(_ t: icaltimetype) -> String {
        func pad(_ v: Int32, _ n: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, n - s.count)) + s
        }
        if t.is_date != 0 { return pad(t.year, 4) + pad(t.month, 2) + pad(t.day, 2) }
        return pad(t.year, 4) + pad(t.month, 2) + pad(t.day, 2) + "T" + pad(t.hour, 2) + pad(t.minute, 2) + pad(t.second, 2)
    }
}
#endif
