#!/usr/bin/env python3
"""Runs an SCXML document (one written by `statecraft scxml`, or one `statecraft import`
reads) in python-statemachine (3.2) and replays a Statecraft session log against it.

    python3 -m pip install python-statemachine==3.2.2
    python3 Tests/SCXMLTests/python/crossrun.py DOCUMENT.scxml LOG.jsonl

Prints one JSON line per event line of the log, after the event and everything it led to:
{"line": N, "case": CASE, "configuration": [active state ids, sorted, the <scxml> root left out],
"outputs": [{"name": label, "args": [...]}]} (the `<log>`s of the line, timers due before
it included, read as `statecraft scxml` writes outputs), plus "error" when
python-statemachine raised; then, for each case, the data model at the end:
{"case": CASE, "variables": {id: value}}. Expectation lines are skipped (only their `time`
is applied, which may fire timers).

Three things are the harness's, not the document's, and are kept as small as possible:

1. Expressions. python-statemachine 3.2 evaluates every `cond`/`expr` as Python whatever
   the document's `datamodel` says (its `normalize_cond` rewrites `===`, `!==`, `&&`,
   `||`, `true`, `false` in guards only, textually, inside string literals too). The
   documents are ECMAScript, so `ecmascript_to_python` below translates the subset the
   exporter writes (literals, names, `_event.data.f`, `! - typeof` `* / %` `+ -` `< <= > >=`
   `=== !==` `&& ||` `?:`, calls, `[a, b]`) into Python with ECMAScript's meaning: `+` joins
   when either side is a string (numbers printed as ECMAScript prints them), `/` and `%` by
   zero give Infinity or NaN, `Math.*` behave as in ECMAScript (`Math.round` rounds halves up).
   `In(s)` with a bare state id (the null data model's form, which editors also write in
   ECMAScript documents) is `In('s')`.

2. Time. The library runs a delayed `<send>` on the wall clock (its processing loop sleeps
   until it is due), so timers are taken off its queue: a send with a delay is kept here
   with its deadline in the log's virtual time, `<cancel>` drops it, and before each line
   every one due at or before the line's time is delivered, earliest first (ties in the
   order they were sent), the way `statecraft replay` fires timers.

3. Other vocabularies. SCXML processors ignore elements of other namespaces (Qt Creator's
   `<qt:editorinfo>`), and python-statemachine 3.2 refuses them inside executable content,
   so they are removed before it reads the document.
"""
import contextlib
import heapq
import io
import itertools
import json
import math
import sys
import xml.etree.ElementTree as ElementTree

from statemachine.io import actions as io_actions
from statemachine.io.evaluators import _eval
from statemachine.io.interpreter import Interpreter
from statemachine.io.scxml.reader import SCXMLReader
from statemachine.io.scxml.reader import parse_scxml
from statemachine.statemachine import StateChart


# --- 1. ECMAScript expressions as Python -------------------------------------------------

def js_string(value):
    """ECMAScript's ToString for the values our documents use."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        if value == int(value) and abs(value) < 1e21:
            return str(int(value))
        text = repr(float(value))
        mantissa, _, exponent = text.partition("e")
        if exponent:
            sign = "-" if exponent.startswith("-") else "+"
            return mantissa + "e" + sign + exponent.lstrip("+-").lstrip("0")
        return text
    return str(value)


def js_add(a, b):
    if isinstance(a, str) or isinstance(b, str):
        return js_string(a) + js_string(b)
    return a + b


def js_div(a, b):
    if b == 0:
        if a == 0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1, b)
    return a / b


def js_mod(a, b):
    if b == 0 or math.isinf(a):
        return math.nan
    return math.fmod(a, b)


class JSMath:
    """The `Math` functions the exporter writes, with ECMAScript's results."""
    PI = math.pi

    @staticmethod
    def min(*args):
        return min(args)

    @staticmethod
    def max(*args):
        return max(args)

    abs = staticmethod(abs)

    @staticmethod
    def sqrt(x):
        return math.sqrt(x) if x >= 0 else math.nan

    @staticmethod
    def floor(x):
        return float(math.floor(x))

    @staticmethod
    def ceil(x):
        return float(math.ceil(x))

    @staticmethod
    def round(x):
        return float(math.floor(x + 0.5))

    atan2 = staticmethod(math.atan2)


