// `_event`'s metadata (SCXML 5.10): `type`, `sendid`, `origin`, `origintype`, `invokeid`,
// and `typeof` of them, as W3C tests read them (`typeof _event.sendid === 'undefined'`).
//
// Our events carry no metadata, but the document says where each of its events comes from:
// a `<raise>` (or `<send target="#_internal">`) makes an internal event, a `<send>` to the
// session itself an external one with the send's `id`, a completion an internal one (it is
// put on the internal queue as a `<raise>` is; SCXML's "platform" is for the platform's
// errors, and python-statemachine and uSCXML give a completion "internal" too), and
// an event the document names but never raises or sends comes from the app. In a transition
// taken on events, a field whose value is the same for every event it may be taken on is
// written as that value, a string literal; `typeof` of a field as `"undefined"` or
// `"string"`. Where the value differs from event to event, or is not known (an event from
// outside, a `*` transition), or is one our language has no value for (undefined, the
// session's own URI), the expression is refused, saying which.
//
// An event the document raises or sends is taken to come only from there: a log carries
// what the app sends, and `_event.data` rests on the same reading.

/// Where one event of the document may come from.
enum EventSource: Equatable {
    /// `<raise>`, or `<send target="#_internal">` with its `id` (nil without one): internal.
    case raised(sendID: String?)
    /// A `<send>` to the session itself, with its `id` (nil without one): external, through
    /// the SCXML event I/O processor.
    case sent(sendID: String?)
    /// Nothing in the document raises or sends it: the app sends it (external), or, for an
    /// `error` event, the platform raises it.
    case outside
    /// A completion (`done.state.x`): internal, with no id and no origin.
    case completion
    /// The platform: an `error.*` nothing else raises.
    case platform

    /// The source of an event the document never raises or sends: SCXML's platform names
    /// its errors `error.…`.
    static func unraised(_ event: String) -> EventSource {
        event == "error" || event.hasPrefix("error.") ? .platform : .outside
    }

    /// How the source reads in a message: "'foo' raised by <raise>".
    func describe(_ event: String) -> String {
        switch self {
        case .raised(nil): "'\(event)' raised by <raise>"
        case .raised(let id?): "'\(event)' sent by <send id=\"\(id)\" target=\"#_internal\">"
        case .sent(nil): "'\(event)' sent by a <send> without an id"
        case .sent(let id?): "'\(event)' sent by <send id=\"\(id)\">"
        case .outside: "'\(event)', which comes from outside the document (nothing in it raises or sends '\(event)')"
        case .completion: "'\(event)', the completion of a state"
        case .platform: "'\(event)', which the platform raises"
        }
    }
}

/// The events a transition is taken on and where each may come from: what `_event`'s
/// metadata is read from.
struct EventOrigins {
    var sources: [(event: String, source: EventSource)] = []
    /// The transition is written with `*`: SCXML takes it on any event, also ones the
    /// document does not name.
    var anyEvent = false
}

/// A metadata field of `_event`, and what it holds for an event from each source.
enum EventField: String {
    case type, sendid, origin, origintype, invokeid

    /// The field's value, as far as the import can know it.
    enum Value: Equatable {
        case undefined
        case string(String)
        /// The session's own URI (`#_scxml_` and its session id), which has no value here.
        case ownSession
        /// Not known from the document (an event from outside).
        case unknown
    }

    static let scxmlProcessor = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor"

    func value(_ source: EventSource) -> Value {
        switch (self, source) {
        // We have no <invoke>, so no event comes from an invoked session.
        case (.invokeid, _): .undefined
        case (.type, .raised), (.type, .completion): .string("internal")
        case (.type, .sent), (.type, .outside): .string("external")
        case (.type, .platform): .string("platform")
        case (.sendid, .raised(let id)), (.sendid, .sent(let id)): id.map { .string($0) } ?? .undefined
        // A platform error that a failed <send> causes carries its id; the import refuses
        // such sends, so the platform's events here have none.
        case (.sendid, .platform), (.sendid, .completion): .undefined
        case (.origin, .raised), (.origin, .platform), (.origin, .completion),
             (.origintype, .raised), (.origintype, .platform), (.origintype, .completion): .undefined
        case (.origin, .sent): .ownSession
        case (.origintype, .sent): .string(Self.scxmlProcessor)
        case (.sendid, .outside), (.origin, .outside), (.origintype, .outside): .unknown
        }
    }
}

