/// `{"expect": "open"}` or `{"expect": {"state": ..., "vars": {...}, "outputs": [...]}}`, where
/// `state` is a name or a list of names
///
/// Offsets are 0-based byte offsets into the line's `LogRecord.text`. At least one of
/// `state`, `vars` and `outputs` is present.
public struct Expectation: Equatable, Sendable {
    /// The states that should be active (at any depth): one for `"state": "open"`, each
    /// of a list for `"state": ["playing", "muted"]`.
    public var states: [String]?
    /// Byte offset of each state's string.
    public var stateOffsets: [Int]?
    /// Variable name -> expected value, in line order.
    public var vars: [JSONMember]?
    /// The outputs expected since the previous expectation of the same case, in order.
    public var outputs: [String]?
    /// Byte offset of the `[` of the outputs array.
    public var outputsOffset: Int?
    /// Byte offset of each string in `outputs`, so an unknown output name can be pointed at.
    public var outputOffsets: [Int]?
    /// For each element of `outputs`, the arguments it expects when it was written as
    /// `{"name": "rated", "args": ["❤️"]}`; nil for a bare name (arguments not compared).
    public var outputArguments: [ExpectedArguments?]?
    /// Byte offset of where the `expect` value starts.
    public var offset: Int

    /// The arguments an `outputs` element expects, with where each starts in the line.
    public struct ExpectedArguments: Equatable, Sendable {
        /// The expected argument values as the log wrote them, in order.
        public var values: [JSONValue]
        /// Byte offset of the `[` of `args`, and of each value.
        public var offset: Int
        /// The byte offset, in the line, of where each value starts.
        public var valueOffsets: [Int]

        /// Creates the expected arguments of one `outputs` element.
        public init(values: [JSONValue], offset: Int, valueOffsets: [Int]) {
            self.values = values
            self.offset = offset
            self.valueOffsets = valueOffsets
        }
    }

    /// Creates an expectation.
    public init(state: String? = nil, stateOffset: Int? = nil, vars: [JSONMember]? = nil,
                outputs: [String]? = nil, outputsOffset: Int? = nil, outputOffsets: [Int]? = nil,
                offset: Int) {
        self.states = state.map { [$0] }
        self.stateOffsets = stateOffset.map { [$0] }
        self.vars = vars
        self.outputs = outputs
        self.outputsOffset = outputsOffset
        self.outputOffsets = outputOffsets
        self.offset = offset
    }
}
