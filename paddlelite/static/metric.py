"""paddle.static.auc and paddle.static.ctr_metric_bundle: streaming metrics whose running statistics are
persistable variables of the program (zeroed by the startup program, updated by every run)."""
from .. import tensor as paddle
from .framework import Variable, default_main_program, program_unique_name, require_static
from .layer_apis import create_global_var


def _check(x, arg, dtypes, api):
    if not isinstance(x, Variable):
        raise TypeError(f"The type of '{arg}' in {api} must be Variable, but received {type(x)}. ")
    if x.dtype.name not in dtypes:
        raise TypeError(f"The data type of '{arg}' in {api} must be {list(dtypes)}, but received {x.dtype.name}. ")


def _zeros(shape, dtype):
    return create_global_var(shape, 0, dtype, persistable=True)


def auc(input, label, curve="ROC", num_thresholds=2 ** 12 - 1, topk=1, slide_steps=1, ins_tag_weight=None):
    """(global auc, batch auc over the last slide_steps batches, [batch_stat_pos, batch_stat_neg, stat_pos,
    stat_neg]): Paddle's two auc ops over bucketed counts of input[:, -1] (the positive probability)."""
    require_static("paddle.static.auc")
    _check(input, "input", ("float32", "float64"), "auc")
    _check(label, "label", ("int32", "int64"), "auc")
    if ins_tag_weight is not None:
        _check(ins_tag_weight, "ins_tag_weight", ("float32", "float64"), "auc")
    buckets = num_thresholds + 1
    window = [(1 + slide_steps) * buckets + 1] if slide_steps else [1, buckets]  # Paddle's op reshapes it so
    batch_pos = _zeros(window, "int64")
    batch_neg = _zeros(window, "int64")
    stat_pos = _zeros([1, buckets], "int64")
    stat_neg = _zeros([1, buckets], "int64")
    block = default_main_program().current_block()
    key = program_unique_name("auc")
    outs = []
    for pos, neg, steps in ((batch_pos, batch_neg, slide_steps), (stat_pos, stat_neg, 0)):
        out = block.create_var(name=program_unique_name(f"{key}.tmp"), shape=[],
                               dtype="float64", stop_gradient=True)
        block.append_op("auc", inputs={"Predict": [input], "Label": [label], "StatPos": [pos], "StatNeg": [neg]},
                        outputs={"AUC": [out], "StatPosOut": [pos], "StatNegOut": [neg]},
                        attrs={"curve": curve, "num_thresholds": num_thresholds, "slide_steps": steps})
        outs.append(out)
    return outs[1], outs[0], [batch_pos, batch_neg, stat_pos, stat_neg]


def ctr_metric_bundle(input, label, ins_tag_weight=None):
    """Running CTR statistics (squared error, absolute error, sum of predictions, sum of their sigmoids, positive
    count, instance count), as Paddle's ctr_metric_bundle accumulates them each run."""
    require_static("paddle.static.ctr_metric_bundle")
    if list(input.shape) != list(label.shape):  # AssertionError as Paddle
        raise AssertionError(f"ctr_metric_bundle: input and label must have the same shape, received "
                             f"{list(input.shape)} and {list(label.shape)}")
    weight = paddle.full([1, 1], 1.0, "float32") if ins_tag_weight is None else ins_tag_weight
    weight = paddle.slice(weight, [0], [0], [1])  # the first row, [1, 1]: the weighted sums take its shape
    sqrerr, abserr, prob, q, pos_num, ins_num = (_zeros([1], "float32") for _ in range(6))
    diff = paddle.subtract(input, label)

    def total(x):
        return paddle.reshape(paddle.sum(x), [1])
    updates = ((sqrerr, total(paddle.square(diff))), (abserr, total(paddle.abs(diff))), (prob, total(input)),
               (pos_num, total(label)), (ins_num, paddle.multiply(total(paddle.ones_like(label)), weight)),
               (q, paddle.multiply(total(_sigmoid(input)), weight)))
    for acc, batch in updates:
        paddle.assign(paddle.add(batch, acc), output=acc)
    return sqrerr, abserr, prob, q, pos_num, ins_num


def _sigmoid(x):
    from ..nn import functional
    return functional.sigmoid(x)
