"""Loss layers: CrossEntropyLoss, MSELoss, L1Loss, NLLLoss, BCELoss, BCEWithLogitsLoss, SmoothL1Loss."""
from ... import tensor as T
from .. import functional as F
from ..functional.loss import adaptive_log_softmax_tail
from .layers import Layer

__all__ = ["CrossEntropyLoss", "MSELoss", "L1Loss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "SmoothL1Loss", "KLDivLoss",
           "MarginRankingLoss", "HingeEmbeddingLoss", "SoftMarginLoss", "MultiLabelSoftMarginLoss", "PoissonNLLLoss",
           "GaussianNLLLoss", "CosineEmbeddingLoss", "TripletMarginLoss", "TripletMarginWithDistanceLoss",
           "MultiMarginLoss", "MultiLabelMarginLoss", "CTCLoss", "HSigmoidLoss",
           "AdaptiveLogSoftmaxWithLoss", "RNNTLoss"]

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
    def __init__(self, reduction="mean", delta=1.0, is_huber=True, name=None):
        super().__init__()
        self.reduction = _check_reduction("SmoothL1Loss", reduction)
        self.delta = delta
        self.is_huber = is_huber

    def forward(self, input, label):
        return F.smooth_l1_loss(input, label, reduction=self.reduction, delta=self.delta, is_huber=self.is_huber)


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
        super().__init__(dtype=None)  # the parameters take the default dtype, as in Paddle
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


class AdaptiveLogSoftmaxWithLoss(Layer):
    """Adaptive softmax (Grave et al.): a head over the shortlist and one entry per tail cluster; cluster i
    projects to in_features // div_value ** (i + 1) features, then to its cutoffs[i + 1] - cutoffs[i] classes."""

    def __init__(self, in_features, n_classes, cutoffs, weight_attr=None, bias_attr=None, div_value=4.0,
                 head_bias=False, name=None):
        super().__init__(dtype=None)  # the parameters take the default dtype, as in Paddle
        cutoffs = list(cutoffs)
        if (cutoffs != sorted(cutoffs) or min(cutoffs) <= 0 or max(cutoffs) > n_classes - 1
                or len(set(cutoffs)) != len(cutoffs) or any(int(c) != c for c in cutoffs)):
            raise ValueError("AdaptiveLogSoftmaxWithLoss: cutoffs should be a sequence of unique, positive integers "
                             f"sorted in an increasing order, each between 1 and n_classes-1, received {cutoffs}")
        self.in_features, self.n_classes, self.div_value = in_features, n_classes, div_value
        self.cutoffs = [*cutoffs, n_classes]
        self.is_head_bias = head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.head_weight = self.create_parameter([in_features, self.head_size], attr=weight_attr)
        self.head_bias = (self.create_parameter([self.head_size], attr=bias_attr, is_bias=True) if head_bias
                          else None)
        self.tail_weights = []
        for i in range(self.n_clusters):
            hsz = int(in_features // (div_value ** (i + 1)))
            osz = self.cutoffs[i + 1] - self.cutoffs[i]
            self.tail_weights.append([self.create_parameter([in_features, hsz], attr=weight_attr),
                                      self.create_parameter([hsz, osz], attr=weight_attr)])

    def forward(self, input, label):
        return F.adaptive_log_softmax_with_loss(input, label, self.head_weight, self.tail_weights, self.cutoffs,
                                                self.head_bias)

    def _full_log_prob(self, input, head_output):
        head_logprob = F.log_softmax(head_output, axis=1)
        parts = [head_logprob[:, :self.shortlist_size]]
        for i, projection in enumerate(self.tail_weights):
            parts.append(adaptive_log_softmax_tail(input, projection)
                         + T.unsqueeze(head_logprob[:, self.shortlist_size + i], 1))
        return T.concat(parts, axis=1)

    def log_prob(self, input):
        """[N, n_classes] log-probabilities of every class."""
        return self._full_log_prob(input, F.linear(input, self.head_weight, self.head_bias))

    def predict(self, input):
        """The most likely class of each row; float32 as in Paddle, except int64 when no row's head argmax
        lies in the shortlist (Paddle then returns the full argmax as is)."""
        head_output = F.linear(input, self.head_weight, self.head_bias)
        output = T.cast(T.argmax(head_output, axis=1), "float32")
        not_in_shortlist = output >= self.shortlist_size
        if not bool(not_in_shortlist.any()):
            return output
        full = T.argmax(self._full_log_prob(input, head_output), axis=1)
        if bool(not_in_shortlist.all()):
            return full
        return T.where(not_in_shortlist, T.cast(full, "float32"), output)


class RNNTLoss(Layer):
    def __init__(self, blank=0, fastemit_lambda=0.001, reduction="mean", name=None):
        super().__init__()
        self.blank, self.fastemit_lambda = blank, fastemit_lambda
        self.reduction = _check_reduction("RNNTLoss", reduction)

    def forward(self, input, label, input_lengths, label_lengths):
        return F.rnnt_loss(input, label, input_lengths, label_lengths, self.blank, self.fastemit_lambda,
                           self.reduction)
