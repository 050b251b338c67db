import StatecraftFuzzing

// fuzz-format: see FormatOracle. The closure is libFuzzer's C callback, so it names the oracle itself.
FuzzEntry.main(FormatOracle.self) { data, size in FuzzEntry.test(FormatOracle.self, data, size) }
