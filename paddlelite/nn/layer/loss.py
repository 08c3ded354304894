"""Loss layers: CrossEntropyLoss, MSELoss, L1Loss, NLLLoss, BCELoss, BCEWithLogitsLoss, SmoothL1Loss."""
from .. import functional as F
from .layers import Layer

__all__ = ["CrossEntropyLoss", "MSELoss", "L1Loss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "SmoothL1Loss", "KLDivLoss",
           "MarginRankingLoss", "HingeEmbeddingLoss", "SoftMarginLoss", "MultiLabelSoftMarginLoss", "PoissonNLLLoss",
           "GaussianNLLLoss", "CosineEmbeddingLoss", "TripletMarginLoss", "TripletMarginWithDistanceLoss",
           "MultiMarginLoss", "MultiLabelMarginLoss", "CTCLoss", "HSigmoidLoss"]

_REDUCTIONS = ("mean", "sum", "none")


def _check_reduction(api, reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{api}: reduction must be one of {_REDUCTIONS}, received {reduction!r}")
    return reduction


class CrossEntropyLoss(Layer):
    def __init__(self, weight=None, ignore_index=-100, reduction="mean", soft_label=False, axis=-1,
                 use_softmax=True, label_smoothing=0.0, name=None):
        super().__init__()
        self.weight = weight
        self.ignore_index = ignore_index
        self.reduction = _check_reduction("CrossEntropyLoss", reduction)
        self.soft_label = soft_label
        self.axis = axis
        self.use_softmax = use_softmax
        self.label_smoothing = label_smoothing

    def forward(self, input, label):
        kw = {}
        if self.label_smoothing:
            kw["label_smoothing"] = self.label_smoothing
        return F.cross_entropy(input, label, weight=self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, soft_label=self.soft_label, axis=self.axis,
                               use_softmax=self.use_softmax, **kw)


class _Reduced(Layer):
    _fn = None

    def __init__(self, reduction="mean", name=None):
        super().__init__()
        self.reduction = _check_reduction(type(self).__name__, reduction)

    def forward(self, input, label):
        return getattr(F, self._fn)(input, label, reduction=self.reduction)


class MSELoss(_Reduced):
    _fn = "mse_loss"


class L1Loss(_Reduced):
    _fn = "l1_loss"


class NLLLoss(Layer):
    def __init__(self, weight=None, ignore_index=-100, reduction="mean", name=None):
        super().__init__()
        self._weight, self._ignore_index = weight, ignore_index
        self._reduction = _check_reduction("NLLLoss", reduction)

    def forward(self, input, label):
        return F.nll_loss(input, label, weight=self._weight, ignore_index=self._ignore_index,
                          reduction=self._reduction)


class BCELoss(Layer):
    def __init__(self, weight=None, reduction="mean", name=None):
        super().__init__()
        self.weight = weight
        self.reduction = _check_reduction("BCELoss", reduction)

    def forward(self, input, label):
        return F.binary_cross_entropy(input, label, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(Layer):
    def __init__(self, weight=None, reduction="mean", pos_weight=None, name=None):
        super().__init__()
        self.weight, self.pos_weight = weight, pos_weight
        self.reduction = _check_reduction("BCEWithLogitsLoss", reduction)

    def forward(self, logit, label):
        return F.binary_cross_entropy_with_logits(logit, label, weight=self.weight, reduction=self.reduction,
                                                  pos_weight=self.pos_weight)


class SmoothL1Loss(Layer):
    def __init__(self, reduction="mean", delta=1.0, name=None):
        super().__init__()
        self.reduction = _check_reduction("SmoothL1Loss", reduction)
        self.delta = delta

    def forward(self, input, label):
        return F.smooth_l1_loss(input, label, reduction=self.reduction, delta=self.delta)


class KLDivLoss(Layer):
    def __init__(self, reduction="mean", log_target=False):
        super().__init__()
        self.reduction, self.log_target = reduction, log_target

    def forward(self, input, label):
        return F.kl_div(input, label, self.reduction, self.log_target)


class MarginRankingLoss(Layer):
    def __init__(self, margin=0.0, reduction="mean", name=None):
        super().__init__()
        self.margin, self.reduction = margin, _check_reduction("MarginRankingLoss", reduction)

    def forward(self, input, other, label):
        return F.margin_ranking_loss(input, other, label, self.margin, self.reduction)


class HingeEmbeddingLoss(Layer):
    def __init__(self, margin=1.0, reduction="mean", name=None):
        super().__init__()
        self.margin, self.reduction = margin, reduction

    def forward(self, input, label):
        return F.hinge_embedding_loss(input, label, self.margin, self.reduction)


class SoftMarginLoss(_Reduced):
    _fn = "soft_margin_loss"


class MultiLabelSoftMarginLoss(Layer):
    def __init__(self, weight=None, reduction="mean", name=None):
        super().__init__()
        self.weight, self.reduction = weight, _check_reduction("MultiLabelSoftMarginLoss", reduction)

    def forward(self, input, label):
        return F.multi_label_soft_margin_loss(input, label, self.weight, self.reduction)


class PoissonNLLLoss(Layer):
    def __init__(self, log_input=True, full=False, epsilon=1e-8, reduction="mean", name=None):
        super().__init__()
        if epsilon <= 0:
            raise ValueError(f"PoissonNLLLoss: epsilon must be positive, received {epsilon}")
        self._log_input, self._full, self._epsilon = log_input, full, epsilon
        self._reduction = _check_reduction("PoissonNLLLoss", reduction)

    def forward(self, input, label):
        return F.poisson_nll_loss(input, label, self._log_input, self._full, self._epsilon, self._reduction)


class GaussianNLLLoss(Layer):
    def __init__(self, full=False, epsilon=1e-6, reduction="mean", name=None):
        super().__init__()
        self.full, self.epsilon = full, epsilon
        self.reduction = _check_reduction("GaussianNLLLoss", reduction)

    def forward(self, input, label, variance):
        return F.gaussian_nll_loss(input, label, variance, self.full, self.epsilon, self.reduction)


class CosineEmbeddingLoss(Layer):
    def __init__(self, margin=0, reduction="mean", name=None):
        super().__init__()
        if margin > 1 or margin < -1:
            raise ValueError(f"CosineEmbeddingLoss: margin must be in [-1, 1], received {margin}")
        self.margin, self.reduction = margin, _check_reduction("CosineEmbeddingLoss", reduction)

    def forward(self, input1, input2, label):
        return F.cosine_embedding_loss(input1, input2, label, self.margin, self.reduction)


class TripletMarginLoss(Layer):
    def __init__(self, margin=1.0, p=2.0, epsilon=1e-6, swap=False, reduction="mean", name=None):
        super().__init__()
        self.margin, self.p, self.epsilon, self.swap = margin, p, epsilon, swap
        self.reduction = _check_reduction("TripletMarginLoss", reduction)

    def forward(self, input, positive, negative):
        return F.triplet_margin_loss(input, positive, negative, self.margin, self.p, self.epsilon, self.swap,
                                     self.reduction)


class TripletMarginWithDistanceLoss(Layer):
    def __init__(self, distance_function=None, margin=1.0, swap=False, reduction="mean", name=None):
        super().__init__()
        self.distance_function, self.margin, self.swap = distance_function, margin, swap
        self.reduction = _check_reduction("TripletMarginWithDistanceLoss", reduction)

    def forward(self, input, positive, negative):
        return F.triplet_margin_with_distance_loss(input, positive, negative, self.distance_function, self.margin,
                                                   self.swap, self.reduction)


class MultiMarginLoss(Layer):
    def __init__(self, p=1, margin=1.0, weight=None, reduction="mean", name=None):
        super().__init__()
        self.p, self.margin, self.weight = p, margin, weight
        self.reduction = _check_reduction("MultiMarginLoss", reduction)

    def forward(self, input, label):
        return F.multi_margin_loss(input, label, self.p, self.margin, self.weight, self.reduction)


class MultiLabelMarginLoss(_Reduced):
    _fn = "multi_label_margin_loss"


class CTCLoss(Layer):
    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__()
        self.blank, self.reduction, self.zero_infinity = blank, _check_reduction("CTCLoss", reduction), zero_infinity

    def forward(self, log_probs, labels, input_lengths, label_lengths, norm_by_times=False):
        return F.ctc_loss(log_probs, labels, input_lengths, label_lengths, self.blank, self.reduction, norm_by_times,
                          self.zero_infinity)


class HSigmoidLoss(Layer):
    """F.hsigmoid_loss with its own weight [C, feature_size] and bias [C, 1] (C = num_classes - 1, or num_classes
    for a custom tree)."""

    def __init__(self, feature_size, num_classes, weight_attr=None, bias_attr=None, is_custom=False, is_sparse=False,
                 name=None):
        super().__init__()
        if num_classes < 2 and not is_custom:
            raise ValueError("HSigmoidLoss: num_classes must not be less than 2 with default tree, "
                             f"received {num_classes}")
        self._num_classes, self._is_sparse = num_classes, bool(is_sparse and is_custom)
        rows = num_classes if is_custom else num_classes - 1
        self.weight = self.create_parameter([rows, feature_size], attr=weight_attr)
        self.bias = self.create_parameter([rows, 1], attr=bias_attr, is_bias=True)

    def forward(self, input, label, path_table=None, path_code=None):
        return F.hsigmoid_loss(input, label, self._num_classes, self.weight, self.bias, path_table, path_code,
                               self._is_sparse)
