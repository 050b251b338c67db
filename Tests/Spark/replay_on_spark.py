#!/usr/bin/env python3
"""Replays a folder of event logs on Apache Spark and checks the result against one process.

    python3 Tests/Spark/replay_on_spark.py STATECRAFT SPEC FOLDER [--partitions N] [--master URL]

The map side is `statecraft replay SPEC FILE... --summary --format json` on each partition
of the logs (partitioned by file); the reduce side is `statecraft merge`, two summaries at a
time, as Spark's `reduce` combines them (in whatever order and grouping it likes: merging is
associative and commutative). The merged summary must be byte for byte what one
`statecraft replay SPEC FOLDER --summary --format json` prints; the script exits 0 when it
is, 1 with a diff when it is not.

Locally this runs Spark in local mode (`--master local[2]`). On a cluster, give the
cluster's master (`--master yarn`, `spark://host:7077`, `k8s://...`) and make the binary,
the spec and the logs readable at the same paths on every executor (a shared file system,
or the binary shipped with `spark-submit --files`).
"""
import argparse
import difflib
import os
import subprocess
import sys
import tempfile


def log_files(folder):
    """Every *.jsonl under FOLDER, sorted by path, hidden folders left out: as statecraft
    replay expands a folder."""
    found = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        found += [os.path.join(root, f) for f in files if f.endswith(".jsonl") and not f.startswith(".")]
    return sorted(found)


def replay_partition(statecraft, spec):
    def run(files):
        files = list(files)
        if not files:
            return []
        out = subprocess.run([statecraft, "replay", spec, *files, "--summary", "--format", "json", "--jobs", "1"],
                             capture_output=True, text=True)
        # 0, 1 (a deviation) and 2 (a malformed line) all come with a summary on standard output.
        if not out.stdout.startswith("{"):
            raise RuntimeError(f"statecraft replay failed ({out.returncode}): {out.stderr}")
        return [out.stdout]
    return run


def merge_two(statecraft):
    def merge(a, b):
        with tempfile.TemporaryDirectory() as tmp:
            paths = []
            for name, text in (("a.summary", a), ("b.summary", b)):
                path = os.path.join(tmp, name)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
                paths.append(path)
            out = subprocess.run([statecraft, "merge", *paths, "--format", "json"], capture_output=True, text=True)
            if out.returncode != 0:
                raise RuntimeError(f"statecraft merge failed ({out.returncode}): {out.stderr}")
            return out.stdout
    return merge


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("statecraft")
    parser.add_argument("spec")
    parser.add_argument("folder")
    parser.add_argument("--partitions", type=int, default=4)
    parser.add_argument("--master", default="local[2]")
    args = parser.parse_args()
    statecraft = os.path.abspath(args.statecraft)
    files = log_files(args.folder)
    if not files:
        print(f"no *.jsonl log under {args.folder}", file=sys.stderr)
        return 2

    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.master(args.master).appName("statecraft-replay")
             .config("spark.ui.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    try:
        summaries = spark.sparkContext.parallelize(files, args.partitions) \
            .mapPartitions(replay_partition(statecraft, args.spec))
        merged = summaries.reduce(merge_two(statecraft))
    finally:
        spark.stop()

    single = subprocess.run([statecraft, "replay", args.spec, args.folder, "--summary", "--format", "json"],
                            capture_output=True, text=True).stdout
    if merged == single:
        print(f"the summary merged on Spark from {len(files)} logs in {args.partitions} partitions "
              f"is byte for byte the single run's")
        return 0
    sys.stdout.writelines(difflib.unified_diff(single.splitlines(True), merged.splitlines(True),
                                               "single run", "merged on Spark"))
    return 1


if __name__ == "__main__":
    sys.exit(main())
