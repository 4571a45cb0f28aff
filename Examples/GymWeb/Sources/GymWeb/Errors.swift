import CalendarCore
import CalendarScheduling
import CalendarStore
import Foundation
import Hummingbird

/// An answer that is not the page asked for: its status, what went wrong and what to do.
struct PageError: Error {
    let status: HTTPResponse.Status
    let problem: String
    let remedy: String
    var waitlist: [ErrorPage.Waitlist] = []
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ problem: String, _ remedy: String) {
        self.status = status
        self.problem = problem
        self.remedy = remedy
    }

    /// A booking or cancellation the book refused: 400 for a member, class or
    /// date that is not there (the form was wrong), 409 for one the book's state
    /// refuses (full, booked already, past, closed, a policy), with the form that
    /// joins the waiting list when the class was full.
    init(refusal error: SchedulingError, member: String, classID: String, date: LocalDate) {
        // The library's errors say the problem and the remedy apart (HorariError).
        let remedy = error.recoverySuggestion ?? "choose another class on the timetable"
        let problem = error.errorDescription ?? error.description
        switch error {
        case .unknownMember, .unknownClass, .notAnOccurrence, .invalid:
            self.init(.badRequest, problem, remedy)
        case .classFull:
            self.init(.conflict, problem, "join its waiting list below, or choose another class")
            waitlist = [ErrorPage.Waitlist(member: member, classID: classID, date: date.description)]
        default:
            self.init(.conflict, problem, remedy)
        }
    }
}

/// Turns every failure into a page that says what to do, with the right
/// status: a person's mistake is a 4xx, never a 500; a store that cannot
/// be reached is a 503.
struct Pages: RouterMiddleware {
    typealias Context = BasicRequestContext
    let site: Site

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as PageError {
            return answer(error, request)
        } catch let error as HTTPError where error.status == .notFound {
            if let allowed = Self.methods(for: request.uri.path), !allowed.contains(request.method) {
                var error = PageError(.methodNotAllowed, "\(request.method) is not how this page is used",
                                      "use \(allowed.map(\.rawValue).joined(separator: " or ")), as the site's own links and forms do")
                error.headers[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
                return answer(error, request)
            }
            return answer(PageError(.notFound, "the site has no page ‘\(request.uri.path.prefix(80))’", "start from this week's timetable"), request)
        } catch let error as HTTPError {
            return answer(PageError(error.status, error.body ?? error.status.reasonPhrase, "start from this week's timetable"), request)
        } catch let error as SchedulingStoreError {
            if case .store(let failure) = error { return answer(Self.unreachable(failure, context), request) }
            return answer(Self.unreadable(error, context), request)
        } catch let error as CalendarStoreFailure<Never> {
            if case .store(let failure) = error { return answer(Self.unreachable(failure, context), request) }
            return answer(Self.unreadable(error, context), request)
        } catch let error as SchedulingError {
            return answer(PageError(.badRequest, error.description, error.recoverySuggestion ?? "start from this week's timetable"), request)
        } catch {
            context.logger.error("unexpected: \(error)")
            return answer(PageError(.internalServerError, "the site could not answer", "try again; if it happens again, tell the gym"), request)
        }
    }

    /// The store cannot be reached now (a server away, a lock held): 503, try again.
    static func unreachable(_ error: CalendarStoreError, _ context: Context) -> PageError {
        context.logger.error("the book cannot be reached: \(error)")
        let problem = error.errorDescription ?? error.description
        return PageError(.serviceUnavailable, "the gym's book cannot be reached now: \(problem)", "try again in a minute")
    }

    /// The book is there and cannot be read (damaged, a zone it does not know): 500, and
    /// trying again will not help; the gym must mend it.
    static func unreadable(_ error: any Error, _ context: Context) -> PageError {
        context.logger.error("the book cannot be read: \(error)")
        let problem = (error as? any LocalizedError)?.errorDescription ?? "\(error)"
        return PageError(.internalServerError, "the gym's book cannot be read: \(problem)",
                         "tell the gym: its book needs mending (horari validate names the line)")
    }

    /// The methods a path is served with, or `nil` for a path the site does not have.
    static func methods(for path: String) -> [HTTPRequest.Method]? {
        if path == "/book" || path == "/cancel" { return [.post] }
        if path == "/" || path == "/timetable.ics" || path == "/style.css" { return [.get, .head] }
        for prefix in ["/week/", "/month/", "/members/"] where path.hasPrefix(prefix) {
            return path.dropFirst(prefix.count).contains("/") ? nil : [.get, .head]
        }
        return nil
    }

    func answer(_ error: PageError, _ request: Request) -> Response {
        let language = Language.preferred(request.headers[.acceptLanguage])
        let today = LocalDate.today(now: site.gym.now())
        let page = ErrorPage(frame: Frame(language, title: "\(error.status.code)", gym: site.gym.title, today: today), status: error.status.code,
                             heading: "\(error.status.code) \(error.status.reasonPhrase)", problem: error.problem.prefix(1).uppercased() + error.problem.dropFirst(),
                             remedy: error.remedy.prefix(1).uppercased() + error.remedy.dropFirst(), waitlist: error.waitlist)
        var response = (try? site.html(error.status, page, "error"))
            ?? Response(status: error.status, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: "\(error.problem); \(error.remedy)\n")))
        response.status = error.status
        for field in error.headers { response.headers.append(field) }
        return response
    }
}
