import StatecraftFuzzing

// fuzz-spec: see SpecOracle. The closure is libFuzzer's C callback, so it names the oracle itself.
FuzzEntry.main(SpecOracle.self) { data, size in FuzzEntry.test(SpecOracle.self, data, size) }
