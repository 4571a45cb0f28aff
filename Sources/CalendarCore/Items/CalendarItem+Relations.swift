extension CalendarItem {
    /// How an item stands to the one a relation names (`RELTYPE`, RFC 5545
    /// §3.2.15; RFC 9253 §5 registers more, such as `FIRST`, `NEXT` and
    /// `DEPENDS-ON`). Compared upper case, as parameter values are.
    ///
    /// ```swift
    /// match.relate(to: "round-12", as: .parent)   // the match is part of round 12
    /// ```
    public struct RelationType: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        /// The `RELTYPE` value, upper case.
        public let rawValue: String

        /// A type by its `RELTYPE` value, in any case.
        /// - Parameter rawValue: such as `PARENT` or `X-ROUND`.
        public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

        /// The named item holds this one (a round holds its matches); the
        /// default when `RELTYPE` is left out.
        public static let parent = RelationType(rawValue: "PARENT")
        /// The named item is part of this one.
        public static let child = RelationType(rawValue: "CHILD")
        /// The named item shares a parent with this one.
        public static let sibling = RelationType(rawValue: "SIBLING")

        /// The `RELTYPE` value.
        public var description: String { rawValue }
    }

    /// One `RELATED-TO` of an item: whom it names, and how this item stands
    /// to it (RFC 5545 §3.8.4.5).
    ///
    /// The value is a `UID` when the line has no `VALUE` or `VALUE=TEXT` or
    /// `VALUE=UID` (RFC 9253 §7), and a link with `VALUE=URI`.
    public struct Relation: Hashable, Sendable, Codable {
        /// What a relation names.
        public enum Target: Hashable, Sendable, Codable {
            /// Another item, by its `UID`.
            case uid(String)
            /// A resource elsewhere, by its URI (`VALUE=URI`, RFC 9253).
            case uri(String)
        }

        /// Whom it names.
        public var target: Target
        /// How this item stands to it.
        public var type: RelationType

        /// A relation to another item, by `UID`.
        /// - Parameters:
        ///   - uid: the other item's `UID`.
        ///   - type: how this item stands to it; ``RelationType/parent`` by default.
        public init(uid: String, type: RelationType = .parent) {
            self.init(target: .uid(uid), type: type)
        }

        /// A relation to anything a relation can name.
        /// - Parameters:
        ///   - target: a `UID` or a URI.
        ///   - type: how this item stands to it.
        public init(target: Target, type: RelationType = .parent) {
            self.target = target
            self.type = type
        }

        /// The `UID` it names, or `nil` for a URI.
        public var uid: String? {
            if case .uid(let uid) = target { return uid }
            return nil
        }

        /// Reads a `RELATED-TO` line; `nil` for a value type that names
        /// neither a `UID` nor a URI.
        init?(_ line: ContentLine) {
            let type = RelationType(rawValue: line.parameter("RELTYPE") ?? "PARENT")
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

        static let name = "RELATED-TO"
    }

    /// The item's relations (its `RELATED-TO` lines), in file order.
    ///
    /// Setting them keeps each line that says the same as one of the new
    /// relations as it was written (its other parameters too), puts the
    /// lines where the first one stood, and leaves every other property
    /// where it was. A line with a value type no relation reads stays.
    ///
    /// A relation is stated by one side; ``ItemTree`` reads a parent from
    /// either (the child's `PARENT` or the parent's `CHILD`).
    public var relations: [Relation] {
        get { properties.compactMap { $0.name == Relation.name ? Relation($0) : nil } }
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
    ///   - type: how this item stands to it; ``RelationType/parent`` by default.
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
