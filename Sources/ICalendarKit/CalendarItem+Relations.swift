import CalendarCore

/// `RELATED-TO` (RFC 5545 §3.8.4.5, RFC 9253 §9.1) read and written as
/// `CalendarItem.Relation`s: the lines stay in the item's properties, as
/// written, and these read them.
extension CalendarItem.Relation {
    /// Reads a `RELATED-TO` line; `nil` for a value type that names
    /// neither a `UID` nor a URI.
    init?(_ line: ContentLine) {
        let type = CalendarItem.RelationType(rawValue: line.parameter("RELTYPE") ?? "PARENT")
        switch line.parameter("VALUE")?.uppercased() {
        case nil, "TEXT", "UID": self.init(target: .uid(TextEscaping.unescape(line.valueText)), type: type)
        case "URI": self.init(target: .uri(String(line.valueText)), type: type)
        default: return nil
        }
    }

    /// The line that writes it: a `UID` as TEXT, `RELTYPE` left out for
    /// a parent, as RFC 5545 lets it be.
    var line: ContentLine {
        var parameters: [ContentLine.Parameter] = []
        if case .uri = target { parameters.append(.init(name: "VALUE", values: ["URI"])) }
        if type != .parent { parameters.append(.init(name: "RELTYPE", values: [type.rawValue])) }
        switch target {
        case .uid(let uid): return ContentLine(name: Self.name, parameters: parameters, value: TextEscaping.escaped(uid))
        case .uri(let uri): return ContentLine(name: Self.name, parameters: parameters, value: uri)
        }
    }

    /// The property's name.
    static let name = "RELATED-TO"
}

extension CalendarItem {
    /// The item's relations (its `RELATED-TO` lines), in file order.
    ///
    /// Setting them keeps each line that says the same as one of the new
    /// relations as it was written (its other parameters too), puts the
    /// lines where the first one stood, and leaves every other property
    /// where it was. A line with a value type no relation reads stays.
    ///
    /// A relation is stated by one side; `ItemTree` reads a parent from
    /// either (the child's `PARENT` or the parent's `CHILD`).
    public var relations: [Relation] {
        get {
            // Most items have none: looked for without making a line of each.
            guard properties.containsLine(named: Relation.name) else { return [] }
            return properties.compactMap { $0.name == Relation.name ? Relation($0) : nil }
        }
        set {
            var old = properties.filter { $0.name == Relation.name }.map { (line: $0, relation: Relation($0)) }
            let lines = newValue.map { relation -> ContentLine in
                guard let at = old.firstIndex(where: { $0.relation == relation }) else { return relation.line }
                return old.remove(at: at).line
            }
            // Every line before the first relation is kept, so that is also
            // where the new lines go among those kept.
            let first = properties.firstIndex { $0.name == Relation.name }
            var kept = properties.filter { $0.name != Relation.name || Relation($0) == nil }
            kept.insert(contentsOf: lines, at: first ?? kept.endIndex)
            properties = kept
        }
    }

    /// The `UID` of the item this one is part of: its first `PARENT`
    /// relation. Setting it replaces every `PARENT` relation (`nil` removes
    /// them) and leaves the others.
    ///
    /// ```swift
    /// var match = CalendarItem(uid: "m-1", title: "Real Madrid – Sevilla", start: kickOff)
    /// match.parentUID = "round-12"      // RELATED-TO:round-12
    /// ```
    public var parentUID: String? {
        get { relations.first { $0.type == .parent && $0.uid != nil }?.uid }
        set {
            var list = relations
            let first = list.firstIndex { $0.type == .parent && $0.uid != nil }
            list.removeAll { $0.type == .parent && $0.uid != nil }
            if let newValue { list.insert(Relation(uid: newValue), at: min(first ?? list.endIndex, list.endIndex)) }
            relations = list
        }
    }

    /// Adds a relation to another item, unless it has that one already.
    /// - Parameters:
    ///   - uid: the other item's `UID`.
    ///   - type: how this item stands to it; `.parent` by default.
    public mutating func relate(to uid: String, as type: RelationType = .parent) {
        let relation = Relation(uid: uid, type: type)
        guard !relations.contains(relation) else { return }
        relations.append(relation)
    }

    /// Removes every relation that names this `UID`, whatever its type.
    /// - Parameter uid: the other item's `UID`.
    /// - Returns: the relations removed, in file order.
    @discardableResult
    public mutating func removeRelations(to uid: String) -> [Relation] {
        let all = relations
        let removed = all.filter { $0.uid == uid }
        if !removed.isEmpty { relations = all.filter { $0.uid != uid } }
        return removed
    }
}

extension ItemTree {
    /// The tree of a schedule's items, read from their `RELATED-TO` lines
    /// (`CalendarItem.relations`): a part's `PARENT`, else a parent's `CHILD`.
    ///
    /// ```swift
    /// let tree = ItemTree(calendar.schedule())
    /// print(tree.children(of: "laliga-2026"), tree.ordinal(of: "round-12") ?? 0)
    /// ```
    ///
    /// - Parameter schedule: the items.
    public init(_ schedule: Schedule) {
        self.init(schedule, relations: \.relations)
    }
}
