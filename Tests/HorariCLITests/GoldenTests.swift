import Foundation
import Testing

/// One run of `horari` and its golden file.
struct GoldenCase: Sendable, CustomTestStringConvertible {
    var name: String
    var arguments: [String]
    var environment: [String: String] = [:]
    var stdin: String?
    /// A refused change: the calendar file must be byte for byte as it was.
    var leavesFileUnchanged = false
    /// The output has `DTSTAMP`s of the moment it ran; they are compared as `DTSTAMP:…`.
    var stampsVary = false

    var testDescription: String { name }

    init(_ name: String, _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil, unchanged: Bool = false, stampsVary: Bool = false) {
        self.stampsVary = stampsVary
        self.name = name
        self.arguments = arguments
        self.environment = environment
        self.stdin = stdin
        leavesFileUnchanged = unchanged
    }
}

/// Every subcommand, with colour off and (where anything is coloured) on.
/// Mutating commands work on a scratch copy of the sample (`$WORK/gym.ics`),
/// with `--now` fixed so that the stamps they write do not depend on the clock.
let goldenCases: [GoldenCase] = {
    // No --time-zone: a view shows the calendar's own clock (Europe/Madrid)
    // on this UTC machine, and says so in its header.
    let sample = ["--calendar", "$SAMPLE", "--today", "2026-11-22"]
    let work = ["--calendar", "$WORK/gym.ics", "--now", "2026-11-22 10:00"]
    let always = ["COLORTERM": "truecolor"]
    let planner = ["--calendar", "$FIXTURES/planner.ics", "--today", "2026-11-22"]
    var cases: [GoldenCase] = [
        // A bare `horari`: the embedded sample.
        GoldenCase("sample", ["--today", "2026-11-22", "--color", "never"]),
        GoldenCase("sample-color-256", ["--today", "2026-11-22", "--color", "always"]),
        GoldenCase("sample-color-truecolor", ["--today", "2026-11-22", "--color", "always"], environment: always),
        GoldenCase("sample-no-color-env", ["--today", "2026-11-22"], environment: ["NO_COLOR": "1"]),
        GoldenCase("sample-moved-to-march-2027", ["sample", "--today", "2027-03-03", "--color", "never", "--first-weekday", "sunday"]),
        GoldenCase("sample-write-existing", ["sample", "--write", "$WORK/gym.ics"], unchanged: true),
        // Views.
        GoldenCase("month", ["month", "2026-11"] + sample + ["--first-weekday", "monday", "--week-numbers", "--color", "never"]),
        GoldenCase("month-color", ["month", "2026-11"] + sample + ["--first-weekday", "monday", "--week-numbers", "--color", "always"], environment: always),
        // Issue 41, 3: a red item from another program is drawn in deeppink; red only for the 10th's two items.
        GoldenCase("month-red-from-elsewhere", ["month", "2026-12", "--calendar", "$FIXTURES/red-elsewhere.ics", "--color", "always", "--time-zone", "UTC", "--today", "2026-11-22"], environment: always),
        GoldenCase("month-empty-like-ncal", ["month", "2026-02", "--calendar", "$FIXTURES/empty-utc.ics", "--color", "never", "--today", "2026-11-22"]),
        GoldenCase("month-no-calendar-yet", ["month", "2026-02", "--color", "never"]),
        GoldenCase("day-other-zone", ["day", "2026-11-26", "--calendar", "$SAMPLE", "--time-zone", "America/New_York", "--color", "never"]),
        GoldenCase("month-json", ["month", "2026-11"] + sample + ["--format", "json"]),
        GoldenCase("week", ["week", "2026-11-25"] + sample + ["--color", "never"]),
        GoldenCase("week-color-es", ["week", "2026-11-25"] + sample + ["--locale", "es_ES", "--color", "always"]),
        GoldenCase("day", ["day", "2026-11-25"] + sample + ["--color", "never"]),
        GoldenCase("day-json", ["day", "2026-11-25"] + sample + ["--format", "json"]),
        GoldenCase("week-json", ["week", "2026-11-25"] + sample + ["--format", "json"]),
        GoldenCase("list-json", ["list", "--from", "2026-11-23", "--limit", "4"] + sample + ["--format", "json"]),
        GoldenCase("day-color", ["day", "2026-11-25"] + sample + ["--color", "always"], environment: always),
        GoldenCase("list", ["list", "--from", "2026-11-23", "--limit", "6"] + sample + ["--color", "never"]),
        GoldenCase("list-color-it", ["list", "--from", "2026-11-23", "--limit", "6", "--locale", "it_IT"] + sample + ["--color", "always"]),
        // A student's planner: done tasks, short IDs (issue 17).
        GoldenCase("planner-week", ["week", "2026-11-25"] + planner + ["--first-weekday", "monday", "--color", "never"]),
        GoldenCase("planner-week-color", ["week", "2026-11-25"] + planner + ["--first-weekday", "monday", "--color", "always"], environment: always),
        GoldenCase("planner-day", ["day", "2026-11-25"] + planner + ["--color", "never"]),
        GoldenCase("planner-day-color", ["day", "2026-11-25"] + planner + ["--color", "always"], environment: always),
        GoldenCase("planner-list", ["list", "--from", "2026-11-25"] + planner + ["--color", "never"]),
        GoldenCase("planner-list-color", ["list", "--from", "2026-11-25"] + planner + ["--color", "always"], environment: always),
        GoldenCase("planner-month", ["month", "2026-11"] + planner + ["--color", "never"]),
        GoldenCase("planner-month-color", ["month", "2026-11"] + planner + ["--color", "always"], environment: always),
        GoldenCase("planner-week-json", ["week", "2026-11-25"] + planner + ["--format", "json"]),
        GoldenCase("planner-done", ["done", "6f1c2a9e-7", "--calendar", "$WORK/planner.ics", "--now", "2026-11-22 10:00"]),
        GoldenCase("planner-done-undo", ["done", "6f1c2a9e-1", "--undo", "--calendar", "$WORK/planner.ics", "--now", "2026-11-22 10:00"]),
        GoldenCase("planner-done-already", ["done", "d0e1f2", "--calendar", "$WORK/planner.ics", "--now", "2026-11-22 10:00"]),
        // The gym's booking rules (issue 31, 4), kept in the calendar.
        GoldenCase("classes-policy-none", ["classes", "policy", "--calendar", "$SAMPLE"]),
        GoldenCase("classes-policy-set", ["classes", "policy", "--window", "14", "--cutoff", "12", "--weekly-limit", "3"] + work),
        GoldenCase("classes-policy-bad", ["classes", "policy", "--weekly-limit", "0"] + work, unchanged: true),
        // The rules sessions keep (issue 43, 1), kept with the book.
        GoldenCase("sessions-policy", ["sessions", "policy", "--calendar", "$SAMPLE"]),
        GoldenCase("sessions-policy-set", ["sessions", "policy", "--notice", "120", "--outside-hours", "allow"] + work),
        GoldenCase("sessions-policy-bad", ["sessions", "policy", "--skipped-times", "sometimes"] + work, unchanged: true),
        // Closing the gym (issue 31, 3): Thursday 26's Pilates is full with one waiting.
        GoldenCase("classes-close", ["classes", "close", "2026-11-26", "--reason", "Boiler repair"] + work),
        GoldenCase("classes-close-json", ["classes", "close", "2026-11-25..2026-11-27", "--reason", "Boiler repair", "--format", "json"] + work),
        GoldenCase("classes-close-backwards", ["classes", "close", "2026-12-26..2026-12-24", "--reason", "Christmas"] + work, unchanged: true),
        GoldenCase("classes-close-ten-years", ["classes", "close", "2026-12-24..2036-12-24", "--reason", "Works"] + work, unchanged: true),
        GoldenCase("classes-close-long-reason", ["classes", "close", "2026-12-24", "--reason", String(repeating: "Christmas ", count: 1000)] + work, unchanged: true),
        GoldenCase("classes-close-not-a-range", ["classes", "close", "2026-12-24..", "--reason", "Christmas"] + work, unchanged: true),
        GoldenCase("classes-open-not-closed", ["classes", "open", "2026-12-24"] + work, unchanged: true),
        GoldenCase("classes-hours-set", ["classes", "hours", "--set", "MO-FR 07:00-14:00 16:00-22:00", "--set", "SA 09:00-14:00"] + work),
        GoldenCase("classes-hours-overlap", ["classes", "hours", "--set", "MO-FR 07:00-14:00 13:00-22:00"] + work, unchanged: true),
        // Tasks as students keep them (issue 31, 2): Thunderbird's and Apple Reminders' forms.
        GoldenCase("tasks-pending", ["list", "--pending", "--calendar", "$FIXTURES/tasks.ics", "--now", "2026-11-20 19:00"]),
        GoldenCase("tasks-pending-json", ["list", "--pending", "--calendar", "$FIXTURES/tasks.ics", "--now", "2026-11-20 19:00", "--format", "json"]),
        GoldenCase("tasks-pending-category", ["list", "--pending", "--category", "chemistry", "--calendar", "$FIXTURES/tasks.ics", "--now", "2026-11-21 09:00"]),
        GoldenCase("tasks-done", ["list", "--done", "--calendar", "$FIXTURES/tasks.ics"]),
        GoldenCase("tasks-done-json", ["list", "--done", "--calendar", "$FIXTURES/tasks.ics", "--format", "json", "--time-zone", "Asia/Tokyo"]),
        GoldenCase("tasks-add-someday", ["add", "Read Kant", "--someday", "--category", "Philosophy", "--id", "kant", "--calendar", "$WORK/planner.ics", "--now", "2026-11-22 10:00"]),
        GoldenCase("tasks-add-someday-dated", ["add", "Read Kant", "--someday", "--due", "2026-12-01", "--calendar", "$WORK/planner.ics"], unchanged: true),
        GoldenCase("tasks-add-long-category", ["add", "Essay", "--task", "--due", "2026-12-01", "--category", String(repeating: "History ", count: 40), "--calendar", "$WORK/planner.ics"], unchanged: true),
        GoldenCase("tasks-delete-category-nothing", ["delete", "--category", "Maths", "--yes", "--calendar", "$WORK/planner.ics"], unchanged: true),
        GoldenCase("planner-done-ambiguous", ["done", "6f1c2a", "--calendar", "$WORK/planner.ics", "--now", "2026-11-22 10:00"], unchanged: true),
        GoldenCase("planner-done-event-refused", ["done", "c9d8e7", "--calendar", "$WORK/planner.ics", "--now", "2026-11-22 10:00"], unchanged: true),
        GoldenCase("planner-edit-short-id", ["edit", "b3e4d5", "--title", "Read chapters 4 and 5", "--calendar", "$WORK/planner.ics", "--now", "2026-11-22 10:00"]),
        GoldenCase("planner-delete-short-id", ["delete", "d0e1f2", "--yes", "--calendar", "$WORK/planner.ics", "--now", "2026-11-22 10:00"]),
        // A sports league's season: all-day rounds with their places, by month.
        GoldenCase("league-list", ["list", "--from", "2026-10-01", "--calendar", "$FIXTURES/league.ics", "--today", "2026-09-01", "--color", "never"]),
        GoldenCase("league-list-color", ["list", "--from", "2026-10-01", "--calendar", "$FIXTURES/league.ics", "--today", "2026-09-01", "--color", "always"], environment: always),
        GoldenCase("league-list-json", ["list", "--from", "2026-10-01", "--limit", "3", "--calendar", "$FIXTURES/league.ics", "--today", "2026-09-01", "--format", "json"]),
        // Its rounds holding their matches (RELATED-TO, issue 44, 5): each under its parent in its month, numbered.
        GoldenCase("league-rounds-list", ["list", "--from", "2026-10-01", "--calendar", "$FIXTURES/league-rounds.ics", "--today", "2026-09-01", "--color", "never"]),
        GoldenCase("league-rounds-list-json", ["list", "--from", "2026-10-01", "--limit", "4", "--calendar", "$FIXTURES/league-rounds.ics", "--today", "2026-09-01", "--format", "json"]),
        // Reminders (issue 31, 1): a member's booked classes and a coach's sessions with a default; one too far away refused.
        GoldenCase("alarms-member-default", ["alarms", "--member", "marta", "--from", "2026-11-23", "--to", "2026-11-29", "--default", "-PT1H", "--calendar", "$SAMPLE"]),
        GoldenCase("alarms-client-default", ["alarms", "--client", "anna", "--coach", "marc", "--from", "2026-11-23", "--to", "2026-11-29", "--default", "-P1D", "--calendar", "$SAMPLE"]),
        GoldenCase("alarms-client-no-coach", ["alarms", "--client", "anna", "--from", "2026-11-23", "--to", "2026-11-29", "--calendar", "$SAMPLE"]),
        GoldenCase("alarms-coach-json", ["alarms", "--coach", "marc", "--from", "2026-11-23", "--to", "2026-11-29", "--default", "-PT30M", "--format", "json", "--calendar", "$SAMPLE"]),
        GoldenCase("add-alarm-too-far", ["add", "Physio", "--start", "2026-11-25 12:00", "--alarm", "-P9999W"] + work, unchanged: true),
        GoldenCase("add-alarm", ["add", "Physio", "--start", "2026-11-25 12:00", "--minutes", "45", "--alarm", "-PT30M", "--id", "physio"] + work),
        GoldenCase("view-wrong-date", ["day", "2026-02-30"] + sample),
        GoldenCase("view-missing-file", ["week", "--calendar", "$WORK/nowhere.ics"]),
        // Events and tasks.
        GoldenCase("add-event", ["add", "Lunch with the coaches", "--start", "2026-11-24 14:00", "--minutes", "60", "--color", "#1e90ff", "--id", "lunch"] + work),
        GoldenCase("add-all-day", ["add", "Gym closed", "--start", "2026-12-08", "--color", "lightslategray", "--id", "closed"] + work),
        GoldenCase("add-task", ["add", "Call the plumber", "--task", "--due", "2026-11-26 12:00", "--color", "peru", "--id", "plumber"] + work),
        GoldenCase("add-weekly", ["add", "Team stretch", "--start", "2026-11-24 12:00", "--minutes", "15", "--repeat", "FREQ=WEEKLY;BYDAY=TU,TH", "--id", "stretch"] + work),
        GoldenCase("add-red-refused", ["add", "Busy", "--start", "2026-11-24 10:00", "--color", "red"] + work, unchanged: true),
        GoldenCase("add-near-red-refused", ["add", "Busy", "--start", "2026-11-24 10:00", "--color", "#fe0000"] + work, unchanged: true),
        GoldenCase("add-empty-title", ["add", "  ", "--start", "2026-11-24 10:00"] + work, unchanged: true),
        GoldenCase("add-missing-start", ["add", "Lunch"] + work, unchanged: true),
        GoldenCase("add-missing-time", ["add", "Lunch", "--start", "2026-11-24 14"] + work, unchanged: true),
        GoldenCase("add-impossible-date", ["add", "Lunch", "--start", "2026-11-31 14:00"] + work, unchanged: true),
        GoldenCase("add-end-before-start", ["add", "Lunch", "--start", "2026-11-24 14:00", "--end", "2026-11-24 13:00"] + work, unchanged: true),
        GoldenCase("add-taken-id", ["add", "Lunch", "--start", "2026-11-24 14:00", "--id", "staff-meeting"] + work, unchanged: true),
        GoldenCase("edit", ["edit", "staff-meeting", "--start", "2026-11-24 13:30", "--title", "Staff meeting (all coaches)"] + work),
        GoldenCase("edit-no-color", ["edit", "order-mats", "--no-color", "--due", "2026-11-28 10:00"] + work),
        GoldenCase("edit-color", ["edit", "open-day", "--color", "coral"] + work),
        GoldenCase("edit-red-family-refused", ["edit", "open-day", "--color", "crimson"] + work, unchanged: true),
        GoldenCase("add-darkred-refused", ["add", "Busy", "--start", "2026-11-24 10:00", "--color", "darkred"] + work, unchanged: true),
        GoldenCase("add-too-long", ["add", "Forever", "--start", "2026-11-24 10:00", "--minutes", "9999999999"] + work, unchanged: true),
        GoldenCase("add-overflowing-length", ["add", "Forever", "--start", "2026-11-24 10:00", "--minutes", "99999999999999999"] + work, unchanged: true),
        GoldenCase("add-overnight", ["add", "Night shift", "--start", "2026-11-25 22:00", "--minutes", "600", "--id", "night"] + work),
        GoldenCase("add-skipped-time", ["add", "Early", "--start", "2026-03-29 02:30", "--minutes", "30"] + work, unchanged: true),
        GoldenCase("add-repeated-time-ambiguous", ["add", "Late", "--start", "2026-10-25 02:30", "--minutes", "30"] + work, unchanged: true),
        GoldenCase("add-repeated-time-second", ["add", "Late", "--start", "2026-10-25 02:30 CET", "--minutes", "30", "--id", "late"] + work),
        GoldenCase("rules-show", ["rules"] + work),
        GoldenCase("rules-task-planner", ["rules", "task-planner"] + work),
        GoldenCase("edit-red-refused", ["edit", "open-day", "--color", "#ff0000"] + work, unchanged: true),
        GoldenCase("edit-class-refused", ["edit", "yoga", "--title", "Hot yoga"] + work, unchanged: true),
        GoldenCase("edit-unknown", ["edit", "nothing-here", "--title", "X"] + work, unchanged: true),
        GoldenCase("edit-nothing", ["edit", "staff-meeting"] + work, unchanged: true),
        GoldenCase("delete-yes", ["delete", "order-mats", "--yes"] + work),
        GoldenCase("delete-needs-yes", ["delete", "order-mats"] + work, unchanged: true),
        GoldenCase("delete-session-refused", ["delete", "s-pau-1124", "--yes"] + work, unchanged: true),
        // People, sessions, classes and bookings.
        GoldenCase("coaches-add", ["coaches", "add", "jordi", "--name", "Jordi Mas", "--hours", "TU,TH 16:00-21:00", "--buffer", "5"] + work),
        GoldenCase("clients-add", ["clients", "add", "eva", "--coach", "laia", "--name", "Eva Roca", "--email", "eva@example.com"] + work),
        GoldenCase("clients-list", ["clients", "list", "--coach", "marc"] + work),
        GoldenCase("clients-list-other-coach", ["clients", "list", "--coach", "laia"] + work),
        GoldenCase("members-add", ["members", "add", "jan", "--name", "Jan Ortega"] + work),
        GoldenCase("sessions-add", ["sessions", "add", "--coach", "marc", "--client", "pau", "--start", "2026-11-27 10:00", "--minutes", "45", "--id", "s-pau-1127"] + work),
        // Repeating sessions (issue 44, 1): every date booked or refused with why; none booked is a refusal.
        GoldenCase("sessions-add-repeat", ["sessions", "add", "--coach", "marc", "--client", "anna", "--start", "2026-11-26 17:00", "--repeat", "FREQ=WEEKLY;COUNT=4", "--id", "anna-thu"] + work),
        GoldenCase("sessions-add-repeat-unbounded", ["sessions", "add", "--coach", "marc", "--client", "anna", "--start", "2026-12-01 18:00", "--repeat", "FREQ=WEEKLY"] + work, unchanged: true),
        GoldenCase("sessions-add-repeat-none", ["sessions", "add", "--coach", "marc", "--client", "pau", "--start", "2026-11-26 17:30", "--repeat", "FREQ=DAILY;COUNT=1", "--id", "pau-daily"] + work, unchanged: true),
        GoldenCase("sessions-add-clash", ["sessions", "add", "--coach", "marc", "--client", "pau", "--start", "2026-11-26 18:05", "--minutes", "45"] + work, unchanged: true),
        GoldenCase("sessions-add-other-coach-client", ["sessions", "add", "--coach", "laia", "--client", "anna", "--start", "2026-11-27 10:00", "--minutes", "45"] + work, unchanged: true),
        GoldenCase("sessions-list", ["sessions", "list", "--coach", "marc", "--color", "never"] + work),
        GoldenCase("sessions-list-color", ["sessions", "list", "--coach", "marc", "--color", "always"] + work, environment: always),
        GoldenCase("sessions-list-json", ["sessions", "list", "--coach", "marc", "--format", "json"] + work),
        GoldenCase("sessions-add-color-type", ["sessions", "add", "--coach", "marc", "--client", "anna", "--start", "2026-11-27 10:00", "--minutes", "45", "--color", "royalblue", "--type", "Strength", "--notes", "Deadlift 3x5", "--id", "s-anna-1127"] + work),
        GoldenCase("sessions-add-red-refused", ["sessions", "add", "--coach", "marc", "--client", "anna", "--start", "2026-11-27 10:00", "--color", "firebrick"] + work, unchanged: true),
        GoldenCase("sessions-move-color", ["sessions", "move", "s-pau-1124", "--coach", "marc", "--start", "2026-11-24 11:00", "--color", "seagreen", "--type", "Mobility"] + work),
        GoldenCase("sessions-history", ["sessions", "history", "--client", "pau", "--color", "never"] + work),
        GoldenCase("sessions-history-color", ["sessions", "history", "--client", "pau", "--coach", "marc", "--color", "always"] + work, environment: always),
        GoldenCase("sessions-history-json", ["sessions", "history", "--client", "pau", "--coach", "marc", "--format", "json"] + work),
        GoldenCase("sessions-history-other-coach", ["sessions", "history", "--client", "pau", "--coach", "laia"] + work, unchanged: true),
        GoldenCase("sessions-history-unknown", ["sessions", "history", "--client", "nobody", "--coach", "laia"] + work, unchanged: true),
        GoldenCase("coaches-add-color", ["coaches", "add", "jordi", "--name", "Jordi Mas", "--hours", "TU,TH 16:00-21:00", "--color", "teal"] + work),
        GoldenCase("clients-add-color", ["clients", "add", "eva", "--coach", "laia", "--name", "Eva Roca", "--color", "plum"] + work),
        GoldenCase("sessions-move", ["sessions", "move", "s-pau-1124", "--coach", "marc", "--start", "2026-11-24 11:00"] + work),
        GoldenCase("sessions-cancel", ["sessions", "cancel", "s-pau-1124", "--coach", "marc"] + work),
        GoldenCase("sessions-mark", ["sessions", "mark", "s-joan-1118", "--coach", "laia", "--status", "no-show"] + work),
        // Issue 44, 3: a training recorded after the fact, and when one really ended.
        GoldenCase("sessions-mark-completed-at", ["sessions", "mark", "s-joan-1118", "--coach", "laia", "--status", "completed", "--at", "2026-11-18 10:50"] + work),
        GoldenCase("sessions-mark-completed-at-future", ["sessions", "mark", "s-joan-1118", "--coach", "laia", "--status", "completed", "--at", "2026-11-23 10:50"] + work, unchanged: true),
        GoldenCase("sessions-mark-no-show-at", ["sessions", "mark", "s-joan-1118", "--coach", "laia", "--status", "no-show", "--at", "2026-11-18 10:50"] + work, unchanged: true),
        GoldenCase("sessions-log", ["sessions", "log", "--coach", "marc", "--client", "anna", "--start", "2026-11-17 19:00", "--minutes", "45", "--type", "Strength",
                                    "--notes", "5x5 squat 80 kg", "--id", "s-anna-1117"] + work),
        GoldenCase("sessions-log-not-over", ["sessions", "log", "--coach", "marc", "--client", "anna", "--start", "2026-11-22 09:30", "--minutes", "45"] + work, unchanged: true),
        GoldenCase("sessions-log-clash", ["sessions", "log", "--coach", "marc", "--client", "pau", "--start", "2026-11-12 18:30", "--minutes", "45"] + work, unchanged: true),
        GoldenCase("sessions-log-other-coach", ["sessions", "log", "--coach", "laia", "--client", "anna", "--start", "2026-11-17 19:00"] + work, unchanged: true),
        GoldenCase("gym-address-set", ["gym", "address", "Gimnàs Sants <desk@gimnas.example>"] + work),
        GoldenCase("gym-address-no-email", ["gym", "address", "Gimnàs Sants"] + work, unchanged: true),
        // Issue 44, 1: a standing booking, reported by date, and its end from a date on.
        GoldenCase("book-standing", ["book", "--member", "quim", "--class", "pilates", "--from", "2026-11-22", "--until", "2026-12-20", "--waitlist"] + work),
        GoldenCase("book-standing-backwards", ["book", "--member", "quim", "--class", "pilates", "--from", "2026-12-20", "--until", "2026-11-22"] + work, unchanged: true),
        GoldenCase("book-standing-no-date", ["book", "--member", "quim", "--class", "yoga", "--from", "2026-11-24", "--until", "2026-11-24"] + work, unchanged: true),
        GoldenCase("cancel-from-nothing", ["cancel", "--member", "quim", "--class", "yoga", "--from", "2026-11-22"] + work, unchanged: true),
        GoldenCase("sessions-free", ["sessions", "free", "--coach", "marc", "--from", "2026-11-26", "--to", "2026-11-26", "--minutes", "60"] + work),
        GoldenCase("classes-add-red-refused", ["classes", "add", "box", "--title", "Boxing", "--days", "SA", "--time", "10:00", "--capacity", "8", "--color", "#f00a0a", "--from", "2026-11-28"] + work, unchanged: true),
        GoldenCase("classes-add-ok", ["classes", "add", "box", "--title", "Boxing", "--days", "SA", "--time", "10:00", "--capacity", "8", "--color", "sienna", "--from", "2026-11-28"] + work),
        GoldenCase("classes-timetable", ["classes", "timetable"] + work),
        GoldenCase("classes-timetable-week", ["classes", "timetable", "--week", "2026-11-25"] + work),
        GoldenCase("classes-timetable-json", ["classes", "timetable", "--format", "json"] + work),
        GoldenCase("classes-timetable-week-json", ["classes", "timetable", "--week", "2026-11-25", "--format", "json"] + work),
        GoldenCase("classes-cancel", ["classes", "cancel", "yoga", "--date", "2026-11-23"] + work),
        GoldenCase("classes-move", ["classes", "move", "pilates", "--date", "2026-11-26", "--start", "2026-11-26 20:00"] + work),
        GoldenCase("book", ["book", "--member", "aina", "--class", "yoga", "--date", "2026-11-23"] + work),
        GoldenCase("book-full", ["book", "--member", "quim", "--class", "pilates", "--date", "2026-11-26"] + work, unchanged: true),
        GoldenCase("book-not-a-date-of-the-class", ["book", "--member", "marta", "--class", "yoga", "--date", "2026-11-24"] + work, unchanged: true),
        GoldenCase("book-waitlist", ["book", "--member", "quim", "--class", "pilates", "--date", "2026-11-26", "--waitlist"] + work),
        GoldenCase("book-already-booked", ["book", "--member", "oriol", "--class", "pilates", "--date", "2026-11-26"] + work, unchanged: true),
        GoldenCase("book-list", ["book", "--member", "marta", "--list"] + work),
        GoldenCase("cancel-booking", ["cancel", "--member", "marta", "--class", "pilates", "--date", "2026-11-26"] + work),
        // iCalendar.
        GoldenCase("expand", ["expand", "--rrule", "FREQ=WEEKLY;BYDAY=MO,WE;COUNT=4", "--dtstart", "20261102T183000", "--tzid", "Europe/Madrid"]),
        GoldenCase("expand-bad-rule", ["expand", "--rrule", "FREQ=WEEKLY;BYDAY=XX", "--dtstart", "20261102T183000"]),
        GoldenCase("occurrences", ["occurrences", "$SAMPLE", "--from", "2026-11-23", "--to", "2026-11-29"]),
        GoldenCase("occurrences-json", ["occurrences", "$SAMPLE", "--from", "2026-11-27", "--to", "2026-11-28", "--format", "json"]),
        GoldenCase("occurrences-jsonl", ["occurrences", "$SAMPLE", "--from", "2026-11-27", "--to", "2026-11-28", "--format", "jsonl"]),
        GoldenCase("validate", ["validate", "$SAMPLE"]),
        GoldenCase("validate-broken", ["validate", "$FIXTURES/bad.ics"]),
        GoldenCase("import", ["import", "$FIXTURES/basic.ics", "--into", "$WORK/gym.ics"]),
        GoldenCase("import-missing-file", ["import", "$WORK/nowhere.ics", "--into", "$WORK/gym.ics"], unchanged: true),
        // An export stamps what it writes afresh with the time of the export.
        GoldenCase("export-public", ["export", "$SAMPLE", "--for", "public"], stampsVary: true),
        GoldenCase("export-public-instructors", ["export", "$SAMPLE", "--for", "public", "--name-instructors"], stampsVary: true),
        GoldenCase("export-instructors-alone", ["export", "$SAMPLE", "--name-instructors"]),
        GoldenCase("export-member", ["export", "$SAMPLE", "--for", "member", "aina"], stampsVary: true),
        // Issue 44, 2: the client's own calendar, and her reminders.
        // Issue 44, 8: jCal out, for an audience too; and what is not jCal, in.
        GoldenCase("export-jcal-public", ["export", "$SAMPLE", "--for", "public", "--format", "jcal"], stampsVary: true),
        GoldenCase("export-jcal-bad-format", ["export", "$SAMPLE", "--format", "xml"]),
        GoldenCase("import-jcal-not-jcal", ["import", "$FIXTURES/not-jcal.json", "--into", "$WORK/gym.ics"], unchanged: true),
        GoldenCase("export-client", ["export", "$SAMPLE", "--for", "client", "anna", "--coach", "marc"], stampsVary: true),
        GoldenCase("export-client-no-coach", ["export", "$SAMPLE", "--for", "client", "anna"]),
        GoldenCase("export-client-other-coach", ["export", "$SAMPLE", "--for", "client", "anna", "--coach", "laia"]),
        GoldenCase("usage-unknown-option", ["month", "--colour", "never"]),
    ]
    cases.sort { $0.name < $1.name }
    return cases
}()

@Suite("horari, run as a program (golden files)")
struct GoldenTests {
    @Test(arguments: goldenCases)
    func golden(_ c: GoldenCase) throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let before = [runner.calendarBytes, runner.bytes(of: "planner.ics")]
        try runner.expectGolden(c.name, c.arguments, environment: c.environment, stdin: c.stdin, stampsVary: c.stampsVary)
        if c.leavesFileUnchanged {
            let unchanged = [runner.calendarBytes, runner.bytes(of: "planner.ics")] == before
            #expect(unchanged, "\(c.name): a refused change must leave the calendar file as it was")
        }
    }
}
