/// A payload field's, variable's or output argument's value as a log line carries it: the
/// three types a spec declares.
public enum LogValue: Sendable, Equatable {
    /// A `Number`: any finite double (a non-finite one is refused when written).
    case number(Double)
    /// A `Bool`.
    case bool(Bool)
    /// A `String`.
    case string(String)
}

/// A line's `case`: a string, or an integer (the reader reads 7 and "7" as one case).
public enum LogCase: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    /// `"case": "session-2"`.
    case name(String)
    /// `"case": 7`; at most 2^53 in magnitude, beyond which a double cannot tell integers apart.
    case number(Int)

    /// A string literal is a case name.
    public init(stringLiteral value: String) {
        self = .name(value)
    }

    /// An integer literal is a case number.
    public init(integerLiteral value: Int) {
        self = .number(value)
    }
}

/// An element of an expectation's `outputs`: an output's name, and the arguments it must
/// have had (nil: its arguments are not compared).
public struct ExpectedOutput: Sendable, Equatable {
    /// The output's name.
    public var name: String
    /// The arguments in order, or nil to compare the name only.
    public var arguments: [LogValue]?

    /// An output expected by name, with its arguments when they are to be compared.
    public init(_ name: String, arguments: [LogValue]? = nil) {
        self.name = name
        self.arguments = arguments
    }
}

/// What an expectation line asserts: any of the states active, variables' values and the
/// outputs since the previous expectation of the same case (at least one of them).
public struct LogExpectation: Sendable, Equatable {
    /// States that must all be active (at any depth); nil: not asserted.
    public var states: [String]?
    /// Variable name and expected value, in the order written; nil: not asserted.
    public var vars: [Variable]?
    /// The outputs in order (`[]`: none); nil: not asserted.
    public var outputs: [ExpectedOutput]?

    /// A variable's expected value.
    public struct Variable: Sendable, Equatable {
        /// The variable's name.
        public var name: String
        /// Its expected value.
        public var value: LogValue

        /// Pairs a variable with its expected value.
        public init(_ name: String, _ value: LogValue) {
            self.name = name
            self.value = value
        }
    }

    /// An expectation of any of states, variables and outputs.
    public init(states: [String]? = nil, vars: [Variable]? = nil, outputs: [ExpectedOutput]? = nil) {
        self.states = states
        self.vars = vars
        self.outputs = outputs
    }
}
