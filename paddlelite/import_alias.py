"""Import aliases: other libraries' names that give paddlelite.

* `paddle.enable_compat` / `disable_compat` (`paddle.compat.enable_torch_proxy` / `disable_torch_proxy`):
  `import torch` (and `torch.<sub>`) gives a proxy of paddlelite (and paddlelite.<sub>), as Paddle 3.3's PyTorch
  compat does: the names of `paddle.compat.<sub>.__all__` (torch-spelled look-alikes such as compat.nn.Linear)
  override those of `torch.<sub>`. Modules named `torch...` already imported are set aside while the compat is on
  and put back when it is switched off. `scope` limits the proxy to imports made from the given modules (and their
  submodules); `blocked_modules` are never proxied, nor are imports made from them.
* `install_as_paddle()` (a paddlelite addition): `import paddle` (and `paddle.<sub>`) gives the paddlelite
  module object itself, so a Paddle program runs unchanged; `python -m paddlelite script.py` and the
  PADDLELITE_AS_PADDLE=1 environment variable (read at interpreter start by the `paddlelite-as-paddle.pth` file
  a regular install puts in site-packages) turn it on. It is never on unless asked for, and refuses to hide a
  real Paddle that is already imported.

Both are one finder at the front of sys.meta_path (`AliasFinder`), differing in the module they hand out.
"""
import contextlib
import functools
import importlib
import importlib.abc
import importlib.util
import pkgutil
import sys
import types

from .framework import user_warnings as _user_warnings

_BLOCKED = {"tvm_ffi"}  # Paddle's default blocked list
_REAL_TORCH = {}  # the real torch modules set aside while the compat is on
_OVERRIDES = {"torch.relu": ("paddlelite.nn.functional", "relu")}  # Paddle's one override outside paddle.compat


@functools.cache
def _torch_overrides():
    """{`torch.<sub>.<name>`: the object}: Paddle's override above and every public name of paddle.compat's
    submodules, at the torch path of the same spelling (paddle.compat.nn.Linear stands for torch.nn.Linear; as in
    Paddle, compat's own top-level names do not: torch.sort is paddle.sort)."""
    found = {name: getattr(importlib.import_module(module), attr) for name, (module, attr) in _OVERRIDES.items()}
    compat = importlib.import_module("paddlelite.compat")
    for info in pkgutil.walk_packages(compat.__path__, compat.__name__ + "."):
        module = importlib.import_module(info.name)
        torch_name = "torch" + module.__name__[len(compat.__name__):]
        for attr in getattr(module, "__all__", ()):
            if not attr.startswith("_"):
                found[f"{torch_name}.{attr}"] = getattr(module, attr)
    return found


def _overrides_below(name):
    """{attribute: object} overriding those of the proxy `name`'s source."""
    return {key[len(name) + 1:]: value for key, value in _torch_overrides().items()
            if key.startswith(name + ".") and "." not in key[len(name) + 1:]}


class ProxyModule(types.ModuleType):
    """A `torch...` module whose attributes are those of the paddlelite module it stands for, but for
    paddle.compat's overrides; its module attributes are proxies too (`torch.nn.Linear` without importing
    torch.nn is compat's). The import system's proxies are filled (for `dir` and `import *`), nested ones lazy."""

    def __init__(self, source, name):
        super().__init__(name, source.__doc__)
        self._compat_source = source

    def _proxied(self, value, overrides, key):
        if key in overrides:
            return overrides[key]
        if isinstance(value, types.ModuleType) and value.__name__.startswith("paddlelite"):
            return ProxyModule(value, f"{self.__name__}.{key}")
        return value

    def __getattr__(self, name):  # attributes the source gained after the proxy was made, and nested proxies'
        overrides = _overrides_below(self.__name__)
        if name in overrides:
            return overrides[name]
        return self._proxied(getattr(self._compat_source, name), overrides, name)

    def fill(self):
        overrides = _overrides_below(self.__name__)
        for key, value in vars(self._compat_source).items():
            if key not in ("__name__", "__package__", "__path__", "__spec__", "__loader__"):
                self.__dict__[key] = self._proxied(value, overrides, key)
        self.__dict__.update(overrides)


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


class _ProxyLoader(importlib.abc.Loader):
    """Loads a fresh ProxyModule of `source` (the torch compat: `torch.sin is paddle.sin`, `torch is not paddle`)."""

    def __init__(self, source):
        self.source = source

    def create_module(self, spec):
        module = ProxyModule(self.source, spec.name)
        module.__file__ = getattr(self.source, "__file__", None)
        if hasattr(self.source, "__path__"):
            module.__path__ = list(self.source.__path__)
        return module

    def exec_module(self, module):
        module.fill()


class _SameModuleLoader(importlib.abc.Loader):
    """"Loads" `source` itself: the alias name is bound in sys.modules to the module object already loaded, so
    nothing is executed twice and classes, isinstance checks and pickles are paddlelite's."""

    def __init__(self, source):
        self.source = source
        self.own_spec = source.__spec__

    def create_module(self, spec):
        return self.source

    def exec_module(self, module):
        module.__spec__ = self.own_spec  # the import system set the alias's spec on it; the module keeps its own


