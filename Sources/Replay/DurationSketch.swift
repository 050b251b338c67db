#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mergeable summary of many durations, for their percentiles: each duration is counted
/// in a bucket of width proportional to it (DDSketch's logarithmic buckets), so every
/// percentile it gives is within `relativeAccuracy` (1 %) of a duration actually recorded at
/// that rank, and the sketch of two sets of durations is the sum of their sketches, bucket by
/// bucket, whatever order they were added in.
///
/// While it holds at most `exactLimit` durations it also keeps them as they were, and its
/// percentiles are exact (a single 1 s visit is 1 s, not the bucket's 0.99 s); beyond that,
/// they are the buckets' estimates. Whether it is exact depends only on the count, so a merge
/// is exact exactly when the merged count is small, in whatever order the parts are added.
public struct DurationSketch: Sendable, Equatable {
    /// Up to this many durations, the sketch keeps them and gives exact percentiles.
    package static let exactLimit = 100
    /// The durations themselves (in the order added) while `count <= exactLimit`, else nil.
    private var kept: [Double]? = []

    /// The durations themselves, smallest first, while there are at most `exactLimit`.
    package var exact: [Double]? { kept?.sorted() }

    /// The most a percentile may differ from a recorded duration of that rank, relatively.
    public static let relativeAccuracy = 0.01
    static let gamma = (1 + relativeAccuracy) / (1 - relativeAccuracy)
    static let logGamma = log(gamma)

    /// Durations of (virtually) zero seconds, which no logarithmic bucket holds.
    public private(set) var zeros = 0
    /// How many durations were added, zeros included.
    public private(set) var count = 0
    /// The counts of buckets `lowest ..< lowest + counts.count`, where bucket `i` holds the
    /// durations in (γ^(i-1), γ^i]: an array, so that adding a duration hashes nothing.
    private var lowest = 0
    private var counts: [Int] = []

    /// Creates an empty sketch.
    public init() {}

    /// Restores a sketch from its zeros and buckets (as a report writes them), and from its
    /// durations when it kept them (they are dropped unless there is one per duration counted
    /// and the count is within `exactLimit`).
    public init(zeros: Int, buckets: [Int: Int], exact: [Double]? = nil) {
        self.zeros = zeros
        count = zeros
        for (index, n) in buckets { add(n, toBucket: index) }
        kept = exact.flatMap { $0.count == count && count <= Self.exactLimit ? $0.sorted() : nil }
    }

    /// The buckets that hold something, lowest index first: what a report writes, in its
    /// order (read it once; `buckets` builds a dictionary at every call).
    public var bucketsInOrder: [(index: Int, count: Int)] {
        counts.enumerated().compactMap { k, n in n > 0 ? (lowest + k, n) : nil }
    }

    /// Bucket index → count, for the buckets that hold something.
    public var buckets: [Int: Int] {
        Dictionary(uniqueKeysWithValues: bucketsInOrder.lazy.map { ($0.index, $0.count) })
    }

    /// Records one duration, in seconds (below a microsecond it counts as zero).
    public mutating func add(_ seconds: Double) {
        // Below a microsecond a virtual clock does not tell durations apart.
        guard seconds >= 1e-6 else {
            zeros += 1
            count += 1
            keep(0)
            return
        }
        add(1, toBucket: Int((log(seconds) / Self.logGamma).rounded(.up)))
        keep(seconds)
    }

    /// Keeps a duration just counted while the count allows it.
    private mutating func keep(_ seconds: Double) {
        guard kept != nil else { return }
        if count <= Self.exactLimit { kept?.append(seconds) } else { kept = nil }
    }

    private mutating func add(_ n: Int, toBucket index: Int) {
        count += n
        if counts.isEmpty {
            lowest = index
            counts = [n]
            return
        }
        if index < lowest {
            counts.insert(contentsOf: repeatElement(0, count: lowest - index), at: 0)
            lowest = index
        } else if index >= lowest + counts.count {
            counts.append(contentsOf: repeatElement(0, count: index - lowest - counts.count + 1))
        }
        counts[index - lowest] += n
    }

    public static func == (a: DurationSketch, b: DurationSketch) -> Bool {
        a.zeros == b.zeros && a.count == b.count && a.buckets == b.buckets && a.exact == b.exact
    }

    /// The duration at quantile `q` (0.5 the median), nil when nothing was recorded: exact
    /// while the durations are kept, else within `relativeAccuracy`.
    public func quantile(_ q: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = max(1, Int((q * Double(count)).rounded(.up)))
        if let exact, rank <= exact.count { return exact[rank - 1] }
        if rank <= zeros { return 0 }
        var seen = zeros
        for (k, n) in counts.enumerated() {
            seen += n
            // The bucket's value closest, relatively, to everything in it.
            if seen >= rank { return 2 * pow(Self.gamma, Double(lowest + k)) / (Self.gamma + 1) }
        }
        return nil
    }

    /// The sketch of both sets of durations: the counts added bucket by bucket.
    public static func + (a: DurationSketch, b: DurationSketch) -> DurationSketch {
        var sum = a
        sum.zeros += b.zeros
        sum.count += b.zeros
        for (k, n) in b.counts.enumerated() where n > 0 { sum.add(n, toBucket: b.lowest + k) }
        if let x = a.kept, let y = b.kept, sum.count <= exactLimit { sum.kept = (x + y).sorted() } else { sum.kept = nil }
        return sum
    }
}

/// How often a state was entered, and how long its visits that ended lasted.
public struct StateDwell: Sendable, Equatable {
    /// How many times the state was entered.
    public var visits = 0
    /// The durations of the visits that ended (a state still active at the end of a case adds none).
    public var durations = DurationSketch()

    /// Creates a dwell record from a visit count and a sketch of durations.
    public init(visits: Int = 0, durations: DurationSketch = DurationSketch()) {
        self.visits = visits
        self.durations = durations
    }

    /// The dwell of both sets of visits: visits added, sketches merged.
    public static func + (a: StateDwell, b: StateDwell) -> StateDwell {
        StateDwell(visits: a.visits + b.visits, durations: a.durations + b.durations)
    }
}
