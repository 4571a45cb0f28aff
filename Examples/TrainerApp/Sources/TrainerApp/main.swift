import CalendarCore
import CalendarScheduling
import Foundation

// Two personal trainers and their clients, on Madrid's clocks. An app passes
// `Date()` as `now`; this one fixes it, so it prints the same everywhere.
let now = Date(timeIntervalSince1970: 1_795_420_800)  // Monday 2026-11-23, 09:00 in Madrid
func clock(_ t: LocalDateTime) -> String { String(format: "%02d:%02d", t.hour, t.minute) }
func line(_ s: Session) -> String {
    "\(s.start.date) \(clock(s.start))  \(s.duration.components.seconds / 60) min  \(s.workoutType ?? "Training")  [\(s.id), \(s.status.rawValue)]"
}

// The book: coaches with their hours, each with their own clients; no policy
// yet, while the back office enters the sessions held before the app.
var book = SchedulingBook(timeZone: try .named("Europe/Madrid"), policy: nil)
var hours = WorkingHours()
try hours.set(["09:00-13:00", "16:00-20:00"], on: [.monday, .tuesday, .wednesday, .thursday])
try hours.set(["08:00-14:00"], on: [.friday])
try book.addCoach(Coach(id: "marc", name: "Marc Soler", workingHours: hours, buffer: .seconds(10 * 60), color: try .named("teal")))
try book.addCoach(Coach(id: "laia", name: "Laia Vidal", workingHours: hours, color: try .named("slateblue")))
try book.addClient(Client(id: "anna", coachID: "marc", name: "Anna Puig", color: try .named("orange")))
try book.addClient(Client(id: "pau", coachID: "marc", name: "Pau Ferrer"))
try book.addClient(Client(id: "jordi", coachID: "laia", name: "Jordi Mas"))

// Last weeks' sessions, entered before the app kept the rules, then settled.
try book.addSession(id: "a-1110", coach: "marc", client: "anna", start: "2026-11-10T18:00", duration: .seconds(3600),
                    notes: "Squat 5×5 at 60 kg.", color: try .named("royalblue"), workoutType: "Strength")
try book.addSession(id: "a-1117", coach: "marc", client: "anna", start: "2026-11-17T18:00", duration: .seconds(3600), workoutType: "Mobility")
try book.setStatus(.completed, ofSession: "a-1110", coach: "marc", now: now)
try book.setStatus(.noShow, ofSession: "a-1117", coach: "marc", now: now)

// From now on every booking keeps the policy: within working hours, not in
// the past, at least two hours ahead.
book.policy = SchedulingPolicy(minimumNotice: .seconds(2 * 3600))

// The scheduler shares the book between tasks; a desk speaks for one person.
let scheduler = FrontDesk(book: book)
let marc = try await scheduler.coach("marc")
let laia = try await scheduler.coach("laia")
let booked = try await marc.addSession(id: "a-1124", client: "anna", start: "2026-11-24T10:00", duration: .seconds(3600),
                                       location: "Gimnàs Sants", workoutType: "Strength", now: now)
print("Marc books Anna: \(line(booked))")
try await laia.addSession(id: "j-1124", client: "jordi", start: "2026-11-24T10:00", duration: .seconds(45 * 60), now: now)
print("Laia books Jordi at the same time: each coach keeps their own diary")

// Refused requests say why, and change nothing.
let requests: [(client: String, start: LocalDateTime)] = [
    ("pau", "2026-11-24T10:45"), ("pau", "2026-11-24T07:00"), ("pau", "2026-11-23T10:00"),
]
for request in requests {
    do {
        try await marc.addSession(client: request.client, start: request.start, duration: .seconds(45 * 60), now: now)
    } catch .clash(let clash) {
        print("Refused \(request.start.date) \(clock(request.start)): \(clash)")
        print("  (in the way: \(clash.existing.id), \(clash.reason == .client ? "the same client" : "the coach is busy"))")
    } catch {
        print("Refused \(request.start.date) \(clock(request.start)): \(error)")
    }
}

