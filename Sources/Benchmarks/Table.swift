/// Formatting of the results table.
enum Table {
    static let header = pad("machine", 15) + pad("stage", 30) + lpad("median s", 10) + lpad("M events/s", 12)
        + lpad("MB/s", 9) + lpad("peak RSS MB", 13) + "  ratio"

    static func format(_ row: RunCommand.Row) -> String {
        let rate = row.seconds > 0 ? Double(row.items) / row.seconds / 1e6 : 0
        let mbps = row.seconds > 0 ? Double(row.bytes) / row.seconds / 1e6 : 0
        return pad(row.machine, 15) + pad(row.stage, 30) + lpad(fixed(row.seconds, 4), 10) + lpad(fixed(rate, 2), 12)
            + lpad(fixed(mbps, 0), 9) + lpad(fixed(Double(row.peakRSS) / 1_048_576, 1), 13) + "  " + row.ratio
    }

    /// "12.3× scan": how many times longer `seconds` took than `reference`.
    static func ratio(_ seconds: Double, _ reference: Double, _ name: String) -> String {
        reference > 0 ? fixed(seconds / reference, 1) + "× " + name : ""
    }

    /// The number after "events/s" in the Python script's output.
    static func eventsPerSecond(_ output: String) -> Double? {
        for line in output.split(separator: "\n") where line.hasPrefix("events/s ") {
            return Double(line.dropFirst("events/s ".count).trimmingPrefix(" "))
        }
        return nil
    }

    static func fixed(_ value: Double, _ places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        return LogGenerator.decimal(scaled, places: places).padDecimals(places)
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }

    static func lpad(_ s: String, _ width: Int) -> String {
        s.count >= width ? " " + s : String(repeating: " ", count: width - s.count) + s
    }
}

extension String {
    /// Adds trailing zeros so the text has `places` decimals ("1.5" → "1.50").
    func padDecimals(_ places: Int) -> String {
        guard places > 0 else { return self }
        guard let dot = firstIndex(of: ".") else { return self + "." + String(repeating: "0", count: places) }
        let have = distance(from: index(after: dot), to: endIndex)
        return self + String(repeating: "0", count: max(0, places - have))
    }
}
