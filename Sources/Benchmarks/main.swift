// The benchmark executable: run on purpose, in release mode (`swift run -c release statecraft-bench`).
print("statecraft-bench: not written yet")