def js_typeof(value):
    """ECMAScript's `typeof` of what python-statemachine holds: a field SCXML leaves blank
    (`_event.sendid` of a raised event, `origin` of an internal one) is "" or None there,
    where an ECMAScript data model has it undefined."""
    if value is None or value == "":
        return "undefined"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return "string" if isinstance(value, str) else "object"


HELPERS = {"__js_add": js_add, "__js_div": js_div, "__js_mod": js_mod, "__js_typeof": js_typeof, "Math": JSMath,
           "NaN": math.nan, "Infinity": math.inf, "undefined": None}

PUNCTUATION = ["===", "!==", "&&", "||", "<=", ">=", "<", ">", "!", "+", "-", "*", "/", "%",
               "?", ":", "(", ")", "[", "]", ",", "."]


def tokenize(text):
    tokens = []
    i = 0
    while i < len(text):
        c = text[i]
        if c.isspace():
            i += 1
        elif c == "'" or c == '"':
            j = i + 1
            value = []
            while text[j] != c:
                if text[j] == "\\":
                    j += 1
                    e = text[j]
                    if e == "u":
                        value.append(chr(int(text[j + 1:j + 5], 16)))
                        j += 4
                    elif e == "x":
                        value.append(chr(int(text[j + 1:j + 3], 16)))
                        j += 2
                    else:
                        value.append({"n": "\n", "r": "\r", "t": "\t", "0": "\0"}.get(e, e))
                else:
                    value.append(text[j])
                j += 1
            tokens.append(("str", "".join(value)))
            i = j + 1
        elif c.isdigit() or (c == "." and text[i + 1:i + 2].isdigit()):
            j = i
            while j < len(text) and (text[j].isdigit() or text[j] in ".eE" or
                                     (text[j] in "+-" and text[j - 1] in "eE")):
                j += 1
            tokens.append(("num", text[i:j]))
            i = j
        elif c.isalpha() or c == "_" or c == "$":
            j = i
            while j < len(text) and (text[j].isalnum() or text[j] in "_$"):
                j += 1
            tokens.append(("name", text[i:j]))
            i = j
        else:
            for p in PUNCTUATION:
                if text.startswith(p, i):
                    tokens.append(("op", p))
                    i += len(p)
                    break
            else:
                raise SyntaxError(f"unexpected {c!r} in {text!r}")
    return tokens


