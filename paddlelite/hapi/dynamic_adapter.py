"""paddle.Model's batch steps and persistence in dynamic graph mode: the network runs eagerly on each batch."""
import os

from ..framework import user_warnings as _user_warnings
from .. import tensor as T
from ..amp import GradScaler, auto_cast
from ..autograd import no_grad
from ..framework.io import save as _save
from ..framework.tensor import Tensor
from ..jit import save as _jit_save
from ..static import InputSpec
from .batch import batch_result, to_list, to_numpy, update_metrics


class DynamicGraphAdapter:
    def __init__(self, model):
        self.model = model
        self._scaler = None
        self._seen_input_specs = None  # the shapes of the last inputs, for an inference export without `inputs`

    def prepare(self):
        self._scaler = None

    def _forward(self, inputs):
        inputs = [T.to_tensor(x) if not isinstance(x, Tensor) else x for x in to_list(inputs)]
        self._seen_input_specs = [InputSpec(list(x.shape), x.dtype, spec.name)
                                  for x, spec in zip(inputs, self.model._inputs)]
        return self.model.network(*inputs)

    def _metrics(self, outputs, labels):
        model = self.model
        return update_metrics(model._metrics, [metric.compute(*(to_list(outputs) + labels))
                                               for metric in model._metrics])

    def train_batch(self, inputs, labels=None, update=True):
        model = self.model
        model.network.train()
        labels = [T.to_tensor(label) for label in to_list(labels)]
        amp = model._amp_level != "O0"
        if amp and self._scaler is None:
            self._scaler = GradScaler(**model._amp_configs)
        lists = {k: v for k, v in model._amp_custom_lists.items() if k != "custom_black_varnames"}
        with auto_cast(enable=amp, level=model._amp_level, **lists):
            outputs = self._forward(inputs)
        losses = to_list(model._loss(*(to_list(outputs) + labels)))
        final_loss = T.add_n(losses)
        if amp:
            scaled = self._scaler.scale(final_loss)
            scaled.backward()
            if update:
                self._scaler.minimize(model._optimizer, scaled)
        else:
            final_loss.backward()
            if update:
                model._optimizer.minimize(final_loss)
        if update:
            model.network.clear_gradients()
        metrics = self._metrics(outputs, labels)
        return batch_result([to_numpy(loss) for loss in losses], metrics)

    @no_grad()
    def eval_batch(self, inputs, labels=None):
        model = self.model
        model.network.eval()
        labels = [T.to_tensor(label) for label in to_list(labels)]
        outputs = self._forward(inputs)
        losses = to_list(model._loss(*(to_list(outputs) + labels))) if model._loss else []
        metrics = self._metrics(outputs, labels)
        return batch_result([to_numpy(loss) for loss in losses], metrics)

    @no_grad()
    def predict_batch(self, inputs):
        self.model.network.eval()
        return [to_numpy(o) for o in to_list(self._forward(inputs))]

    def save(self, path):
        model = self.model
        dirname = os.path.dirname(path)
        if dirname:
            os.makedirs(dirname, exist_ok=True)
        _save(model.network.state_dict(), path + ".pdparams")
        if model._optimizer is not None and model._optimizer.state_dict():
            _save(model._optimizer.state_dict(), path + ".pdopt")

    def load(self, optim_state):
        """The parameters are already set; restore the optimizer's state."""
        if self.model._optimizer is not None and optim_state is not None:
            self.model._optimizer.set_state_dict(optim_state)

    def save_inference_model(self, path):
        """paddle.jit.save for the `inputs` specs, or for the shapes of the last inputs run."""
        model = self.model
        specs = model._inputs if model._inputs_given else self._seen_input_specs
        if specs is None:
            raise RuntimeError("Saving inference model needs 'inputs' or running before saving. Please specify "
                               "'inputs' in Model initialization or input training data and perform a training "
                               "for shape derivation.")
        if not model._inputs_given:
            _user_warnings.warn("'inputs' was not specified when Model initialization, so the input shape to be saved "
                                f"will be the shape derived from the user's actual inputs. The input shape to be saved "
                                f"is {[s.shape for s in specs]}. For saving correct input shapes, please provide "
                                "'inputs' for Model initialization.")
        _jit_save(model.network, path, input_spec=specs)
