"""The static data-parallel pass. The startup program broadcasts every parameter from the group's first
rank after initialising it (`c_broadcast`), so all replicas start equal. After append_backward, average every parameter gradient over the
ranks with registered ops -- `scale` by 1/nranks, then `c_allreduce_sum` writing back into the same
gradient variable (Paddle's collective GradAllReduce) -- so the Executor runs them like any other op
and the update ops that follow read the averaged gradients. The arithmetic matches DataParallel's
eager buckets (scale, then sum), so both modes reach the same parameters."""


def insert_grad_allreduce(program, params_grads, group):
    block = program.global_block()
    with program._backward_role_guard():
        for _, grad in params_grads:
            if grad is None:
                continue
            block.append_op("scale", inputs={"X": [grad]}, outputs={"Out": [grad]},
                            attrs={"scale": 1.0 / group.nranks})
            block.append_op("c_allreduce_sum", inputs={"X": [grad]}, outputs={"Out": [grad]},
                            attrs={"ring_id": group.id, "use_calc_stream": True})


def insert_param_broadcast(startup, params, group):
    block = startup.global_block()
    for p in params:
        var = block._lookup(p.name)
        if var is not None:
            block.append_op("c_broadcast", inputs={"X": [var]}, outputs={"Out": [var]},
                            attrs={"ring_id": group.id, "root": 0, "use_calc_stream": True})
