"""device_guard's op_device attributes (structural ops, which have no kernel, keep none and warn), core's
op_proto_and_checker_maker, static.nn.control_flow.While, static increment and crop with tensor shapes and offsets
(Paddle's crop_tensor op), against Paddle."""
import warnings

import numpy as np

from tests.differential import differential


@differential()
def test_crop_with_a_shape_variable_under_device_guards(paddle):
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.reshape(paddle.arange(96, dtype="float32"), [1, 3, 4, 8])
        shape = paddle.shape(paddle.full([1, 2, 3, 5], 0.5))
        with paddle.static.device_guard("cpu"):
            shape = paddle.slice(shape, axes=[0], starts=[0], ends=[4])
            with paddle.static.device_guard("gpu:1"):
                whole = paddle.crop(x, shape=shape)
        offset = paddle.crop(x, shape=[1, -1, 2, 3], offsets=paddle.full([4], 0, "int32"))
        mixed = paddle.crop(x, shape=[1, paddle.full([1], 2, "int32"), 2, 3], offsets=[0, 1, 2, 3])
    maker = paddle.base.core.op_proto_and_checker_maker
    devices = [(op.type, op.desc.attr(maker.kOpDeviceAttrName())) for op in main.global_block().ops
               if op.type in ("slice", "crop_tensor")]
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    values = exe.run(main, fetch_list=[whole, offset, mixed])
    return devices, [v.shape for v in (whole, offset, mixed)], values


@differential()
def test_op_proto_and_checker_maker(paddle):
    maker = paddle.base.core.op_proto_and_checker_maker
    return ([maker.kOpRoleAttrName(), maker.kOpRoleVarAttrName(), maker.kOpDeviceAttrName(),
             maker.kOpNameScopeAttrName(), maker.kOpCreationCallstackAttrName(), maker.kOpWithQuantAttrName()],
            [int(maker.OpRole.Forward), int(maker.OpRole.Backward), int(maker.OpRole.Optimize),
             int(maker.OpRole.Loss)])


@differential()
def test_while_block_counts_with_in_place_increment_and_keeps_no_device(paddle):
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        i = paddle.full(shape=[1], dtype="int64", fill_value=0)
        total = paddle.full(shape=[1], dtype="int64", fill_value=0)
        n = paddle.full(shape=[1], dtype="int64", fill_value=10)
        cond = paddle.less_than(x=i, y=n)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with paddle.static.device_guard("cpu"):
                loop = paddle.static.nn.control_flow.While(cond=cond)
                with loop.block():
                    i = paddle.increment(x=i, value=1)
                    paddle.assign(total + i, total)
                    paddle.assign(paddle.less_than(x=i, y=n), cond)
    warned = [str(w.message) for w in caught if "not support to set device" in str(w.message)]
    ops = main.global_block().ops
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    i_value, total_value = exe.run(main, fetch_list=[i, total])
    return warned, [(op.type, op.attr("op_device")) for op in ops], i_value, total_value


@differential()
def test_crop_gradient_with_a_tensor_offset(paddle):
    x = paddle.to_tensor(np.arange(24, dtype="float32").reshape(2, 3, 4), stop_gradient=False)
    y = paddle.crop(x, shape=[1, -1, 2], offsets=paddle.to_tensor([1, 1, 1]))
    (y * paddle.arange(4, dtype="float32").reshape([1, 2, 2])).sum().backward()
    return y, x.grad
