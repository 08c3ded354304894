"""paddle.enable_compat / disable_compat: `import torch` (and `torch.<sub>`) gives paddlelite (and
paddlelite.<sub>), as Paddle 3.3's PyTorch compat does, through a finder at the front of sys.meta_path.

Modules named `torch...` already imported are set aside while the compat is on and put back when it is
switched off. `scope` limits the proxy to imports made from the given modules (and their submodules);
`blocked_modules` are never proxied, nor are imports made from them.
"""
import importlib
import importlib.abc
import importlib.util
import sys
import types
import warnings

_BLOCKED = {"tvm_ffi"}  # Paddle's default blocked list
_REAL_TORCH = {}  # the real torch modules set aside while the compat is on


class ProxyModule(types.ModuleType):
    """A `torch...` module whose attributes are those of the paddlelite module it stands for."""

    def __init__(self, source, name):
        super().__init__(name, source.__doc__)
        self._compat_source = source

    def __getattr__(self, name):  # attributes the source gained after the proxy was made
        return getattr(self._compat_source, name)


def _within(name, module):
    return name == module or name.startswith(module + ".")


def _is_torch(name):
    return _within(name, "torch")


def _importer_names():
    """The `__name__`s of the modules on the calling stack (outside the import machinery)."""
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if not name.startswith(("importlib", "_frozen_importlib")) and name != __name__:
            yield name
        frame = frame.f_back


class _Loader(importlib.abc.Loader):
    def __init__(self, source):
        self.source = source

    def create_module(self, spec):
        module = ProxyModule(self.source, spec.name)
        module.__file__ = getattr(self.source, "__file__", None)
        if hasattr(self.source, "__path__"):
            module.__path__ = list(self.source.__path__)
        return module

    def exec_module(self, module):
        for key, value in vars(self.source).items():
            if key not in ("__name__", "__package__", "__path__", "__spec__", "__loader__"):
                module.__dict__[key] = value


class TorchProxyMetaFinder:
    """Finds `torch[.sub]` as a proxy of `paddlelite[.sub]`."""

    def __init__(self):
        self.scope = None  # None: everywhere; else the modules whose imports are proxied

    def find_spec(self, fullname, path, target=None):
        if not _is_torch(fullname):
            return None
        importers = list(_importer_names())
        if any(_within(n, b) for n in importers for b in _BLOCKED):
            return None
        if self.scope is not None and not any(_within(n, s) for n in importers for s in self.scope):
            return None
        source = importlib.import_module("paddlelite" + fullname[len("torch"):])
        return importlib.util.spec_from_loader(fullname, _Loader(source), is_package=hasattr(source, "__path__"),
                                               origin=getattr(source, "__file__", None))


_FINDER = TorchProxyMetaFinder()


def _scope_set(value, argument):
    if value is None:
        return None
    if isinstance(value, str):
        return {value}
    try:
        names = set(value)
    except TypeError:
        raise TypeError(f"enable_compat: {argument} must be a module name or an iterable of them, received "
                        f"{type(value).__name__}") from None
    if not all(isinstance(n, str) for n in names):
        raise TypeError(f"enable_compat: {argument} must hold module names (str)")
    return names


def enable_compat(*, scope=None, blocked_modules=None, backend="torch", silent=False):
    """Make `import torch` give paddlelite (see the module docstring)."""
    if backend != "torch":
        raise AssertionError(f"Unsupported backend: {backend}")  # Paddle asserts
    blocked = _scope_set(blocked_modules, "blocked_modules")
    if blocked:
        _BLOCKED.update(blocked)
    scope = _scope_set(scope, "scope")
    if _FINDER in sys.meta_path:
        if scope != _FINDER.scope and not silent:
            warnings.warn(f"torch compat scope changes from {_FINDER.scope} to {scope}")
    else:
        for name, module in list(sys.modules.items()):
            if _is_torch(name):
                if not isinstance(module, ProxyModule):
                    _REAL_TORCH[name] = module
                del sys.modules[name]
        sys.meta_path.insert(0, _FINDER)
    _FINDER.scope = scope


def disable_compat():
    """Undo enable_compat: `torch` imports find the real PyTorch (or nothing) again."""
    if _FINDER not in sys.meta_path:
        warnings.warn("torch compat is not installed.")
        return
    sys.meta_path.remove(_FINDER)
    for name, module in list(sys.modules.items()):
        if _is_torch(name) and isinstance(module, ProxyModule):
            del sys.modules[name]
    sys.modules.update(_REAL_TORCH)
    _REAL_TORCH.clear()


__all__ = ["disable_compat", "enable_compat"]
