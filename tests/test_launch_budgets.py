"""Launch budgets: what one training step of each benchmark model (tests/step_models.py) would enqueue on a GPU,
counted on the CPU by paddlelite.device.count_launches, per op and kind of work -- pinned in launch_budgets.json
for eager mode, the static Executor and to_static. A change that adds a kernel, a copy, an allocation or a host
sync to a step fails here naming the op (or the function, for work outside ops) and the kind, the way
test_grad_op_counts.py pins the grad ops backward runs. A change that removes work fails too: the budget is
lowered with it, by regenerating the file -- `python -m tests.test_launch_budgets` -- and reviewing its diff.

The steps run on smaller batches than the benchmarks' (Spec.batch(small=True)), chosen so that every count is the
benchmark's: grids are sized for an H100/H200 and the multi-pass reductions split the same way.
"""
import json
import os

import pytest

import paddlelite as paddle
from paddlelite.device.launch_count import count_launches
from tests.step_models import MODELS, MODES, train_step

BUDGETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "launch_budgets.json")
WARM_UP = 1  # steps before the counted one: the first creates optimizer state, traces to_static, compiles plans


def step_counts(name, mode):
    """{label: {kind: n}} of one steady training step of model `name` in `mode`."""
    with count_launches() as counter:
        step = train_step(paddle, name, mode, small=True)
        for _ in range(WARM_UP):
            step()
        counter.reset()
        step()
    return counter.by_label


def _differences(got, want):
    lines = []
    for label in sorted(set(got) | set(want)):
        g, w = got.get(label, {}), want.get(label, {})
        for kind in sorted(set(g) | set(w)):
            if g.get(kind, 0) != w.get(kind, 0):
                lines.append(f"  {label}: {kind} {w.get(kind, 0)} -> {g.get(kind, 0)}")
    return lines


def _load():
    with open(BUDGETS) as f:
        return json.load(f)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(MODELS))
def test_step_stays_within_its_launch_budget(name, mode):
    want = _load()[name][mode]
    diff = _differences(step_counts(name, mode), want)
    assert not diff, (f"{name} {mode}: one training step's device work changed (budget -> now); if intended, "
                      "regenerate tests/launch_budgets.json with `python -m tests.test_launch_budgets`:\n"
                      + "\n".join(diff))


# where a step's host reads device values because its caller asks for one: the Executor's fetch of the loss
# (return_numpy), and the value checks kept on the device until then (device/deferred_checks.py)
ASKED_FOR = {"static": {"paddlelite.device.cuda.as_module", "paddlelite.device.deferred_checks.raise_pending"}}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(MODELS))
def test_step_waits_for_the_device_only_where_asked(name, mode):
    """No host sync inside a training step: only the value the caller asks for (the pinned budgets are the
    counts, test_step_stays_within_its_launch_budget checks them)."""
    syncs = {label: c["sync"] for label, c in _load()[name][mode].items() if c.get("sync")}
    assert set(syncs) <= ASKED_FOR.get(mode, set()), syncs


def write_budgets(path=BUDGETS):
    """Count every model in every mode and write the budgets file (one line per op)."""
    lines = ["{"]
    for i, name in enumerate(sorted(MODELS)):
        lines.append(f' "{name}": {{')
        for j, mode in enumerate(MODES):
            counts = step_counts(name, mode)
            lines.append(f'  "{mode}": {{')
            rows = [f'   "{label}": {json.dumps(dict(sorted(c.items())))}' for label, c in sorted(counts.items())]
            lines.append(",\n".join(rows))
            lines.append("  }" + ("," if j < len(MODES) - 1 else ""))
        lines.append(" }" + ("," if i < len(MODELS) - 1 else ""))
    lines.append("}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    write_budgets()
