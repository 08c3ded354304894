"""Program.desc (Paddle's ProgramDesc view: its bytes, need_update/flush, the cached hash, its blocks' op and
variable descs), Program.parse_from_string and the Program._copy_*_from checks, against Paddle."""
from tests.differential import differential, raises


def _fc_program(paddle):
    main = paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data(name="x", shape=[3, 2, 1])
        paddle.static.nn.fc(x=x, size=1, num_flatten_dims=2)
    return main


@differential()
def test_need_update_until_flushed_and_after_each_change(paddle):
    paddle.enable_static()
    program = _fc_program(paddle)
    seen = [program.desc.need_update()]
    program.desc.flush()
    seen.append(program.desc.need_update())
    before = program.desc.serialize_to_string()
    program.current_block().ops[0]._set_attr("scale_x", 2.0)
    seen += [program.desc.need_update(), before == program.desc.serialize_to_string()]
    program.desc.flush()
    program.current_block().var("x").desc.set_stop_gradient(False)
    seen.append(program.desc.need_update())
    program.desc.flush()
    program.current_block().var("x").desc._set_attr("a", 1)
    seen += [program.desc.need_update(), program.current_block().var("x").desc.attr("a")]
    return seen


@differential()
def test_cached_hash_str_is_the_programs_content(paddle):
    paddle.enable_static()
    one, two = _fc_program(paddle), _fc_program(paddle)
    same = one.desc.cached_hash_str() == two.desc.cached_hash_str()
    flushed = one.desc.need_update()
    cloned = one.clone().desc.cached_hash_str() == one.desc.cached_hash_str()
    first = one.desc.cached_hash_str()
    one.current_block().ops[0]._set_attr("scale_x", 2.0)
    return same, flushed, cloned, first == one.desc.cached_hash_str()


@differential()
def test_parse_from_string_and_block_descs(paddle):
    paddle.enable_static()
    program = _fc_program(paddle)
    restored = paddle.static.Program.parse_from_string(program.desc.serialize_to_string())
    block = restored.desc.block(0)
    return ([block.op(i).type() for i in range(block.op_size())], restored.desc.num_blocks(),
            sorted(v.name for v in restored.list_vars()), block.var(b"x").shape(), block.has_var(b"x"))


@differential(expected=raises(TypeError))
def test_copy_param_info_from_needs_a_program(paddle):
    paddle.enable_static()
    paddle.static.Program()._copy_param_info_from("program")


@differential(expected=raises(TypeError))
def test_copy_dist_param_info_from_needs_a_program(paddle):
    paddle.enable_static()
    paddle.static.Program()._copy_dist_param_info_from("program")
