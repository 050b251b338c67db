#!/usr/bin/env python3
"""Replays a MediaPlayer log written by `statecraft-bench generate` with python-statemachine
(3.2), through its SCXML processor, for the benchmark's comparison.

    pip install python-statemachine==3.2.2
    python3 Sources/Benchmarks/python/statemachine_baseline.py /tmp/statecraft-bench/MediaPlayer-1000000.jsonl [LINES]

The document below is Specs/MediaPlayer.machine written in SCXML: the same states, regions,
history, completion, eventless and internal transitions, raised events and guards. Its one
timer (`after bufferingLimit` in `buffering`) is checked against each line's time before the
line is applied, as statecraft replay does, since the library's delayed events run on the
wall clock. Replays the first LINES lines (all by default). Prints the final configuration,
then "events/s N" (json.loads + the send per line, file reading included).
"""
import json
import sys
import time

from statemachine.io.scxml.processor import SCXMLProcessor

MEDIA_PLAYER = """<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="python" initial="player">
  <datamodel>
    <data id="position" expr="0"/>
    <data id="duration" expr="0"/>
    <data id="volume" expr="1"/>
    <data id="autoplay" expr="True"/>
    <data id="stalls" expr="0"/>
    <data id="outputs" expr="0"/>
    <data id="deadline" expr="-1"/>
  </datamodel>
  <state id="player" initial="session">
    <transition event="interruptionBegan" target="interrupted"/>
    <transition event="close" target="closed"/>
    <parallel id="session">
      <state id="playback" initial="loading">
        <state id="loading" initial="fetching">
          <onentry><assign location="outputs" expr="outputs + 1"/></onentry>
          <onexit><assign location="outputs" expr="outputs + 1"/></onexit>
          <state id="fetching">
            <transition event="loaded" cond="_event.data.itemDuration &gt; 0" target="prerolling">
              <assign location="duration" expr="_event.data.itemDuration"/>
              <assign location="position" expr="0"/>
            </transition>
          </state>
          <state id="prerolling"><transition event="prerolled" target="ready"/></state>
          <final id="ready"/>
          <transition event="done.state.loading" target="paused">
            <if cond="autoplay"><raise event="play"/></if>
          </transition>
        </state>
        <state id="paused"><transition event="play" target="playing"/></state>
        <state id="playing" initial="streaming">
          <transition event="pause" target="paused"/>
          <transition event="tick"><assign location="position" expr="min(_event.data.seconds, duration)"/></transition>
          <transition event="reachedEnd" target="ended"/>
          <transition event="seek" type="internal" target="buffering">
            <assign location="position" expr="_event.data.to"/>
          </transition>
          <state id="streaming">
            <transition event="stalled" target="buffering"><assign location="stalls" expr="stalls + 1"/></transition>
          </state>
          <state id="buffering">
            <onentry>
              <assign location="outputs" expr="outputs + 1"/>
              <assign location="deadline" expr="_event.data.time + 10"/>
            </onentry>
            <onexit>
              <assign location="outputs" expr="outputs + 1"/>
              <assign location="deadline" expr="-1"/>
            </onexit>
            <transition event="likelyToKeepUp" target="streaming"/>
            <transition event="bufferingTimeout" target="paused"><assign location="outputs" expr="outputs + 1"/></transition>
          </state>
        </state>
        <final id="ended"><onentry><assign location="position" expr="duration"/></onentry></final>
        <transition event="seek" cond="not In('playing')">
          <assign location="position" expr="min(max(_event.data.to, 0), duration)"/>
        </transition>
        <transition event="replay" cond="In('ended')" type="internal" target="playing">
          <assign location="position" expr="0"/>
        </transition>
      </state>
      <state id="sound" initial="unmuted">
        <state id="unmuted">
          <transition cond="volume == 0" target="muted"/>
          <transition event="mute" target="muted"/>
        </state>
        <state id="muted">
          <transition event="unmute" target="unmuted">
            <if cond="volume == 0"><assign location="volume" expr="0.5"/></if>
          </transition>
        </state>
        <transition event="volumeChanged"><assign location="volume" expr="min(max(_event.data.level, 0), 1)"/></transition>
      </state>
      <state id="screen" initial="layout">
        <state id="layout" initial="inline">
          <state id="inline"><transition event="enterFullscreen" target="fullscreen"/></state>
          <state id="fullscreen"><transition event="exitFullscreen" target="inline"/></state>
          <history id="beforePictureInPicture" type="shallow"><transition target="inline"/></history>
          <transition event="startPictureInPicture" cond="In('playing')" target="pictureInPicture"/>
        </state>
        <state id="pictureInPicture">
          <transition event="stopPictureInPicture" target="beforePictureInPicture"/>
        </state>
      </state>
      <transition event="done.state.playback"><assign location="outputs" expr="outputs + 1"/></transition>
    </parallel>
    <history id="resumePoint" type="deep"/>
  </state>
  <state id="interrupted">
    <transition event="interruptionEnded" cond="_event.data.shouldResume" target="resumePoint"/>
    <transition event="interruptionEnded" target="resumePoint"><raise event="pause"/></transition>
    <transition event="close" target="closed"/>
  </state>
  <final id="closed"/>
</scxml>
"""


def main():
    if len(sys.argv) not in (2, 3):
        print("usage: statemachine_baseline.py LOG [LINES]", file=sys.stderr)
        return 2
    limit = int(sys.argv[2]) if len(sys.argv) == 3 else None
    # The document is ours, so its Python expressions (min, max) may run as Python.
    processor = SCXMLProcessor(trusted=True)
    processor.parse_scxml("MediaPlayer", MEDIA_PLAYER)
    processor.start()
    machine = processor.root
    model = machine.model
    lines = 0
    start = time.perf_counter()
    with open(sys.argv[1], "rb") as log:
        for raw in log:
            record = json.loads(raw)
            now = record.pop("time", 0)
            event = record.pop("event", None)
            if event is None:
                continue
            if model.deadline >= 0 and now >= model.deadline:
                machine.send("bufferingTimeout", time=model.deadline)
            machine.send(event, time=now, **record)
            lines += 1
            if limit is not None and lines >= limit:
                break
    elapsed = time.perf_counter() - start
    print("configuration", sorted(s.id for s in machine.configuration))
    print("position", model.position, "stalls", model.stalls)
    print("events/s", int(lines / elapsed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
