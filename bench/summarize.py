"""Turn a pytest-benchmark JSON file into the Markdown table committed under bench/results/.

    python -m pytest bench --benchmark-only --benchmark-json=out.json
    python bench/summarize.py out.json > bench/results/<date>-<machine>.md

Each group's rows are ratios to the group's peer (PyTorch when present), medians in the group's unit.
"""
import json
import os
import platform
import subprocess
import sys
from collections import defaultdict

PEER_ORDER = ("torch", "numpy")


def _peer(rows):
    for key in PEER_ORDER:
        for r in rows:
            if key in r["name"]:
                return r
    return min(rows, key=lambda r: r["stats"]["median"])


def _fmt(seconds):
    for unit, scale in (("s", 1), ("ms", 1e3), ("us", 1e6), ("ns", 1e9)):
        if seconds * scale >= 1:
            return f"{seconds * scale:.3g} {unit}"
    return f"{seconds * 1e9:.3g} ns"


def main(path):
    data = json.load(open(path))
    groups = defaultdict(list)
    for b in data["benchmarks"]:
        groups[b["group"] or b["fullname"].split("::")[0]].append(b)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    info = data["machine_info"]
    try:
        load = os.getloadavg()
    except OSError:
        load = None
    print(f"# Benchmarks {data['datetime'][:10]}\n")
    print(f"- commit: `{commit}`")
    print(f"- machine: {info.get('cpu', {}).get('brand_raw', platform.processor())}, "
          f"{info.get('cpu', {}).get('count', os.cpu_count())} cores, {info['system']} {info['release']}")
    print(f"- python {info['python_version']}; single-threaded BLAS (bench/conftest.py)")
    if load:
        print(f"- load average when summarised: {load[0]:.1f} (shared host: medians and ratios from the same run)")
    print()
    for group, rows in groups.items():
        peer = _peer(rows)
        print(f"## {group}\n")
        print(f"| benchmark | median | IQR | rounds | x {peer['name'].replace('test_', '')} |")
        print("|---|---|---|---|---|")
        for r in sorted(rows, key=lambda r: r["stats"]["median"]):
            s = r["stats"]
            print(f"| {r['name'].replace('test_', '')} | {_fmt(s['median'])} | {_fmt(s['iqr'])} | {s['rounds']} | "
                  f"{s['median'] / peer['stats']['median']:.2f} |")
        print()


if __name__ == "__main__":
    main(sys.argv[1])