// Free slots of 45 minutes on Tuesday, on the quarter hour, clear of the buffer.
let slots = try await marc.freeSlots(from: "2026-11-24", through: "2026-11-24", length: .seconds(45 * 60),
                                     alignedTo: .seconds(15 * 60), notBefore: now)
print("\nMarc's free 45-minute slots on 2026-11-24:")
print("  " + slots.map { "\(clock($0.start))–\(clock($0.end))" }.joined(separator: "  "))
if let slot = slots.first(where: { $0.start.hour >= 11 }) {
    let session = try await marc.addSession(in: slot, client: "pau", notes: "First session: assessment.", now: now)
    print("Pau takes the first slot after 11:00: \(session.start.date) \(clock(session.start)), \(session.duration.components.seconds / 60) min")
}

// Jordi trains every Friday at 9 for six weeks: each date a session of its
// own, booked or refused with why, and given up from a date on.
_ = try await laia.addSession(id: "j-1218", client: "jordi", start: "2026-12-18T08:30", duration: .seconds(3600), now: now)
let fridays = try await laia.addRepeatingSession(series: "jordi-fri", client: "jordi", start: "2026-11-27T09:00", duration: .seconds(45 * 60),
                                                 repeating: try RecurrenceRule(parsing: "FREQ=WEEKLY;COUNT=6"), now: now)
print("\nJordi, Fridays at 09:00:")
for date in fridays {
    switch date.outcome {
    case .done(let session): print("  \(session.id)  \(session.start.date) \(clock(session.start))")
    case .refused(let error): print("  \(date.start.date) \(clock(date.start)) refused: \(error)")
    }
}
let stopped = try await laia.cancelSessions(from: "jordi-fri-20261225", now: now)
print("Jordi stops for Christmas: cancelled " + stopped.map(\.id).joined(separator: ", "))

// A coach sees only their own clients: to Laia, Anna does not exist.
do {
    _ = try await laia.history(client: "anna")
} catch {
    print("\nLaia asks for Anna's history: \(error)")
}

// Anna's history, newest first, in the colour each session is shown in.
print("\nAnna's history, as Marc sees it:")
for session in try await marc.history(client: "anna") {
    let color = await scheduler.book.color(of: session)?.description ?? "no colour"
    print("  \(line(session))  (\(color))" + (session.notes.map { "\n    \($0)" } ?? ""))
}

// Anna's own app: her next sessions, and nobody else's.
let anna = try await scheduler.client("anna")
let upcoming = try await anna.upcomingSessions(after: now)
print("\nAnna's own app lists her next sessions: " + upcoming.map { "\($0.start.date) \(clock($0.start))" }.joined(separator: ", "))

// Pau moves to another city: his sessions go with him.
let removed = try await marc.removeClient("pau")
print("\nPau leaves; removed with him: " + removed.map { "\($0.start.date) \(clock($0.start))" }.joined(separator: ", "))

// Save the book as JSON and read it back: no iCalendar needed.
let encoder = JSONEncoder()
encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
let file = FileManager.default.temporaryDirectory.appending(path: "trainer-book-\(UUID()).json")
try encoder.encode(await scheduler.book).write(to: file, options: .atomic)
let loaded = try JSONDecoder().decode(SchedulingBook.self, from: Data(contentsOf: file))
let sameBytes = try encoder.encode(loaded) == Data(contentsOf: file)
print("\nSaved the book as JSON and read it back (\(sameBytes ? "the same" : "different!")). A session in it:")
print(String(decoding: try encoder.encode(loaded.session("a-1124", coach: "marc")), as: UTF8.self))
for coach in loaded.coaches {
    let clients = try loaded.clients(coach: coach.id)
    let sessions = try loaded.sessions(coach: coach.id)
    print("  \(coach.name), buffer \(coach.buffer.components.seconds / 60) min: clients \(clients.map(\.name).joined(separator: ", ")); sessions \(sessions.map(\.id).joined(separator: ", "))")
}
if let policy = loaded.policy {
    print("  policy: \(policy.minimumNotice.components.seconds / 60) minutes' notice, within working hours: \(policy.withinWorkingHours)")
}
try FileManager.default.removeItem(at: file)
