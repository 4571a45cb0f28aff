import CalendarCore
import Foundation

/// The words a calendar view shows, for one locale: month and weekday names
/// from Foundation's locale data, and the views' own labels.
///
/// ```swift
/// let names = CalendarNames(locale: Locale(identifier: "ca_ES"))
/// names.month(11)          // "novembre"
/// names.weekday(.monday)   // "dilluns"
/// names.severalItems       // "Diversos elements"
/// names.severalTasks       // "Diverses tasques"
/// names.firstWeekday       // .monday
/// ```
///
/// Names come from Foundation (CLDR through ICU), so every locale it knows
/// gets them. The labels Foundation cannot know — "Several items", "Several
/// tasks", "All day", "Times in", "ISO week", "done", "cancelled", a class
/// date's places — come from ``labels``, a table in this file: English, Catalan,
/// Spanish, Italian, French, German and Portuguese, English for any other
/// language. A table in code rather than a string catalog because
/// swift-corelibs-foundation on Linux does not look up a package's
/// `.lproj` resources by an arbitrary `Locale`, and a view model must give the
/// same words on every platform.
public struct CalendarNames: Hashable, Sendable, Codable {
    /// The locale identifier the names are for, such as `ca_ES`.
    public let localeIdentifier: String
    /// Month names as they stand alone (a title), January first.
    public let months: [String]
    /// Weekday names as they stand alone, Monday first (as `Weekday`'s raw values).
    public let weekdays: [String]
    /// Abbreviated weekday names as they stand alone, Monday first.
    public let shortWeekdays: [String]
    /// The label of a day that holds two or more items, not all of them
    /// tasks ("Several items").
    public let severalItems: String
    /// The label of a day that holds two or more items, all of them tasks
    /// ("Several tasks").
    public let severalTasks: String
    /// The label of the all-day part of a day ("All day").
    public let allDay: String
    /// The locale's first day of the week.
    public let firstWeekday: Weekday

    /// A date with its abbreviated weekday, "Wed 2026-11-25" ("dc. 2026-11-25"
    /// in Catalan): how every view and message of `horari` names a day (issue 43, 12).
    /// - Parameter date: the date.
    public func dayText(_ date: LocalDate) -> String { "\(shortWeekdays[date.weekday.rawValue]) \(date)" }

    /// Names for `locale`.
    ///
    /// The formatter reads names on a fixed zone (GMT), never the machine's:
    /// names do not depend on a zone, and on a machine without tz files (a
    /// container without tzdata, an `/etc/localtime` that points nowhere)
    /// Foundation's formatter on the machine's zone stops the process
    /// (SIGILL in `NSCalendar`).
    public init(locale: Locale) {
        localeIdentifier = locale.identifier
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.calendar = Self.gregorian
        formatter.timeZone = Self.gregorian.timeZone
        months = formatter.standaloneMonthSymbols
        // Foundation's lists start on Sunday; ours on Monday.
        weekdays = Self.mondayFirst(formatter.standaloneWeekdaySymbols)
        shortWeekdays = Self.mondayFirst(formatter.shortStandaloneWeekdaySymbols)
        let words = Self.labels(for: locale)
        severalItems = words.several
        severalTasks = words.severalTasks
        allDay = words.allDay
        var calendar = Self.gregorian
        calendar.locale = locale
        // Calendar.firstWeekday counts from 1 = Sunday.
        firstWeekday = Weekday(rawValue: (calendar.firstWeekday + 5) % 7) ?? .monday
    }

    /// English names (`en_US_POSIX`), Sunday first as in the United States.
    public static let english = CalendarNames(locale: Locale(identifier: "en_US_POSIX"))

    /// The name of month `month` (1 through 12); empty out of range.
    public func month(_ month: Int) -> String { months.indices.contains(month - 1) ? months[month - 1] : "" }

    /// The name of a weekday.
    public func weekday(_ day: Weekday) -> String { weekdays.indices.contains(day.rawValue) ? weekdays[day.rawValue] : "" }

