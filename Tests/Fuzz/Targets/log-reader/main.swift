import StatecraftFuzzing

// fuzz-log-reader: see LogReaderOracle. The closure is libFuzzer's C callback, so it names the oracle itself.
FuzzEntry.main(LogReaderOracle.self) { data, size in FuzzEntry.test(LogReaderOracle.self, data, size) }