class Translator:
    """Recursive descent over ECMAScript's precedence, writing Python."""

    BINARY = [  # loosest first
        (["||"], lambda a, o, b: f"({a} or {b})"),
        (["&&"], lambda a, o, b: f"({a} and {b})"),
        (["===", "!=="], lambda a, o, b: f"({a} {'==' if o == '===' else '!='} {b})"),
        (["<", "<=", ">", ">="], lambda a, o, b: f"({a} {o} {b})"),
        (["+", "-"], lambda a, o, b: f"__js_add({a}, {b})" if o == "+" else f"({a} - {b})"),
        (["*", "/", "%"], lambda a, o, b: {"*": f"({a} * {b})", "/": f"__js_div({a}, {b})",
                                           "%": f"__js_mod({a}, {b})"}[o]),
    ]

    def __init__(self, text):
        self.text = text
        self.tokens = tokenize(text)
        self.i = 0

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else (None, None)

    def take(self, value=None):
        token = self.peek()
        if value is not None and token[1] != value:
            raise SyntaxError(f"expected {value!r} in {self.text!r}")
        self.i += 1
        return token

    def translate(self):
        result = self.conditional()
        if self.i != len(self.tokens):
            raise SyntaxError(f"unexpected {self.peek()[1]!r} in {self.text!r}")
        return result

    def conditional(self):
        condition = self.binary(0)
        if self.peek() == ("op", "?"):
            self.take()
            then = self.conditional()
            self.take(":")
            otherwise = self.conditional()
            return f"({then} if {condition} else {otherwise})"
        return condition

    def binary(self, level):
        if level == len(self.BINARY):
            return self.unary()
        operators, write = self.BINARY[level]
        left = self.binary(level + 1)
        while self.peek()[0] == "op" and self.peek()[1] in operators:
            op = self.take()[1]
            left = write(left, op, self.binary(level + 1))
        return left

    def unary(self):
        if self.peek() == ("name", "typeof"):
            self.take()
            return f"__js_typeof({self.unary()})"
        if self.peek() == ("op", "!"):
            self.take()
            return f"(not {self.unary()})"
        if self.peek() == ("op", "-"):
            self.take()
            return f"(-{self.unary()})"
        return self.postfix()

    def postfix(self):
        result = self.primary()
        if (result == "In" and self.tokens[self.i:self.i + 3] and len(self.tokens) >= self.i + 3
                and self.tokens[self.i] == ("op", "(") and self.tokens[self.i + 1][0] == "name"
                and self.tokens[self.i + 2] == ("op", ")")):
            state = self.tokens[self.i + 1][1]
            self.i += 3
            return f"In({state!r})"
        while True:
            if self.peek() == ("op", "."):
                self.take()
                result += "." + self.take()[1]
            elif self.peek() == ("op", "("):
                result += "(" + ", ".join(self.arguments(")")) + ")"
            else:
                return result

    def arguments(self, close):
        self.take()
        items = []
        while self.peek() != ("op", close):
            items.append(self.conditional())
            if self.peek() == ("op", ","):
                self.take()
        self.take(close)
        return items

    def primary(self):
        kind, value = self.peek()
        if kind == "num":
            self.take()
            return repr(float(value))
        if kind == "str":
            self.take()
            return repr(value)
        if kind == "name":
            self.take()
            return {"true": "True", "false": "False", "null": "None"}.get(value, value)
        if value == "(":
            self.take()
            inner = self.conditional()
            self.take(")")
            return f"({inner})"
        if value == "[":
            return "[" + ", ".join(self.arguments("]")) + "]"
        raise SyntaxError(f"unexpected {value!r} in {self.text!r}")


def ecmascript_to_python(text):
    return Translator(text).translate()


class ECMAScriptEvaluator:
    """python-statemachine's evaluator port, for documents whose expressions are ECMAScript:
    each is translated once, then evaluated as the library's trusted evaluator does (its
    names: the data model, `_event`, `In`), with the helpers above in scope."""

    def compile_value(self, expr):
        python = ecmascript_to_python(expr)

        def value(*args, **kwargs):
            return _eval(python, **HELPERS, **kwargs)

        return value

    def compile_bool(self, expr):
        value = self.compile_value(expr)

        def cond(*args, **kwargs):
            return bool(value(*args, **kwargs))

        return cond

    def compile_script(self, content):
        raise ValueError("the exporter writes no <script>")

    def eval_literal(self, content):
        return content

    def ensure_external_src_allowed(self, descriptor):
        raise ValueError(f"{descriptor}: the exporter writes no external references")


# --- 3. Other vocabularies ----------------------------------------------------------------

SCXML_NAMESPACE = "http://www.w3.org/2005/07/scxml"


def without_other_namespaces(document):
    """The document with every element of another namespace (and what it holds) removed."""
    ElementTree.register_namespace("", SCXML_NAMESPACE)
    root = ElementTree.fromstring(document)

    def foreign(element):
        return element.tag.startswith("{") and not element.tag.startswith("{" + SCXML_NAMESPACE + "}")

    for parent in root.iter():
        for child in [c for c in parent if foreign(c)]:
            parent.remove(child)
    return ElementTree.tostring(root, encoding="unicode")


# --- 2. Delayed sends on the log's clock -------------------------------------------------

class VirtualClock:
    """Delayed sends of one machine, by deadline in the log's seconds."""

    def __init__(self):
        self.now = 0.0
        self.pending = []  # heap of (deadline, sequence, trigger)
        self.sequence = itertools.count()

    def schedule(self, trigger, seconds):
        heapq.heappush(self.pending, (self.now + max(0.0, seconds), next(self.sequence), trigger))

    def cancel(self, send_id):
        self.pending = [p for p in self.pending if p[2].send_id != send_id]
        heapq.heapify(self.pending)

    def pop_due(self, time):
        if self.pending and self.pending[0][0] <= time:
            deadline, _, trigger = heapq.heappop(self.pending)
            self.now = deadline
            return trigger
        return None


