"""DataParallel's gradient buckets: Paddle's reducer grouping (core.eager_assign_group_by_size), which
paddle.DataParallel's buckets also use (distributed/parallel.py)."""
from tests.differential import differential

SHAPES = [("float32", [2, 50]), ("float64", [1, 25]), ("float32", [2, 50]), ("float64", [1, 25]),
          ("float32", [1, 50]), ("float64", [1, 25]), ("int64", [3]), ("float32", [1, 10])]


@differential(expected={
    "one_limit": [[0], [1, 3], [2], [4, 7], [5], [6]],
    "two_limits": [[0], [1], [2, 4, 7], [3, 5], [6]],
    "zero_limit": [[0], [1], [2], [3], [4], [5], [6], [7]],
    "sparse": [[0], [1, 3], [2], [4, 7], [5], [6]],
    "indices": [[7], [2], [3], [1, 5], [0], [6, 4]],
})
def test_assign_group_by_size(paddle):
    core = paddle.base.core
    tensors = [paddle.zeros(shape, dtype) for dtype, shape in SHAPES]
    dense = [False] * len(tensors)
    return {"one_limit": core.eager_assign_group_by_size(tensors, dense, [400]),
            "two_limits": core.eager_assign_group_by_size(tensors, dense, [200, 800]),
            "zero_limit": core.eager_assign_group_by_size(tensors, dense, [0]),
            "sparse": core.eager_assign_group_by_size(tensors, [True] + [False] * 7, [400]),
            "indices": core.eager_assign_group_by_size(tensors, [False, False, False, True] + [False] * 4, [300],
                                                       [7, 1, 2, 3, 6, 5, 0, 4])}
