"""nn.Layer: the base class of every layer, in both modes.

Parameters, sublayers and buffers assigned as attributes are registered in ordered dicts (and kept
in the instance dict too, so reading `self.weight` costs a plain attribute lookup). In static mode
the same code creates static Parameters (see param_attr.create_parameter) and `forward` appends ops.
"""
from __future__ import annotations

import collections
import contextlib
import re
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from ...framework import user_warnings as _user_warnings
from ...device import place as _place_mod
from ...framework import dtype as _dtype
from ...framework.mode import in_static_mode
from ...framework.mode import in_to_static_mode as in_declarative_mode  # noqa: F401  (Paddle's name here)
from ...framework.tensor import Tensor
from ...utils import unique_name
from .param_attr import ParamAttr, create_parameter, is_parameter

if TYPE_CHECKING:
    from typing_extensions import Self

    from ..._typing import DTypeLike, PlaceLike
    from ...framework.tensor import Parameter

_LayerT = TypeVar("_LayerT", bound="Layer")

__all__ = ["Layer", "HookRemoveHelper"]


def _camel_to_snake(name):
    s1 = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", s1).lower()


# fleet's model-parallel layers name their parameters as the layers they split (Paddle's _scope_dist2single), so a
# checkpoint reads the same with and without model parallelism
_SINGLE_SCOPE = {"row_parallel_linear": "linear", "column_parallel_linear": "linear",
                 "vocab_parallel_embedding": "embedding"}


class HookRemoveHelper:
    """Returned by register_forward_*_hook; `remove()` unregisters the hook (True once, then False) and
    forgets its flags (`flag_sets`: the layer's with_kwargs / always_call id sets)."""

    _next_id = [0]

    def __init__(self, hooks, *flag_sets):
        self._hooks, self._flag_sets = hooks, flag_sets
        HookRemoveHelper._next_id[0] += 1
        self._hook_id = HookRemoveHelper._next_id[0]

    def remove(self):
        for flags in self._flag_sets:
            flags.discard(self._hook_id)
        return self._hooks.pop(self._hook_id, None) is not None


def _is_tensor(value):
    return isinstance(value, Tensor) or getattr(value, "_is_variable", False)


