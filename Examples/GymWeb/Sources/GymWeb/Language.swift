import CalendarViews
import Foundation

/// A page's language: one the views name months, weekdays and places in
/// (`CalendarNames`), chosen from the request's `Accept-Language`.
enum Language: String, CaseIterable, Sendable {
    case ca, es, en, it

    /// The locale its names come from (British English, so weeks start on Monday as the gym's do).
    var locale: Locale {
        switch self {
        case .ca: Locale(identifier: "ca_ES")
        case .es: Locale(identifier: "es_ES")
        case .en: Locale(identifier: "en_GB")
        case .it: Locale(identifier: "it_IT")
        }
    }

    /// The first language of `header` this site speaks, by its `q` weight
    /// (RFC 9110 §12.5.4; a `*` or none of ours: English). `ca-ES` matches `ca`.
    static func preferred(_ header: String?) -> Language {
        guard let header else { return .en }
        var best: (language: Language, q: Double)?
        for part in header.split(separator: ",").prefix(50) {
            let fields = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = fields.first?.lowercased(),
                  let language = Language(rawValue: String(tag.prefix { $0 != "-" && $0 != "_" })) else { continue }
            var q = 1.0
            for field in fields.dropFirst() where field.lowercased().hasPrefix("q=") {
                q = Double(field.dropFirst(2)) ?? 0
            }
            guard q > 0, q <= 1 else { continue }
            if let kept = best, kept.q >= q { continue }  // an earlier tag of the same weight stays first
            best = (language, q)
        }
        return best?.language ?? .en
    }

    /// The page's own words (the views' words, places and months, come from `CalendarNames`).
    var words: Words {
        switch self {
        case .en: Words(
            weekOf: "Week of {date}", month: "Month", thisWeek: "This week", previousWeek: "Previous week", nextWeek: "Next week",
            previousMonth: "Previous month", nextMonth: "Next month", pages: "Pages", classesThisWeek: "Classes of the week",
            day: "Day", time: "Time", className: "Class", instructor: "Instructor", place: "Where", places: "Places", book: "Book",
            joinWaitlist: "Join the waitlist", cancel: "Cancel", memberID: "Member ID", started: "started", noClasses: "No classes",
            noLogin: "This example has no sign-in: anyone can book or cancel for any member by typing their ID. A gym that uses it puts its own sign-in in front.",
            bookingsOf: "Bookings of {name}", booked: "booked", waitlisted: "waiting list, number {n}", noBookings: "No bookings yet.",
            feed: "Calendar feed (.ics)", publicFeed: "The timetable as a calendar feed (.ics)", items: "{n} items", oneItem: "1 item", moved: "moved",
            said: ["booked": "Booked.", "waitlisted": "You are on the waiting list.", "cancelled": "Cancelled."],
            back: "Back to this week's timetable", whatToDo: "What to do")
        case .ca: Words(
            weekOf: "Setmana del {date}", month: "Mes", thisWeek: "Aquesta setmana", previousWeek: "Setmana anterior", nextWeek: "Setmana següent",
            previousMonth: "Mes anterior", nextMonth: "Mes següent", pages: "Pàgines", classesThisWeek: "Classes de la setmana",
            day: "Dia", time: "Hora", className: "Classe", instructor: "Monitor", place: "On", places: "Places", book: "Reserva",
            joinWaitlist: "Posa't en llista d'espera", cancel: "Anul·la", memberID: "Identificador de soci", started: "començada", noClasses: "Cap classe",
            noLogin: "Aquest exemple no té inici de sessió: qualsevol pot reservar o anul·lar per a qualsevol soci escrivint-ne l'identificador. Un gimnàs que el faci servir hi posa davant el seu propi inici de sessió.",
            bookingsOf: "Reserves de {name}", booked: "reservada", waitlisted: "llista d'espera, número {n}", noBookings: "Encara cap reserva.",
            feed: "Calendari per subscriure's (.ics)", publicFeed: "L'horari com a calendari (.ics)", items: "{n} elements", oneItem: "1 element", moved: "canviada d'hora",
            said: ["booked": "Reservat.", "waitlisted": "Ets a la llista d'espera.", "cancelled": "Anul·lat."],
            back: "Torna a l'horari d'aquesta setmana", whatToDo: "Què cal fer")
        case .es: Words(
            weekOf: "Semana del {date}", month: "Mes", thisWeek: "Esta semana", previousWeek: "Semana anterior", nextWeek: "Semana siguiente",
            previousMonth: "Mes anterior", nextMonth: "Mes siguiente", pages: "Páginas", classesThisWeek: "Clases de la semana",
            day: "Día", time: "Hora", className: "Clase", instructor: "Monitor", place: "Dónde", places: "Plazas", book: "Reservar",
            joinWaitlist: "Apuntarse a la lista de espera", cancel: "Anular", memberID: "Identificador de socio", started: "empezada", noClasses: "Ninguna clase",
            noLogin: "Este ejemplo no tiene inicio de sesión: cualquiera puede reservar o anular por cualquier socio escribiendo su identificador. Un gimnasio que lo use pone delante su propio inicio de sesión.",
            bookingsOf: "Reservas de {name}", booked: "reservada", waitlisted: "lista de espera, número {n}", noBookings: "Todavía ninguna reserva.",
            feed: "Calendario para suscribirse (.ics)", publicFeed: "El horario como calendario (.ics)", items: "{n} elementos", oneItem: "1 elemento", moved: "cambiada de hora",
            said: ["booked": "Reservado.", "waitlisted": "Estás en la lista de espera.", "cancelled": "Anulado."],
            back: "Volver al horario de esta semana", whatToDo: "Qué hacer")
        case .it: Words(
            weekOf: "Settimana del {date}", month: "Mese", thisWeek: "Questa settimana", previousWeek: "Settimana precedente", nextWeek: "Settimana successiva",
            previousMonth: "Mese precedente", nextMonth: "Mese successivo", pages: "Pagine", classesThisWeek: "Corsi della settimana",
            day: "Giorno", time: "Ora", className: "Corso", instructor: "Istruttore", place: "Dove", places: "Posti", book: "Prenota",
            joinWaitlist: "Mettiti in lista d'attesa", cancel: "Annulla", memberID: "Codice socio", started: "iniziato", noClasses: "Nessun corso",
            noLogin: "Questo esempio non ha accesso con credenziali: chiunque può prenotare o annullare per qualsiasi socio scrivendone il codice. Una palestra che lo usa ci mette davanti il proprio accesso.",
            bookingsOf: "Prenotazioni di {name}", booked: "prenotato", waitlisted: "lista d'attesa, numero {n}", noBookings: "Ancora nessuna prenotazione.",
            feed: "Calendario da sottoscrivere (.ics)", publicFeed: "L'orario come calendario (.ics)", items: "{n} elementi", oneItem: "1 elemento", moved: "spostato",
            said: ["booked": "Prenotato.", "waitlisted": "Sei in lista d'attesa.", "cancelled": "Annullato."],
            back: "Torna all'orario di questa settimana", whatToDo: "Cosa fare")
        }
    }
}

/// What a page says in one language, besides what the view models name.
struct Words: Sendable {
    var weekOf, month, thisWeek, previousWeek, nextWeek, previousMonth, nextMonth, pages, classesThisWeek: String
    var day, time, className, instructor, place, places, book, joinWaitlist, cancel, memberID, started, noClasses: String
    var noLogin, bookingsOf, booked, waitlisted, noBookings, feed, publicFeed, items, oneItem, moved: String
    var said: [String: String]
    var back, whatToDo: String
}