    /// A month and year as the locale titles them ("November 2026", "novembre de 2026").
    public func monthTitle(year: Int, month: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: localeIdentifier)
        let calendar = Self.gregorian
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.setLocalizedDateFormatFromTemplate("LLLLy")
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: 15)) else {
            return self.month(month) + " " + String(year)
        }
        return formatter.string(from: date)
    }

    /// The Gregorian calendar on GMT, which Foundation has without any tz file.
    private static var gregorian: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }

    /// The views' own words in one language. A template's `{…}` is filled
    /// in by the ``CalendarNames`` function of its name.
    public struct Labels: Hashable, Sendable {
        /// A day with two or more items, not all of them tasks.
        public let several: String
        /// A day with two or more items, all of them tasks.
        public let severalTasks: String
        /// The all-day part of a day.
        public let allDay: String
        /// The clock a view's times are on: "Times in {zone}".
        public let timesIn: String
        /// A week's ISO 8601 number: "ISO week {n}".
        public let isoWeek: String
        /// A task that is done.
        public let done: String
        /// A task still to do.
        public let toDo: String
        /// A cancelled item or class date.
        public let cancelled: String
        /// The heading of what comes next.
        public let comingUp: String
        /// A class date with places: "{left} of {capacity} places left".
        public let placesLeft: String
        /// A class date with none.
        public let full: String
        /// People on a class date's waitlist: "{n} waiting".
        public let waiting: String
    }

    static let englishLabels = Labels(several: "Several items", severalTasks: "Several tasks", allDay: "All day", timesIn: "Times in {zone}",
                                      isoWeek: "ISO week {n}", done: "done", toDo: "to do", cancelled: "cancelled", comingUp: "Coming up",
                                      placesLeft: "{left} of {capacity} places left", full: "full", waiting: "{n} waiting")

    /// The labels by ISO 639 language code; English for any other language.
    public static let labels: [String: Labels] = [
        "en": englishLabels,
        "ca": Labels(several: "Diversos elements", severalTasks: "Diverses tasques", allDay: "Tot el dia", timesIn: "Hores de {zone}",
                     isoWeek: "setmana ISO {n}", done: "fet", toDo: "per fer", cancelled: "cancel·lat", comingUp: "Properament",
                     placesLeft: "{left} de {capacity} places lliures", full: "ple", waiting: "{n} en espera"),
        "es": Labels(several: "Varios elementos", severalTasks: "Varias tareas", allDay: "Todo el día", timesIn: "Horas de {zone}",
                     isoWeek: "semana ISO {n}", done: "hecho", toDo: "pendiente", cancelled: "cancelado", comingUp: "Próximamente",
                     placesLeft: "{left} de {capacity} plazas libres", full: "completo", waiting: "{n} en espera"),
        "it": Labels(several: "Diversi elementi", severalTasks: "Diverse attività", allDay: "Tutto il giorno", timesIn: "Orari di {zone}",
                     isoWeek: "settimana ISO {n}", done: "fatto", toDo: "da fare", cancelled: "annullato", comingUp: "Prossimamente",
                     placesLeft: "{left} posti liberi su {capacity}", full: "al completo", waiting: "{n} in attesa"),
        "fr": Labels(several: "Plusieurs éléments", severalTasks: "Plusieurs tâches", allDay: "Toute la journée", timesIn: "Heures de {zone}",
                     isoWeek: "semaine ISO {n}", done: "fait", toDo: "à faire", cancelled: "annulé", comingUp: "À venir",
                     placesLeft: "{left} places libres sur {capacity}", full: "complet", waiting: "{n} en attente"),
        "de": Labels(several: "Mehrere Einträge", severalTasks: "Mehrere Aufgaben", allDay: "Ganztägig", timesIn: "Zeiten in {zone}",
                     isoWeek: "ISO-Woche {n}", done: "erledigt", toDo: "offen", cancelled: "abgesagt", comingUp: "Demnächst",
                     placesLeft: "{left} von {capacity} Plätzen frei", full: "ausgebucht", waiting: "{n} auf der Warteliste"),
        "pt": Labels(several: "Vários itens", severalTasks: "Várias tarefas", allDay: "Dia inteiro", timesIn: "Horas de {zone}",
                     isoWeek: "semana ISO {n}", done: "feito", toDo: "por fazer", cancelled: "cancelado", comingUp: "Em breve",
                     placesLeft: "{left} de {capacity} vagas livres", full: "lotado", waiting: "{n} em espera"),
    ]

    /// The labels of the names' language (English for one the table lacks).
    public var words: Labels { Self.labels(for: Locale(identifier: localeIdentifier)) }

    /// The labels of a locale's language, English for one the table lacks.
    private static func labels(for locale: Locale) -> Labels {
        labels[locale.language.languageCode?.identifier ?? "en"] ?? englishLabels
    }

    /// "Times in Europe/Madrid" in the names' language.
    /// - Parameter zone: the zone's name.
    public func timesIn(_ zone: String) -> String { words.timesIn.replacingOccurrences(of: "{zone}", with: zone) }

    /// "ISO week 48" in the names' language.
    /// - Parameter week: the ISO 8601 week number.
    public func isoWeek(_ week: Int) -> String { words.isoWeek.replacingOccurrences(of: "{n}", with: String(week)) }

    /// "7 of 10 places left" in the names' language.
    /// - Parameters:
    ///   - left: the places left.
    ///   - capacity: the places there are.
    public func placesLeft(_ left: Int, of capacity: Int) -> String {
        words.placesLeft.replacingOccurrences(of: "{left}", with: String(left)).replacingOccurrences(of: "{capacity}", with: String(capacity))
    }

    /// "3 waiting" in the names' language.
    /// - Parameter count: the people on the waitlist.
    public func waiting(_ count: Int) -> String { words.waiting.replacingOccurrences(of: "{n}", with: String(count)) }

    private static func mondayFirst(_ sundayFirst: [String]) -> [String] {
        guard sundayFirst.count == 7 else { return Weekday.allCases.map(\.icalCode) }
        return (0..<7).map { sundayFirst[($0 + 1) % 7] }
    }
}
