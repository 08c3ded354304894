"""fluid.optimizer: the fluid-era optimizer names and arguments over paddle.optimizer.

fluid took `parameter_list` and `regularization` where paddle.optimizer takes `parameters` and
`weight_decay`; the update math is paddle.optimizer's.
"""
from .. import optimizer as _opt


def _fluid_kwargs(api, parameter_list, regularization, grad_clip, name):
    return {"parameters": parameter_list, "weight_decay": regularization, "grad_clip": grad_clip, "name": name}


def SGD(learning_rate, parameter_list=None, regularization=None, grad_clip=None, name=None):
    return _opt.SGD(learning_rate, **_fluid_kwargs("SGD", parameter_list, regularization, grad_clip, name))


def Momentum(learning_rate, momentum, parameter_list=None, use_nesterov=False, regularization=None,
             grad_clip=None, name=None):
    return _opt.Momentum(learning_rate, momentum, use_nesterov=use_nesterov,
                         **_fluid_kwargs("Momentum", parameter_list, regularization, grad_clip, name))


def Adam(learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, parameter_list=None, regularization=None,
         grad_clip=None, name=None, lazy_mode=False):
    return _opt.Adam(learning_rate, beta1, beta2, epsilon, lazy_mode=lazy_mode,
                     **_fluid_kwargs("Adam", parameter_list, regularization, grad_clip, name))


SGDOptimizer = SGD
MomentumOptimizer = Momentum
AdamOptimizer = Adam
Optimizer = _opt.Optimizer

__all__ = ["SGD", "SGDOptimizer", "Momentum", "MomentumOptimizer", "Adam", "AdamOptimizer", "Optimizer"]
