import CalendarCore
import CalendarScheduling
import ICalendarKit
import SchedulingICalendar
import Testing

/// The book's zone (`X-HORARI-TIMEZONE`) is SchedulingICalendar's knowledge;
/// ICalendarKit reads a calendar's clock from the properties it is told of.
@Suite("The book's zone, told to ICalendarKit")
struct BookZoneTests {
    private let tokyo = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Horari tests//Zones//EN\r
        X-WR-TIMEZONE:Asia/Tokyo\r
        BEGIN:VEVENT\r
        UID:tokyo-1\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;TZID=Asia/Tokyo:20261124T100000\r
        SUMMARY:Kendo\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test("a calendar that keeps its clock as the book's zone alone keeps it through a merge of a file of another zone (issue 28, 1)")
    func mergeKeepsTheBooksZone() throws {
        let incoming = try ICalendarImporter().importCalendar(from: tokyo).calendar
        var book = ICalendar()
        book.setBookZone("Europe/Madrid")
        #expect(Array(book.properties) == [ContentLine(name: "X-HORARI-TIMEZONE", value: "Europe/Madrid")])
        let report = book.merge(incoming, zoneNamedBy: ICalendar.bookZoneProperties)
        #expect(book.timeZone == nil && book.calendarZone(namedBy: ICalendar.bookZoneProperties) == "Europe/Madrid")
        #expect(report.calendarPropertiesNotTaken.contains("X-WR-TIMEZONE"))
        #expect(book.schedule(zoneNamedBy: ICalendar.bookZoneProperties).timeZone?.identifier == "Europe/Madrid")
    }

    @Test("the book's zone comes before X-WR-TIMEZONE, and setBookZone replaces the one recorded")
    func bookZoneFirst() throws {
        var calendar = try ICalendarImporter().importCalendar(from: tokyo).calendar
        calendar.setBookZone("Europe/Madrid")
        calendar.setBookZone("Europe/Lisbon")
        #expect(calendar.properties.filter { $0.name == "X-HORARI-TIMEZONE" }.map(\.value) == ["Europe/Lisbon"])
        #expect(calendar.calendarZone == "Asia/Tokyo")
        #expect(calendar.calendarZone(namedBy: ICalendar.bookZoneProperties) == "Europe/Lisbon")
        #expect(try calendar.schedulingBook().timeZone.identifier == "Europe/Lisbon")
    }
}