extension ExpressionTranslator {
    /// `_event.<field>` in `scope`: its value, when it is one string for every event the
    /// transition may be taken on.
    func translateMetadata(_ field: EventField, at: Int, _ scope: ExpressionScope) throws(JSError) -> Translated {
        let name = "'_event.\(field.rawValue)'"
        let (value, example) = try Self.metadataValue(field, name, at: at, scope, { $0 })
        switch value {
        case .string(let s):
            return Translated(text: Self.stringLiteral(s), precedence: Self.primary, type: .known(.string), pieces: [.literal(s)])
        case .undefined:
            let why = field == .invokeid ? "no event comes from an invoked session: <invoke> is not supported" : "for \(example)"
            throw JSError(message: "\(name) is undefined here (\(why)), which has no equivalent here; only "
                          + "typeof _event.\(field.rawValue) === 'undefined' tests it", offset: at)
        case .ownSession:
            throw JSError(message: "\(name) is the session's own URI here ('#_scxml_' and the session id, for \(example)), "
                          + "which has no equivalent here", offset: at)
        case .unknown:
            // `metadataValue` refuses an unknown value, with its reason.
            throw JSError(message: "\(name) is not known here", offset: at)
        }
    }

    /// `typeof e`: only of `_event`'s fields, as `"undefined"` or `"string"`.
    func translateTypeOf(_ operand: JSExpr, at: Int, _ scope: ExpressionScope) throws(JSError) -> Translated {
        var word: String?
        if case .path(let path, _) = operand, path.count == 2, path[0] == "_event" {
            if path[1] == "name" {
                // Every event has a name; `_event` is known only in a transition on events.
                guard scope.origins != nil else { throw Self.noEvent("'typeof _event.name'", at: at) }
                word = "string"
            } else if let field = EventField(rawValue: path[1]) {
                let (kind, _) = try Self.metadataValue(field, "'typeof _event.\(field.rawValue)'", at: at, scope) { value in
                    switch value {
                    case .undefined: .string("undefined")
                    case .string, .ownSession: .string("string")
                    case .unknown: .unknown
                    }
                }
                if case .string(let s) = kind { word = s }
            }
        }
        guard let word else {
            throw JSError(message: "'typeof' has no equivalent here except on the current event's fields "
                          + "(typeof _event.sendid, _event.origin, _event.origintype, _event.invokeid, _event.type, _event.name)",
                          offset: at)
        }
        return Translated(text: Self.stringLiteral(word), precedence: Self.primary, type: .known(.string), pieces: [.literal(word)])
    }

    /// The one value `field`, seen through `view`, has for every event the transition may
    /// be taken on, and an event that has it (for messages); refused, naming `name`, when
    /// it differs between them or is not known.
    private static func metadataValue(_ field: EventField, _ name: String, at: Int, _ scope: ExpressionScope,
                                      _ view: (EventField.Value) -> EventField.Value) throws(JSError) -> (EventField.Value, String) {
        guard let origins = scope.origins, let first = origins.sources.first else { throw noEvent(name, at: at) }
        // Without <invoke>, no event is from an invoked session, whatever it matched.
        if field != .invokeid, origins.anyEvent {
            throw JSError(message: "\(name) is not known in a transition on '*', which is taken on any event, also ones "
                          + "the document does not name (from outside, or the platform's errors)", offset: at)
        }
        let value = view(field.value(first.source))
        for (event, source) in origins.sources {
            let other = view(field.value(source))
            if other == .unknown {
                throw JSError(message: "\(name) is not known for \(source.describe(event))", offset: at)
            }
            if other != value {
                throw JSError(message: "\(name) differs between the events this transition is taken on: "
                              + "\(describe(value)) for \(first.source.describe(first.event)), "
                              + "\(describe(other)) for \(source.describe(event))", offset: at)
            }
        }
        return (value, first.source.describe(first.event))
    }

    private static func describe(_ value: EventField.Value) -> String {
        switch value {
        case .undefined: "undefined"
        case .string(let s): "'\(s)'"
        case .ownSession: "the session's URI"
        case .unknown: "not known"
        }
    }

    /// The refusal of `_event`'s metadata where no event is known (entry and exit actions,
    /// eventless transitions: there `_event` is whichever event came last).
    static func noEvent(_ name: String, at: Int) -> JSError {
        JSError(message: "\(name) has an equivalent only in a transition taken on an event (here there is none)", offset: at)
    }
}
