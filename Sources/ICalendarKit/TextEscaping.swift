import CalendarCore

extension ContentLine {
    /// A line whose value is TEXT (RFC 5545 §3.3.11), escaped: `\`, `;`,
    /// `,` and line breaks are written `\\`, `\;`, `\,` and `\n`.
    /// - Parameters:
    ///   - name: the property's name.
    ///   - parameters: its parameters.
    ///   - text: the text, as a person reads it.
    public init(name: String, parameters: [Parameter] = [], text: String) {
        self.init(name: name, parameters: parameters, value: ContentWriter.escape(text))
    }

    /// The value read as TEXT (RFC 5545 §3.3.11): its escapes undone.
    public var textValue: String { ContentLineSyntax.unescape(Substring(value)) }
}
