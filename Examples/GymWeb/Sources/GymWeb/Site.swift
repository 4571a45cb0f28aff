import CalendarCore
import CalendarScheduling
import CalendarStore
import CalendarViews
import Foundation
import Hummingbird
import ICalendarKit
import Mustache
import SchedulingICalendar

/// The site: its routes, each a read of the book or one change of it.
struct Site: Sendable {
    let gym: Gym
    let templates: MustacheLibrary
    let style: String

    /// A form's largest body: a booking's three fields fit many times over.
    static let largestForm = 16 * 1024

    func router() -> Router<BasicRequestContext> {
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.add(middleware: Pages(site: self))
        router.get("/") { request, _ in try await week(of: nil, request) }
        router.get("/week/:date") { request, context in try await week(of: try date(try parameter("date", context)), request) }
        router.get("/month/:month") { request, context in try await month(try parameter("month", context), request) }
        router.get("/members/:id") { request, context in try await member(try parameter("id", context), request) }
        router.get("/timetable.ics") { _, _ in try await feed(for: .publicTimetable) }
        router.get("/style.css") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/css; charset=utf-8", .cacheControl: "max-age=3600"],
                     body: .init(byteBuffer: ByteBuffer(string: style)))
        }
        router.post("/book") { request, _ in try await change(request, booking: true) }
        router.post("/cancel") { request, _ in try await change(request, booking: false) }
        return router
    }

    /// A path's part, percent-decoded (a member `josé` is `/members/jos%C3%A9`).
    func parameter(_ name: String, _ context: BasicRequestContext) throws(PageError) -> String {
        guard let text = context.parameters.get(name)?.removingPercentEncoding, !Form.hasControlCharacters(text) else {
            throw PageError(.badRequest, "the address is not well encoded", "follow the site's own links")
        }
        return text
    }

    // MARK: - Pages

    func week(of date: LocalDate?, _ request: Request) async throws -> Response {
        let book = try await gym.reader.load()
        let language = Language.preferred(request.headers[.acceptLanguage])
        let today = gym.today(book)
        let day = date ?? today
        let week = try book.timetable(weekOf: day, firstWeekday: CalendarNames(locale: language.locale).firstWeekday)
        let page = WeekPage(book: book, week: week, of: day, language: language, gym: gym.title, today: today, now: gym.now())
        return try html(.ok, page, "week")
    }

    func month(_ text: String, _ request: Request) async throws -> Response {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
              let year = Int(parts[0]), let month = Int(parts[1]),
              Frame.inRange(year), (1...12).contains(month) else {
            throw PageError(.badRequest, "‘\(text)’ is not a month", "write it as YYYY-MM, as /month/2026-11")
        }
        let book = try await gym.reader.load()
        let language = Language.preferred(request.headers[.acceptLanguage])
        let today = gym.today(book)
        let names = CalendarNames(locale: language.locale)
        let first = try LocalDate(year: year, month: month, day: 1)
        // A week either side: the grid shows the neighbouring months' days too.
        let window = DateInterval(start: first.adding(days: -7).start(in: book.timeZone), end: first.adding(days: 45).start(in: book.timeZone))
        let calendar = try await gym.reader.store.load(touching: window).result.calendar
        let view = MonthView(year: year, month: month, schedule: calendar.schedule(),
                             options: .init(firstWeekday: names.firstWeekday, timeZone: book.timeZone, today: today))
        return try html(.ok, MonthPage(view, language: language, gym: gym.title, today: today), "month")
    }

    func member(_ id: String, _ request: Request) async throws -> Response {
        let book = try await gym.reader.load()
        // A member whose ID ends in .ics has her page there; anyone else's feed is ID.ics.
        if id.hasSuffix(".ics"), !book.members.contains(where: { $0.id == id }) { return try await feed(for: .member(String(id.dropLast(4)))) }
        guard let member = book.members.first(where: { $0.id == id }) else {
            throw PageError(.notFound, "the gym has no member ‘\(id)’", "check the ID, as the gym gave it to you")
        }
        let language = Language.preferred(request.headers[.acceptLanguage])
        let page = MemberPage(member: member, agenda: try book.agenda(member: id), said: request.uri.queryParameters["said"].map(String.init),
                              language: language, gym: gym.title, today: gym.today(book))
        return try html(.ok, page, "member")
    }

    /// A calendar feed: the public timetable, or a member's own classes (with how often to read it again).
    func feed(for audience: ExportAudience) async throws -> Response {
        let book = try await gym.reader.load()
        if case .member(let id) = audience, !book.members.contains(where: { $0.id == id }) {
            throw PageError(.notFound, "the gym has no member ‘\(id)’", "check the ID, as the gym gave it to you")
        }
        let calendar = try ICalendar(book, for: audience, name: gym.title)
        let text = ICalendarExporter(options: .init(timestamp: gym.now())).export(calendar)
        return Response(status: .ok, headers: [.contentType: "text/calendar; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    // MARK: - Booking

    /// `POST /book` or `/cancel`, fields `member`, `class`, `date` (and `waitlist=1` to wait when full):
    /// one change of the book; 303 to her page once the store holds it.
    func change(_ request: Request, booking: Bool) async throws -> Response {
        let form = try await Form(request)
        let member = try form.field("member")
        let classID = try form.field("class")
        let date = try self.date(try form.field("date"))
        let waitlist = form.values["waitlist"] == "1"
        let said: String
        do {
            if booking {
                let outcome = try await gym.store.book(member: member, classID: classID, on: date, whenFull: waitlist ? .joinWaitlist : .refuse)
                if case .waitlisted = outcome { said = "waitlisted" } else { said = "booked" }
            } else {
                _ = try await gym.store.cancelBooking(member: member, classID: classID, on: date)
                said = "cancelled"
            }
        } catch {
            // A refusal is the person's to act on; the store's own failures are the middleware's 503.
            guard case .refused(let refusal) = error else { throw error }
            throw PageError(refusal: refusal, member: member, classID: classID, date: date)
        }
        let path = member.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? ""
        return Response(status: .seeOther, headers: [.location: "/members/\(path)?said=\(said)"])
    }

    /// A date as a path or a form writes it, YYYY-MM-DD, that is on the calendar.
    func date(_ text: String?) throws(PageError) -> LocalDate {
        let text = text ?? ""
        guard text.count == 10, case .date(let date)? = try? CalendarTime(isoText: text) else {
            throw PageError(.badRequest, "‘\(text.prefix(40))’ is not a date", "write a day that exists as YYYY-MM-DD, as 2026-11-23")
        }
        return date
    }

    // MARK: - Writing pages

    func html(_ status: HTTPResponse.Status, _ page: Any, _ template: String) throws -> Response {
        guard let text = templates.render(page, withTemplate: template) else {
            throw PageError(.internalServerError, "the page’s template ‘\(template)’ is missing", "install horari-web with its Resources")
        }
        return Response(status: status, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

/// An `application/x-www-form-urlencoded` body, read up to ``Site/largestForm``.
struct Form {
    let values: [String: String]

    init(_ request: Request) async throws {
        let mediaType = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard mediaType == "application/x-www-form-urlencoded" else {
            throw PageError(.unsupportedMediaType, "the form was not sent as a form", "send it from the timetable's page (application/x-www-form-urlencoded)")
        }
        let body = try await Self.collect(request.body, upTo: Site.largestForm, within: .seconds(10))
        var values: [String: String] = [:]
        for pair in String(buffer: body).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = parts[0].replacingOccurrences(of: "+", with: " ").removingPercentEncoding,
                  let value = (parts.count > 1 ? parts[1] : "").replacingOccurrences(of: "+", with: " ").removingPercentEncoding else {
                throw PageError(.badRequest, "the form is not well encoded", "send it from the timetable's page")
            }
            guard !Self.hasControlCharacters(value) else {
                throw PageError(.badRequest, "the form's ‘\(name.prefix(40))’ holds a control character", "type the member's ID as the gym gave it")
            }
            values[name] = value
        }
        self.values = values
    }

    /// Whether a text holds a control character (a NUL, a line break…), which no ID or date has.
    static func hasControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// The body, up to `limit` bytes, sent within `deadline`: a client that
    /// sends a byte now and then holds its connection no longer than that.
    static func collect(_ body: RequestBody, upTo limit: Int, within deadline: Duration) async throws -> ByteBuffer {
        try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask {
                do {
                    return try await body.collect(upTo: limit)
                } catch let error as any HTTPResponseError where error.status == .contentTooLarge {  // NIO's NIOTooManyBytesError
                    throw PageError(.contentTooLarge, "the form is larger than \(limit / 1024) KB", "send a member's ID, a class and a date")
                } catch {
                    throw PageError(.badRequest, "the form did not arrive whole", "send it again")
                }
            }
            group.addTask {
                try await Task.sleep(for: deadline)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let buffer = first else {
                throw PageError(.requestTimeout, "the form took too long to arrive", "send it again")
            }
            return buffer
        }
    }

    /// A field that must be there, not empty, and of a sensible length.
    func field(_ name: String) throws(PageError) -> String {
        guard let value = values[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
            throw PageError(.badRequest, "the form has no ‘\(name)’", "fill in the member's ID, and book from the timetable's page")
        }
        guard value.count <= 200 else { throw PageError(.badRequest, "the form's ‘\(name)’ is too long", "send the ID as the gym gave it") }
        return value
    }
}
