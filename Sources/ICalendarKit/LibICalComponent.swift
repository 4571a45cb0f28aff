internal import CLibICal
import CalendarCore

/// The fields libical decodes for one `VEVENT` or `VTODO`, copied out of its
/// tree before the tree is freed.
///
/// What libical reads and what we read, and why:
/// - libical: the component's structure and its `X-LIC-ERROR` reports,
///   `SEQUENCE` and `DURATION`.
/// - ours, from the raw lines: TEXT values (libical trims their leading and
///   trailing white space), date-times (libical turns an unknown `TZID`
///   into a floating time without a word and accepts 30 February),
///   `RRULE` (libical refuses valid rules such as `BYDAY=-31FR`, see
///   Docs/Recurrence.md), `CATEGORIES` (libical splits `a,b\,c` wrongly) and
///   every property, parameter and component libical drops or rewrites.
struct LibICalFields {
    var sequence: Int?
    var duration: ItemDuration?
    var durationIsNegative = false
    /// libical's `X-LIC-ERROR` texts.
    var errors: [String] = []

    /// Parses one component's text (NUL-terminated bytes) with libical and
    /// copies out the fields; `nil` when libical cannot make a component of it.
    static func read(_ text: [UInt8]) -> LibICalFields? {
        LibICal.serialized {
            text.withUnsafeBufferPointer { buffer -> LibICalFields? in
                buffer.withMemoryRebound(to: CChar.self) { chars -> LibICalFields? in
                    guard let component = icalparser_parse_string(chars.baseAddress) else { return nil }
                    defer { icalcomponent_free(component) }
                    return fields(of: component)
                }
            }
        }
    }

    private static func fields(of component: OpaquePointer) -> LibICalFields {
        var f = LibICalFields()
        var next = icalcomponent_get_first_property(component, ICAL_ANY_PROPERTY)
        while let p = next {
            switch icalproperty_isa(p) {
            case ICAL_SEQUENCE_PROPERTY: if f.sequence == nil { f.sequence = Int(icalproperty_get_sequence(p)) }
            case ICAL_DURATION_PROPERTY:
                if f.duration == nil {
                    let d = icalproperty_get_duration(p)
                    f.duration = ItemDuration(days: Int(d.days) + 7 * Int(d.weeks), seconds: Int(d.hours) * 3600 + Int(d.minutes) * 60 + Int(d.seconds))
                    f.durationIsNegative = d.is_neg != 0
                }
            case ICAL_XLICERROR_PROPERTY: f.errors.append(LibICal.borrowed(icalproperty_get_xlicerror(p)) ?? "unknown libical error")
            default: break
            }
            next = icalcomponent_get_next_property(component, ICAL_ANY_PROPERTY)
        }
        return f
    }
}
