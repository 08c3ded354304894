"""Gradient cases for the graph ops (ops/geometric.py): segment pooling and message passing, every reduction; a
destination no edge reaches and repeated edges included. Distinct values keep MAX/MIN away from ties."""
import numpy as np

from . import OpCase, distinct, positive, rand

_IDS = np.array([0, 0, 1, 3, 3, 3], dtype=np.int64)
_SRC = np.array([0, 1, 2, 0, 3, 3], dtype=np.int32)
_DST = np.array([1, 2, 1, 0, 0, 2], dtype=np.int32)

CASES = [
    *[OpCase("segment_pool", {"X": distinct(6, 2, 3, seed=i), "SegmentIds": _IDS}, {"pooltype": p},
             id=f"segment_pool-{p.lower()}") for i, p in enumerate(("SUM", "MEAN", "MAX", "MIN"))],
    *[OpCase("send_u_recv", {"X": distinct(4, 3, seed=10 + i), "Src_index": _SRC, "Dst_index": _DST},
             {"reduce_op": r, "out_size": [5]}, id=f"send_u_recv-{r.lower()}")
      for i, r in enumerate(("SUM", "MEAN", "MAX", "MIN"))],
    *[OpCase("send_ue_recv", {"X": distinct(4, 2, 3, seed=20 + i), "Y": positive(6, 1, 3, seed=30 + i),
                              "Src_index": _SRC, "Dst_index": _DST},
             {"message_op": m, "reduce_op": r}, id=f"send_ue_recv-{m.lower()}-{r.lower()}")
      for i, (m, r) in enumerate((("ADD", "SUM"), ("MUL", "MEAN"), ("ADD", "MAX"), ("MUL", "MIN")))],
    *[OpCase("send_uv", {"x": rand(4, 3, seed=40 + i), "y": rand(4, 1, seed=50 + i), "src_index": _SRC,
                         "dst_index": _DST}, {"message_op": m}, id=f"send_uv-{m.lower()}")
      for i, m in enumerate(("ADD", "MUL"))],
]