class AliasFinder:
    """Finds `<alias>[.sub]` as a module made by `loader` from `<target>[.sub]` (imported first)."""

    def __init__(self, alias, target, loader):
        self.alias, self.target, self.loader = alias, target, loader

    def applies(self):
        return True

    def find_spec(self, fullname, path, target=None):
        if not _within(fullname, self.alias) or not self.applies():
            return None
        source = importlib.import_module(self.target + fullname[len(self.alias):])
        return importlib.util.spec_from_loader(fullname, self.loader(source), is_package=hasattr(source, "__path__"),
                                               origin=getattr(source, "__file__", None))


class TorchProxyMetaFinder(AliasFinder):
    """Finds `torch[.sub]` as a proxy of `paddlelite[.sub]`, for the importers `scope` and `_BLOCKED` allow."""

    def __init__(self):
        super().__init__("torch", "paddlelite", _ProxyLoader)
        self.scope = None  # None: everywhere; else the modules whose imports are proxied

    def applies(self):
        importers = list(_importer_names())
        if any(_within(n, b) for n in importers for b in _BLOCKED):
            return False
        return self.scope is None or any(_within(n, s) for n in importers for s in self.scope)


_FINDER = TorchProxyMetaFinder()
_PADDLE_FINDER = AliasFinder("paddle", "paddlelite", _SameModuleLoader)


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
            _user_warnings.warn(f"torch compat scope changes from {_FINDER.scope} to {scope}")
    else:
        for name, module in list(sys.modules.items()):
            if _is_torch(name):
                if not isinstance(module, ProxyModule):
                    _REAL_TORCH[name] = module
                del sys.modules[name]
        sys.meta_path.insert(0, _FINDER)
    _FINDER.scope = scope


def extend_torch_proxy_blocked_modules(modules):
    """Imports of and from `modules` (names) never get the torch proxy (paddle.compat's spelling)."""
    _BLOCKED.update(_scope_set(modules, "modules"))


def disable_compat():
    """Undo enable_compat: `torch` imports find the real PyTorch (or nothing) again."""
    if _FINDER not in sys.meta_path:
        _user_warnings.warn("torch compat is not installed.")
        return
    sys.meta_path.remove(_FINDER)
    for name, module in list(sys.modules.items()):
        if _is_torch(name) and isinstance(module, ProxyModule):
            del sys.modules[name]
    sys.modules.update(_REAL_TORCH)
    _REAL_TORCH.clear()


@contextlib.contextmanager
def use_torch_proxy_guard(*, enable=True, scope=None, silent=False):
    """Within the block the torch compat is on (with `scope`) or, `enable=False`, off; afterwards as it was."""
    was_on, old_scope = _FINDER in sys.meta_path, _FINDER.scope
    if was_on == enable and (not enable or _scope_set(scope, "scope") == old_scope):
        yield
        return
    if enable:
        enable_compat(scope=scope, silent=silent)
    else:
        disable_compat()
    try:
        yield
    finally:
        if was_on:
            enable_compat(scope=old_scope, silent=True)
        else:
            disable_compat()


def install_as_paddle():
    """From now on in this process `import paddle` (and `paddle.<sub>`) gives paddlelite (`paddlelite.<sub>`),
    the same module objects: a paddlelite addition, so a Paddle program runs unchanged (`python -m paddlelite`
    calls it). A real Paddle already imported is not hidden: that raises RuntimeError."""
    if _PADDLE_FINDER in sys.meta_path:
        return
    paddlelite = importlib.import_module("paddlelite")
    imported = sys.modules.get("paddle")
    if imported is not None and imported is not paddlelite:
        raise RuntimeError(f"install_as_paddle: PaddlePaddle is already imported in this process (from "
                           f"{getattr(imported, '__file__', None)}); call it before anything imports paddle, or "
                           "run the program with `python -m paddlelite script.py`")
    _load_what_paddle_loads()
    sys.meta_path.insert(0, _PADDLE_FINDER)


def _load_what_paddle_loads():
    """Modules Paddle's own `import paddle` loads that programs written for Paddle rely on being loaded: setuptools
    (Paddle's paddle.utils.cpp_extension imports it). PaddleNLP imports pip at its top and setuptools later, which
    setuptools refuses on Python 3.11 (its distutils shim cannot replace the standard library's once pip is in)
    unless setuptools came first -- as it does under Paddle. setuptools is optional: nothing else here uses it."""
    try:
        importlib.import_module("setuptools")
    except ImportError:
        pass


def find_paddle_at_startup(fullname):
    """The spec of `paddle` for the PADDLELITE_AS_PADDLE=1 startup finder (paddlelite-as-paddle.pth), which
    imports paddlelite only when `paddle` is first imported: it installs the alias and hands over."""
    install_as_paddle()
    return _PADDLE_FINDER.find_spec(fullname, None)


__all__ = ["disable_compat", "enable_compat", "extend_torch_proxy_blocked_modules", "use_torch_proxy_guard"]
