import StatecraftFuzzing

// fuzz-scxml: see SCXMLOracle. The closure is libFuzzer's C callback, so it names the oracle itself.
FuzzEntry.main(SCXMLOracle.self) { data, size in FuzzEntry.test(SCXMLOracle.self, data, size) }
