#!/usr/bin/env python3
"""Replays a log written by `statecraft-bench generate` with Python's `transitions` package.

    pip install transitions
    python3 Sources/Benchmarks/python/transitions_baseline.py Drawer /tmp/statecraft-bench/Drawer-1000000.jsonl

Machines: Drawer, VibrantButton, PullToRefresh (its 2 s timer is checked against each
line's time before the line is applied, as statecraft replay does). Prints the final state,
then "events/s N" (json.loads + the transitions call per line, file reading included).
"""
import json
import sys
import time

from transitions import Machine


class Drawer:
    states = ["open", "closed", "dragging"]

    def __init__(self):
        self.direction_top = True
        self.origin_y = 0.0
        self.start_touch_y = 0.0
        self.start_origin_y = 0.0
        m = Machine(model=self, states=Drawer.states, initial="open", send_event=True,
                    ignore_invalid_triggers=True, auto_transitions=False)
        for source in ["open", "closed", "dragging"]:
            m.add_transition("touchBegan", source, "dragging", conditions="on_content", after="begin")
        m.add_transition("touchMoved", "dragging", None, after="move")
        for name in ["touchEnded", "touchCancelled"]:
            m.add_transition(name, "dragging", "closed", conditions="below_boundary", after="close")
            m.add_transition(name, "dragging", "open", after="open_up")

    def on_content(self, event):
        return event.kwargs["onContent"]

    def begin(self, event):
        self.start_touch_y = event.kwargs["y"]
        self.start_origin_y = self.origin_y

    def move(self, event):
        self.origin_y = min(self.start_origin_y + (event.kwargs["y"] - self.start_touch_y), 0)

    def below_boundary(self, event):
        return event.kwargs["y"] < (100 if self.direction_top else 667 - 100)

    def close(self, event):
        self.direction_top = True
        self.origin_y = 50 - 667

    def open_up(self, event):
        self.direction_top = False
        self.origin_y = 0


class VibrantButton:
    def __init__(self):
        self.alpha = 0.2
        self.taps = 0
        m = Machine(model=self, states=["unselected", "selected"], initial="unselected", send_event=True,
                    ignore_invalid_triggers=True, auto_transitions=False)
        m.add_transition("tap", "unselected", None, after="did_tap")
        m.add_transition("tap", "selected", None, after="did_tap")
        m.add_transition("select", "unselected", "selected", after="appear_selected")
        m.add_transition("deselect", "selected", "unselected", after="appear_unselected")

    def did_tap(self, event):
        self.taps += 1

    def appear_selected(self, event):
        self.alpha = 0.7

    def appear_unselected(self, event):
        self.alpha = 0.2


class PullToRefresh:
    def __init__(self):
        self.progress = 0.0
        self.inset_top = 0.0
        self.deadline = float("inf")
        self.refreshes = 0
        m = Machine(model=self, states=["idle", "pulling", "refreshing"], initial="idle", send_event=True,
                    ignore_invalid_triggers=True, auto_transitions=False)
        m.add_transition("scroll", "idle", "pulling", conditions="pulled", after="follow")
        m.add_transition("scroll", "idle", None, after="reset")
        m.add_transition("scroll", "pulling", None, conditions="pulled", after="follow")
        m.add_transition("scroll", "pulling", "idle", after="reset")
        m.add_transition("scroll", "refreshing", None, after="follow")
        m.add_transition("endDragging", ["idle", "pulling"], "refreshing", conditions="full")
        m.add_transition("endRefreshing", "refreshing", "idle")
        m.add_transition("timer", "refreshing", "idle")

    def pulled(self, event):
        return event.kwargs["offsetY"] + self.inset_top < 0

    def follow(self, event):
        self.progress = min(max(max(-(event.kwargs["offsetY"] + self.inset_top), 0) / 110, 0), 1)

    def reset(self, event):
        self.progress = 0

    def full(self, event):
        return self.progress >= 1

    def on_enter_refreshing(self, event):
        self.refreshes += 1
        self.inset_top += 110
        self.deadline = event.kwargs["time"] + 2

    def on_exit_refreshing(self, event):
        self.inset_top -= 110
        self.deadline = float("inf")


MACHINES = {"Drawer": Drawer, "VibrantButton": VibrantButton, "PullToRefresh": PullToRefresh}


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in MACHINES:
        sys.stderr.write("usage: transitions_baseline.py Drawer|VibrantButton|PullToRefresh LOG\n")
        return 2
    model = MACHINES[sys.argv[1]]()
    timed = isinstance(model, PullToRefresh)
    count = 0
    start = time.perf_counter()
    with open(sys.argv[2], "rb") as log:
        for raw in log:
            if not raw.strip():
                continue
            line = json.loads(raw)
            name = line.pop("event")
            now = line.pop("time", 0.0)
            line.pop("case", None)
            if timed and now >= model.deadline:
                model.trigger("timer", time=model.deadline)
            model.trigger(name, time=now, **line)
            count += 1
    seconds = time.perf_counter() - start
    print("state", model.state)
    print("events", count)
    print("events/s %.0f" % (count / seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