class Layer:
    """Base class: subclasses create parameters/sublayers in __init__ and compute in forward()."""

    training = True

    def __init__(self, name_scope: str | None = None, dtype: DTypeLike = "float32") -> None:
        d = self.__dict__
        d["training"] = True
        if name_scope is None:
            name_scope = _camel_to_snake(type(self).__name__)
            name_scope = _SINGLE_SCOPE.get(name_scope, name_scope)
        d["_full_name"] = unique_name.generate(name_scope)
        d["_dtype"] = _dtype.convert_dtype(dtype if dtype is not None else _dtype.get_default_dtype()).name
        d["_parameters"] = collections.OrderedDict()
        d["_sub_layers"] = collections.OrderedDict()
        d["_buffers"] = collections.OrderedDict()
        d["_non_persistable_buffer_names_set"] = set()
        d["_forward_pre_hooks"] = collections.OrderedDict()
        d["_forward_post_hooks"] = collections.OrderedDict()
        d["_hooks_with_kwargs"] = set()  # ids of hooks registered with_kwargs=True
        d["_hooks_always_called"] = set()  # ids of post hooks registered always_call=True
        d["_casted_by_pure_fp16"] = False
        d["_cast_to_low_precision"] = True  # False: paddle.amp.decorate(level='O2') keeps this layer float32
        d["_state_dict_hooks"] = collections.OrderedDict()

    # ---- calling --------------------------------------------------------------------------------
    def __call__(self, *inputs: Any, **kwargs: Any) -> Any:
        if not (self._forward_pre_hooks or self._forward_post_hooks):
            return self.forward(*inputs, **kwargs)
        for hook_id, hook in list(self._forward_pre_hooks.items()):
            if hook_id in self._hooks_with_kwargs:
                result = hook(self, inputs, kwargs)
                if result is not None:
                    if not (isinstance(result, tuple) and len(result) == 2):
                        raise RuntimeError(f"{type(self).__name__}: a forward pre-hook registered with_kwargs=True "
                                           f"must return None or (args, kwargs), returned {result!r}")
                    inputs, kwargs = result
            else:
                result = hook(self, inputs)
                if result is not None:
                    inputs = result if isinstance(result, tuple) else (result,)
        outputs, called = None, set()
        try:
            outputs = self.forward(*inputs, **kwargs)
            for hook_id, hook in list(self._forward_post_hooks.items()):
                called.add(hook_id)
                outputs = self._run_post_hook(hook_id, hook, inputs, kwargs, outputs)
        except Exception:
            # always_call hooks still run (once) when forward or an earlier hook failed; their own errors
            # are only warned about, so the original error is the one raised
            for hook_id, hook in list(self._forward_post_hooks.items()):
                if hook_id in self._hooks_always_called and hook_id not in called:
                    try:
                        outputs = self._run_post_hook(hook_id, hook, inputs, kwargs, outputs)
                    except Exception as e:
                        _user_warnings.warn(f"{type(self).__name__}: a forward hook with always_call=True raised "
                                            f"{type(e).__name__}: {e} while another error was propagating from forward")
            raise
        return outputs

    def _run_post_hook(self, hook_id, hook, inputs, kwargs, outputs):
        result = hook(self, inputs, kwargs, outputs) if hook_id in self._hooks_with_kwargs else \
            hook(self, inputs, outputs)
        return outputs if result is None else result

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        raise TypeError(f"{type(self).__name__}: a Layer subclass must define forward()")

    def _add_hook(self, hooks, hook, api, prepend, with_kwargs, always_call=False):
        if not callable(hook):
            raise TypeError(f"{api}: hook must be callable, received {type(hook).__name__}")
        handle = HookRemoveHelper(hooks, self._hooks_with_kwargs, self._hooks_always_called)
        hooks[handle._hook_id] = hook
        if with_kwargs:
            self._hooks_with_kwargs.add(handle._hook_id)
        if always_call:
            self._hooks_always_called.add(handle._hook_id)
        if prepend:
            hooks.move_to_end(handle._hook_id, last=False)
        return handle

    def register_forward_pre_hook(self, hook: Callable[..., Any], *, prepend: bool = False,
                                  with_kwargs: bool = False) -> HookRemoveHelper:
        """hook(layer, inputs) -> None or new inputs, before forward; with_kwargs=True: hook(layer, inputs,
        kwargs) -> None or (inputs, kwargs). prepend=True runs it first. Returns a removable handle."""
        return self._add_hook(self._forward_pre_hooks, hook, "register_forward_pre_hook", prepend, with_kwargs)

    def register_forward_post_hook(self, hook: Callable[..., Any], *, prepend: bool = False, with_kwargs: bool = False,
                                   always_call: bool = False) -> HookRemoveHelper:
        """hook(layer, inputs, outputs) -> None or new outputs, after forward (with_kwargs=True:
        hook(layer, inputs, kwargs, outputs)); always_call=True runs it even when forward raised."""
        return self._add_hook(self._forward_post_hooks, hook, "register_forward_post_hook", prepend, with_kwargs,
                              always_call)

    register_forward_hook = register_forward_post_hook

    def register_state_dict_hook(self, hook):
        """hook(state_dict) -> None or a new state_dict, run on what state_dict() returns (use_hook=True)."""
        return self._add_hook(self._state_dict_hooks, hook, "register_state_dict_hook", False, False)

    # ---- names ----------------------------------------------------------------------------------
    def full_name(self) -> str:
        return self._full_name

    # ---- parameters -----------------------------------------------------------------------------
    def create_parameter(self, shape: Sequence[int], attr: Any = None, dtype: DTypeLike | None = None,
                         is_bias: bool = False, default_initializer: Any = None, device: Any = None) -> Parameter:
        """A parameter named '<full_name>.w_<n>' (or '.b_<n>' for biases) unless attr names it, made on `device`
        (eager; the current place when None)."""
        attr = ParamAttr._to_attr(attr)
        if attr is False:
            return None
        on_device = device is not None and not in_static_mode()
        with (_place_mod.device_guard(_place_mod.device_to_place(device, "create_parameter")) if on_device
              else contextlib.nullcontext()):
            return create_parameter(list(shape), dtype or self._dtype, attr=attr, is_bias=is_bias,
                                    default_initializer=default_initializer,
                                    _name_key=self._full_name + (".b" if is_bias else ".w"))

    def create_variable(self, name=None, persistable=None, dtype=None):
        return self.create_tensor(name, persistable, dtype)

    def create_tensor(self, name=None, persistable=None, dtype=None):
        dtype = dtype or self._dtype
        if in_static_mode():
            from ... import static
            return static.default_main_program().current_block().create_var(
                name=name or unique_name.generate(self._full_name + ".tmp"), dtype=dtype,
                persistable=bool(persistable))
        t = Tensor(np.zeros((0,), dtype=_dtype.convert_dtype(dtype).np))
        t.name = name or unique_name.generate(self._full_name + ".tmp")
        t.persistable = bool(persistable)
        return t

    def add_parameter(self, name: str, parameter: Parameter | None) -> Parameter | None:
        if "_parameters" not in self.__dict__:
            raise RuntimeError("add_parameter: call super().__init__() in the layer's __init__ first")
        if not isinstance(name, str) or not name or "." in name:
            raise KeyError(f"add_parameter: name must be a non-empty str without '.', received {name!r}")
        if parameter is not None and not is_parameter(parameter):
            raise TypeError(f"add_parameter: parameter must be a Parameter or None, received "
                            f"{type(parameter).__name__}")
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"add_parameter: attribute '{name}' already exists")
        self._parameters[name] = parameter
        object.__setattr__(self, name, parameter)
        return parameter

    def parameters(self, include_sublayers: bool = True) -> list[Parameter]:
        return [p for _, p in self.named_parameters(include_sublayers=include_sublayers)]

    def named_parameters(self, prefix: str = "", include_sublayers: bool = True,
                         remove_duplicate: bool = True) -> Iterator[tuple[str, Parameter]]:
        return self._named_members("_parameters", prefix, include_sublayers, remove_duplicate)

    def _startup_program(self):
        """A startup program of the ops that initialise this layer's parameters (all created inside a
        paddle.LazyGuard; AssertionError otherwise, as Paddle's)."""
        from ...static import Program, program_guard
        main, startup = Program(), Program()
        with program_guard(main, startup):
            for param in self.parameters():
                param._create_init_op(startup.global_block())
        return startup

    def _named_members(self, table, prefix, include_sublayers, remove_duplicate=True):
        """(dotted name, tensor) for each tensor of the layers' `table` dict, shared ones once unless not
        `remove_duplicate`, None skipped."""
        seen = set()
        layers = self.named_sublayers(prefix=prefix, include_self=True, remove_duplicate=remove_duplicate) \
            if include_sublayers else [(prefix, self)]
        for lprefix, layer in layers:
            for name, t in getattr(layer, table).items():
                if t is None or id(t) in seen:
                    continue
                if remove_duplicate:
                    seen.add(id(t))
                yield (lprefix + "." + name if lprefix else name), t

    # ---- sublayers ------------------------------------------------------------------------------
    def add_sublayer(self, name: str, sublayer: _LayerT) -> _LayerT:
        if not isinstance(name, str):
            raise TypeError(f"add_sublayer: name must be a str, received {type(name).__name__}")
        if sublayer is not None and not isinstance(sublayer, Layer):  # AssertionError as Paddle
            raise AssertionError(f"add_sublayer: sublayer must be a Layer, received {type(sublayer).__name__}")
        self._sub_layers[name] = sublayer
        object.__setattr__(self, name, sublayer)
        return sublayer

    def named_sublayers(self, prefix: str = "", include_self: bool = False, layers_set: set[Layer] | None = None,
                        remove_duplicate: bool = True) -> Iterator[tuple[str, Layer]]:
        """(name, layer) for every sublayer, depth first, each layer once (under every name it has when not
        `remove_duplicate`)."""
        if layers_set is None:
            layers_set = set()
        if include_self and id(self) not in layers_set:
            if remove_duplicate:
                layers_set.add(id(self))
            yield prefix, self
        for key, layer in self._sub_layers.items():
            if layer is not None:
                yield from layer.named_sublayers(prefix=prefix + ("." if prefix else "") + key, include_self=True,
                                                 layers_set=layers_set, remove_duplicate=remove_duplicate)

    def sublayers(self, include_self: bool = False) -> list[Layer]:
        return [l for _, l in self.named_sublayers(include_self=include_self)]

    def named_children(self) -> Iterator[tuple[str, Layer]]:
        seen = set()
        for name, layer in self._sub_layers.items():
            if layer is not None and id(layer) not in seen:
                seen.add(id(layer))
                yield name, layer

    def children(self) -> list[Layer]:
        return [l for _, l in self.named_children()]

    def apply(self, fn: Callable[[Layer], None]) -> Self:
        for layer in self.children():
            layer.apply(fn)
        fn(self)
        return self

    # ---- buffers --------------------------------------------------------------------------------
    def register_buffer(self, name: str, tensor: Tensor | None, persistable: bool = True) -> None:
        """A non-trainable tensor that belongs to the layer (saved in state_dict when persistable)."""
        if "_buffers" not in self.__dict__:
            raise ValueError("register_buffer: call super().__init__() in the layer's __init__ first")
        if not isinstance(name, str):
            raise TypeError(f"register_buffer: name must be a str, received {type(name).__name__}")
        if "." in name or not name:
            raise KeyError(f"register_buffer: name must be a non-empty str without '.', received {name!r}")
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"register_buffer: attribute '{name}' already exists")
        if tensor is not None and not _is_tensor(tensor):
            raise TypeError(f"register_buffer: tensor must be a Tensor or None, received {type(tensor).__name__}")
        self._buffers[name] = tensor
        if persistable:
            self._non_persistable_buffer_names_set.discard(name)
        else:
            self._non_persistable_buffer_names_set.add(name)
        if tensor is not None and getattr(tensor, "name", None) is None:
            tensor.name = unique_name.generate(self._full_name + "." + name)
        object.__setattr__(self, name, tensor)

    def named_buffers(self, prefix: str = "", include_sublayers: bool = True,
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        return self._named_members("_buffers", prefix, include_sublayers, remove_duplicate)

    def buffers(self, include_sublayers: bool = True) -> list[Tensor]:
        return [b for _, b in self.named_buffers(include_sublayers=include_sublayers)]

    # ---- attribute plumbing ---------------------------------------------------------------------
    def __setattr__(self, name, value):
        d = self.__dict__
        params = d.get("_parameters")
        if is_parameter(value):
            if params is None:
                raise ValueError(f"{type(self).__name__}: call super().__init__() before assigning parameter "
                                 f"'{name}'")
            Layer._forget_member(self, name, keep="_parameters")
            params[name] = value
        elif isinstance(value, Layer):
            if params is None:
                raise ValueError(f"{type(self).__name__}: call super().__init__() before assigning sublayer "
                                 f"'{name}'")
            Layer._forget_member(self, name, keep="_sub_layers")
            d["_sub_layers"][name] = value
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"{type(self).__name__}: cannot assign {type(value).__name__} to parameter "
                                f"'{name}' (expected a Parameter or None)")
            params[name] = None
        elif params is not None and name in d["_sub_layers"]:
            if value is not None:
                raise TypeError(f"{type(self).__name__}: cannot assign {type(value).__name__} to sublayer "
                                f"'{name}' (expected a Layer or None)")
            d["_sub_layers"][name] = None
        elif isinstance(value, Tensor):  # as in Paddle: a Tensor attribute is a (non-persistable) buffer
            if params is None:
                raise ValueError(f"{type(self).__name__}: call super().__init__() before assigning tensor "
                                 f"'{name}'")
            if name not in d["_buffers"]:
                d["_non_persistable_buffer_names_set"].add(name)
            d["_buffers"][name] = value
        elif params is not None and name in d["_buffers"]:
            if value is not None and not _is_tensor(value):
                raise TypeError(f"{type(self).__name__}: cannot assign {type(value).__name__} to buffer "
                                f"'{name}' (expected a Tensor or None)")
            d["_buffers"][name] = value
        object.__setattr__(self, name, value)

    def _forget_member(self, name, keep=None):
        # called through the class: a sublayer may take any name (Paddle's SqueezeNet has one called `_drop`);
        # `keep`: the dict a new value of the same kind replaces the old in, keeping its place (as Paddle's)
        d = self.__dict__
        for key in ("_parameters", "_sub_layers", "_buffers"):
            if key != keep:
                d[key].pop(name, None)
        d["_non_persistable_buffer_names_set"].discard(name)

    def __delattr__(self, name):
        if "_parameters" in self.__dict__:
            Layer._forget_member(self, name)
        object.__delattr__(self, name)

    def __dir__(self):
        return sorted(set(super().__dir__()))

    # ---- modes ----------------------------------------------------------------------------------
    def train(self) -> Self:
        for layer in self.sublayers(include_self=True):
            layer.__dict__["training"] = True
        return self

    def eval(self) -> Self:
        for layer in self.sublayers(include_self=True):
            layer.__dict__["training"] = False
        return self

    # ---- state ----------------------------------------------------------------------------------
    def state_dict(self, destination: dict[str, Tensor] | None = None, include_sublayers: bool = True,
                   structured_name_prefix: str = "", use_hook: bool = True) -> dict[str, Tensor]:
        """OrderedDict of structured name -> parameter / persistable buffer (the objects themselves)."""
        return self._state_dict_impl(destination, include_sublayers, structured_name_prefix, use_hook=use_hook)

    def to_static_state_dict(self, destination: dict[str, Tensor] | None = None, include_sublayers: bool = True,
                             structured_name_prefix: str = "", use_hook: bool = True) -> dict[str, Tensor]:
        """state_dict with the non-persistable buffers too (what a traced program captures)."""
        return self._state_dict_impl(destination, include_sublayers, structured_name_prefix,
                                     include_non_persistable_buffer=True, use_hook=use_hook)

    def _state_dict_impl(self, destination=None, include_sublayers=True, structured_name_prefix="",
                         include_non_persistable_buffer=False, use_hook=True):
        """The one implementation of the state dicts; a subclass overriding state_dict (to rename or convert
        entries) leaves what set_state_dict matches against untouched, as in Paddle."""
        dest = collections.OrderedDict() if destination is None else destination
        layers = list(self.named_sublayers(prefix=structured_name_prefix.rstrip("."), include_self=True)) \
            if include_sublayers else [(structured_name_prefix.rstrip("."), self)]
        for lprefix, layer in layers:
            for name, p in layer._parameters.items():
                if p is not None:
                    dest[(lprefix + "." if lprefix else "") + name] = p
            for name, b in layer._buffers.items():
                if b is not None and (include_non_persistable_buffer
                                      or name not in layer._non_persistable_buffer_names_set):
                    dest[(lprefix + "." if lprefix else "") + name] = b
        if use_hook:
            for _, layer in layers:
                for hook in layer._state_dict_hooks.values():
                    result = hook(dest)
                    dest = dest if result is None else result
        return dest

    def set_state_dict(self, state_dict: dict[str, Any],
                       use_structured_name: bool = True) -> tuple[list[str], list[str]]:
        """Copy values into the parameters/buffers; returns (missing_keys, unexpected_keys).

        Values may be Tensors or NumPy arrays; a shape or dtype mismatch raises ValueError."""
        if not isinstance(state_dict, dict):
            raise TypeError(f"set_state_dict: state_dict must be a dict, received {type(state_dict).__name__}")
        own = self._state_dict_impl(use_hook=False)
        missing, used = [], set()
        for key, target in own.items():
            lookup = key if use_structured_name else getattr(target, "name", key)
            if lookup not in state_dict:
                missing.append(key)
                continue
            used.add(lookup)
            _assign_value(target, state_dict[lookup], key)
        unexpected = [k for k in state_dict if k not in used]
        return missing, unexpected

    load_dict = set_state_dict
    set_dict = set_state_dict

    # ---- devices and dtypes ---------------------------------------------------------------------
    def to(self, device: PlaceLike | None = None, dtype: DTypeLike | None = None,
           blocking: bool | None = None) -> Self:
        """Move (and/or cast floating point) parameters and buffers in place; returns self."""
        return self._to_impl(device, dtype)

    _ASTYPE_DTYPES = ("bfloat16", "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
                      "complex64", "complex128", "bool")

    def astype(self, dtype=None):
        """Cast every parameter and buffer (whatever its dtype) to `dtype` in place; returns self."""
        if not (isinstance(dtype, (_dtype.DType, np.dtype)) or (type(dtype) is str and dtype in self._ASTYPE_DTYPES)):
            raise ValueError(f"Layer.astype: dtype must be one of {', '.join(self._ASTYPE_DTYPES)}, a paddle.dtype "
                             f"or a numpy.dtype, received {dtype!r}")
        return self._to_impl(dtype=dtype, cast_all=True)

    def _to_impl(self, device=None, dtype=None, include_sublayers=True, cast_all=False):
        """Move and cast in place: the floating point parameters and buffers (or, with cast_all, all of them)."""
        if device is None and dtype is None:
            return self
        place = None if device is None else _place_mod.parse_place(device, "Layer.to")
        np_dtype = None if dtype is None else _dtype.convert_dtype(dtype).np
        if np_dtype is not None and _dtype.kind(np_dtype) != "f" and not cast_all:
            raise TypeError(f"Layer.to: dtype must be a floating point dtype, received {np.dtype(np_dtype)}")
        for t in self.parameters(include_sublayers) + self.buffers(include_sublayers):
            if not isinstance(t, Tensor):
                raise RuntimeError("Layer.to: only available in dynamic mode")
            data = t._data
            if place is not None and place is not t._place:
                data = data.get() if t._place.kind == "gpu" else data
                if place.kind == "gpu":
                    with place.xp.cuda.Device(place.index):
                        data = place.xp.asarray(data)
                t._place = place
            if np_dtype is not None and (cast_all or _dtype.kind(data.dtype) == "f") and data.dtype != np_dtype:
                data = data.astype(np_dtype)
            if data is not t._data:
                t._data = data
                t._bump_version()
                t._grad = None
        if np_dtype is not None:
            for layer in self.sublayers(include_self=True) if include_sublayers else [self]:
                layer.__dict__["_dtype"] = np.dtype(np_dtype).name
        return self

    def float(self) -> Self:
        return self.to(dtype="float32")

    def double(self) -> Self:
        return self.to(dtype="float64")

    def half(self) -> Self:
        return self.to(dtype="float16")

    def cpu(self) -> Self:
        return self.to(device="cpu")

    def cuda(self, device_id: int = 0) -> Self:
        return self.to(device=f"gpu:{device_id}")

    def clear_gradients(self, set_to_zero: bool = True) -> None:
        for p in self.parameters():
            if p.trainable:
                p.clear_gradient(set_to_zero)

    # ---- printing -------------------------------------------------------------------------------
    def extra_repr(self):
        return ""

    def _name_suffix(self, sep=", "):
        """Paddle's layers end their extra_repr with the `name` they were given, if any."""
        name = self.__dict__.get("_name")
        return f"{sep}name={name}" if name else ""

    def __repr__(self):
        lines = []
        extra = self.extra_repr()
        for name, layer in self._sub_layers.items():  # a None sublayer too, as Paddle prints it
            sub = repr(layer).replace("\n", "\n  ")
            lines.append(f"({name}): {sub}")
        head = type(self).__name__ + "("
        if not lines:
            return head + extra + ")"
        return head + (extra if extra else "") + "\n  " + "\n  ".join(lines) + "\n)"


def _assign_value(target, value, key):
    """Rebind `target`'s array to a copy of `value` (a Tensor or array-like) after checking shape/dtype."""
    if isinstance(value, Tensor):
        arr = value._host() if value._place is not getattr(target, "_place", None) else value._data
    elif getattr(value, "_is_variable", False):
        raise TypeError(f"set_state_dict: '{key}' holds a static Variable, not values")
    else:
        arr = np.asarray(value)
    if list(arr.shape) != list(target.shape):
        raise ValueError(f"set_state_dict: '{key}' has shape {list(arr.shape)} but the layer expects "
                         f"{list(target.shape)}")
    want = _dtype.convert_dtype(target.dtype).np
    if arr.dtype != want:
        raise ValueError(f"set_state_dict: '{key}' has dtype {arr.dtype} but the layer's parameter is "
                         f"{np.dtype(want)}; cast it first (e.g. value.astype('{np.dtype(want)}'))")
    if isinstance(target, Tensor):
        target._write(target._place.xp.asarray(arr))  # into the storage, as Paddle's set_value
    else:  # static: write into the global scope
        from ... import static
        static.global_scope().var(target.name).get_tensor().set(np.array(arr), None)
