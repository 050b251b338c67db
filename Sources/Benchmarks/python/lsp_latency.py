"""`statecraft lsp` as an editor sees it: the time from writing a textDocument/didChange to
reading each of the two publishDiagnostics it causes (the quick checks, then the reachability
search's findings), through the real binary's pipes. The change types a space at the end of
the first line and deletes it again, alternately.

    python3 Sources/Benchmarks/python/lsp_latency.py .build/release/statecraft Specs/PeekRating.machine [RUNS]
"""
import json, subprocess, sys, time, statistics

binary, spec = sys.argv[1], sys.argv[2]
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 21
text = open(spec, encoding="utf-8").read()
p = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

def send(obj):
    body = json.dumps(obj).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    p.stdin.flush()

def receive():
    length = None
    while True:
        line = p.stdout.readline()
        if line in (b"\r\n", b"\n"):
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(p.stdout.read(length))

def wait_publish():
    while True:
        m = receive()
        if m.get("method") == "textDocument/publishDiagnostics":
            return m

send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
receive()
send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
uri = "file:///bench.machine"
send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
    "uri": uri, "languageId": "statecraft", "version": 1, "text": text}}})
wait_publish(); wait_publish()
first_line = len(text.split("\n")[0].encode("utf-16-le")) // 2
quick, full = [], []
for run in range(runs):
    typing = run % 2 == 0
    rng = {"start": {"line": 0, "character": first_line},
           "end": {"line": 0, "character": first_line + (0 if typing else 1)}}
    t = time.perf_counter()
    send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri, "version": run + 2},
        "contentChanges": [{"range": rng, "text": " " if typing else ""}]}})
    wait_publish(); quick.append(time.perf_counter() - t)
    wait_publish(); full.append(time.perf_counter() - t)
send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}); receive()
send({"jsonrpc": "2.0", "method": "exit"}); p.wait()
ms = lambda xs: f"{statistics.median(xs) * 1000:.1f} ({min(xs) * 1000:.1f}-{max(xs) * 1000:.1f})"
print(f"{spec}: quick {ms(quick)} ms, with the search {ms(full)} ms, exit {p.returncode}")
