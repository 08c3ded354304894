"""fluid.initializer: the fluid names of paddle.nn.initializer."""


def __getattr__(name):
    from ..nn import initializer
    aliases = {"Constant": "Constant", "ConstantInitializer": "Constant", "Normal": "Normal",
               "NormalInitializer": "Normal", "Uniform": "Uniform", "UniformInitializer": "Uniform",
               "Xavier": "XavierInitializer", "XavierInitializer": "XavierInitializer",
               "MSRA": "MSRAInitializer", "MSRAInitializer": "MSRAInitializer",
               "TruncatedNormal": "TruncatedNormal", "NumpyArrayInitializer": "Assign"}
    if name in aliases:
        return getattr(initializer, aliases[name])
    raise AttributeError(f"module 'paddlelite.fluid.initializer' has no attribute '{name}'")
