import CalendarCore

extension ICalendar {
    /// The calendar property that names the rules its items are held to.
    static let rulesProperty = "X-HORARI-RULES"

    /// The name of the rules the calendar asks its items to keep (one of
    /// `ValidationRules.presets`, such as `strict`), kept as the calendar's
    /// `X-HORARI-RULES` property; `nil` when it names none, which means the
    /// default rules. Setting `nil` or `"default"` removes the property.
    public var rulesName: String? {
        get { properties.first { $0.name == Self.rulesProperty }?.value }
        set {
            properties.removeAll { $0.name == Self.rulesProperty }
            if let newValue, newValue != "default" { properties.append(ContentLine(name: Self.rulesProperty, value: newValue)) }
        }
    }
}
