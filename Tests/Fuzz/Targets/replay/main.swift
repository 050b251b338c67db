import StatecraftFuzzing

// fuzz-replay: see ReplayOracle. The closure is libFuzzer's C callback, so it names the oracle itself.
FuzzEntry.main(ReplayOracle.self) { data, size in FuzzEntry.test(ReplayOracle.self, data, size) }
