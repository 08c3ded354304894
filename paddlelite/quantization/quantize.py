"""QAT and PTQ: quantize a model by a QuantConfig (its Linear/Conv2D/Stub layers swapped for quantized ones
holding quanters or observers, its configured leaves wrapped by observers), then `convert` it: each quanter
replaced by the LinearQuanterDequanter of its scales, weights stored quantized unless remain_weight."""
import abc
import copy

from ..distributed import fleet
from ..nn.quant.format import ConvertibleQuantedLayer, LinearQuanterDequanter
from .base_quanter import BaseQuanter


class Quantization(metaclass=abc.ABCMeta):
    def __init__(self, config):
        self._config = copy.deepcopy(config)

    @abc.abstractmethod
    def quantize(self, model, inplace=False):
        pass

    def convert(self, model, inplace=False, remain_weight=False):
        """The model for inference: quanters as LinearQuanterDequanters (those that never computed a scale are
        left as they are: Paddle fails on them)."""
        model = model if inplace else copy.deepcopy(model)
        replaced = {}
        for name, child in model.named_children():
            if isinstance(child, ConvertibleQuantedLayer):
                if child.converted:
                    continue
                quanter = getattr(child, "weight_quanter", False)
                if quanter is None or (quanter is not False and quanter.scales() is None):
                    continue
                child._convert(remain_weight=remain_weight)
            elif isinstance(child, BaseQuanter):
                if child.scales() is not None:
                    replaced[name] = LinearQuanterDequanter.from_quanter(child)
            else:
                self.convert(child, inplace=True, remain_weight=remain_weight)
        for name, layer in replaced.items():
            setattr(model, name, layer)
        return model

    def _convert_to_quant_layers(self, model, config):
        replaced = {}
        for name, child in model.named_children():
            if config._is_quantifiable(child) and type(child) in config.qat_layer_mappings:
                replaced[name] = config._get_qat_layer(child)
            else:
                self._convert_to_quant_layers(child, config)
        for name, layer in replaced.items():
            setattr(model, name, layer)

    def _insert_activation_observers(self, model, config):
        quantized_types = set(config.qat_layer_mappings.values())
        replaced = {}
        for name, child in model.named_children():
            if config._need_observe(child):
                replaced[name] = config._get_observe_wrapper(child)
            elif type(child) not in quantized_types:
                self._insert_activation_observers(child, config)
        for name, layer in replaced.items():
            setattr(model, name, layer)

    def _details(self):
        return self._config.details()

    def __str__(self):
        return self._details()

    def __repr__(self):
        return self.__str__()


class QAT(Quantization):
    """Quantization-aware training: quanters fake-quantize weights and activations while the model trains."""

    def quantize(self, model, inplace=False):
        assert model.training, ("Quantization-Aware Training should work on training models. Please set training "
                                "mode by model.train().")
        model = model if inplace else copy.deepcopy(model)
        self._config._specify(model)
        self._convert_to_quant_layers(model, self._config)
        self._insert_activation_observers(model, self._config)
        return model


class PTQ(Quantization):
    """Post-training quantization: observers record the ranges an evaluation-mode model sees on calibration data."""

    @staticmethod
    def _is_parallel_training():
        """More than 2 workers in an initialized fleet (Paddle's fleet.worker_num() raises before fleet.init, so a
        world size read from the environment alone does not count)."""
        return fleet._state["strategy"] is not None and fleet.worker_num() > 2

    def quantize(self, model, inplace=False):
        target = model
        if not inplace:
            assert not self._is_parallel_training(), "'inplace' is not compatible with parallel training."
            target = copy.deepcopy(model)
            target.eval()
        assert not model.training, ("Post-Training Quantization should not work on training models. Please set "
                                    "evaluation mode by model.eval().")
        self._config._specify(target)
        self._convert_to_quant_layers(target, self._config)
        self._insert_activation_observers(target, self._config)
        return target