# The run whose machine is being constructed: its initial states may send delayed events
# and log outputs before the constructor returns.
_constructing = None


def _run_of(machine):
    return machine.__dict__.get("harness_run", _constructing)


def _put_nonblocking(self, trigger_data, internal=False):
    run = _run_of(self)
    event = trigger_data.event
    delay = event.delay if event is not None and event.delay else 0
    if delay and not internal and run is not None:
        run.clock.schedule(trigger_data, delay / 1000)
        return
    self._engine.put(trigger_data, internal=internal)


def _cancel_event(self, send_id):
    run = _run_of(self)
    if run is not None:
        run.clock.cancel(send_id)
    self._engine.cancel_event(send_id)


def _log(self, *args, **kwargs):
    """A `<log label expr>` is an output: label its name, expr its argument, or an array
    of its arguments (the library would print it)."""
    value = self._expr(*args, **kwargs) if self._expr else None
    arguments = [] if value is None else list(value) if isinstance(value, list) else [value]
    run = _run_of(kwargs["machine"])
    if run is not None:
        run.outputs.append({"name": self.action.label, "args": arguments})


StateChart._put_nonblocking = _put_nonblocking
StateChart.cancel_event = _cancel_event
io_actions.Log.__call__ = _log


class Run:
    """One case of the log: a machine and its clock.

    Each case compiles the document into a class of its own: python-statemachine 3.2.2
    initialises a class's `<datamodel>` once (a flag in the closure that
    `create_datamodel_action_callable` builds per class, not per instance), so a second
    instance of one class starts without its data items."""

    def __init__(self, document):
        global _constructing
        interpreter = Interpreter(reader=SCXMLReader(), evaluator=ECMAScriptEvaluator())
        definition = parse_scxml(without_other_namespaces(document))
        interpreter.process_definition(definition, location=definition.name or "machine")
        interpreter.root_cls = next(iter(interpreter.scs.values()))
        self.clock = VirtualClock()
        self.outputs = []
        _constructing = self
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                self.machine = interpreter.root_cls()
        finally:
            _constructing = None
        self.machine.harness_run = self

    def advance(self, time):
        """Delivers every delayed send due at or before `time`."""
        while (trigger := self.clock.pop_due(time)) is not None:
            trigger.execution_time = 0  # due now: the library's loop must not wait for it
            with contextlib.redirect_stdout(io.StringIO()):
                self.machine._engine.put(trigger)
                self.machine._processing_loop()
        self.clock.now = max(self.clock.now, time)

    def send(self, event, payload):
        with contextlib.redirect_stdout(io.StringIO()):
            self.machine.send(event, **payload)

    def configuration(self):
        return sorted(s.id for s in self.machine.configuration)


def main():
    if len(sys.argv) != 3:
        print("usage: crossrun.py DOCUMENT.scxml LOG.jsonl", file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        document = f.read()
    runs = {}
    with open(sys.argv[2], encoding="utf-8") as log:
        for number, raw in enumerate(log, start=1):
            if not raw.strip():
                continue
            record = json.loads(raw)
            case = record.pop("case", None)
            key = json.dumps(case)
            if key not in runs:
                runs[key] = Run(document)
            run = runs[key]
            time = float(record.pop("time", run.clock.now))
            run.outputs = []
            run.advance(time)
            event = record.pop("event", None)
            if event is None:
                continue
            result = {"line": number, "case": case}
            try:
                run.send(event, record)
            except Exception as error:  # reported, and compared by the caller
                result["error"] = f"{type(error).__name__}: {error}"
            result["configuration"] = run.configuration()
            result["outputs"] = run.outputs
            print(json.dumps(result))
    namespace = "{http://www.w3.org/2005/07/scxml}"
    data = [d.get("id") for d in ElementTree.fromstring(document).iter(namespace + "data")]
    for key, run in runs.items():
        model = run.machine.model
        values = {name: getattr(model, name) for name in data if hasattr(model, name)}
        print(json.dumps({"case": json.loads(key), "variables": values}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
