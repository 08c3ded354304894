"""paddle.io samplers, datasets and DataLoader arguments against real Paddle 3.3.1: the behaviour table
(values, orders under np.random.seed, exception classes) of issue 10 item 12/14 and its edge cases."""
import numpy as np
import pytest

from tests.differential import differential, raises


def _ds(paddle, n):
    class Range(paddle.io.Dataset):
        def __getitem__(self, i):
            return np.array([i], dtype="float32")

        def __len__(self):
            return n
    return Range()


def _stream(paddle, n=5):
    class Stream(paddle.io.IterableDataset):
        def __iter__(self):
            yield from range(n)
    return Stream()


# ---- Sampler / SequenceSampler -------------------------------------------------------------------------
@differential(expected=raises(NotImplementedError))
def test_base_sampler_has_no_iter(paddle):
    iter(paddle.io.Sampler(_ds(paddle, 3)))


@differential(expected={"list": [0, 1, 2, 3], "len": 3, "none": None})
def test_sequence_sampler(paddle):
    return {"list": list(paddle.io.SequenceSampler(_ds(paddle, 4))), "len": len(paddle.io.SequenceSampler([1, 2, 3])),
            "none": paddle.io.Sampler().data_source}


# ---- RandomSampler -----------------------------------------------------------------------------------
@differential(expected={"n": 8, "distinct": 8, "len": 8})
def test_random_sampler_num_samples_without_replacement(paddle):
    s = paddle.io.RandomSampler(_ds(paddle, 10), num_samples=8)
    got = list(s)
    return {"n": len(got), "distinct": len(set(got)), "len": len(s)}


@differential(expected=raises(ValueError))
def test_random_sampler_more_samples_than_data_without_replacement(paddle):
    paddle.io.RandomSampler(_ds(paddle, 10), num_samples=20)


@differential(expected={"n": 20, "range": True})
def test_random_sampler_with_replacement(paddle):
    got = list(paddle.io.RandomSampler(_ds(paddle, 3), replacement=True, num_samples=20))
    return {"n": len(got), "range": set(got) <= {0, 1, 2}}


@differential(expected=raises(ValueError))
def test_random_sampler_zero_samples(paddle):
    paddle.io.RandomSampler(_ds(paddle, 10), num_samples=0)


@differential(expected=raises(ValueError))
def test_random_sampler_negative_samples(paddle):
    paddle.io.RandomSampler(_ds(paddle, 10), replacement=True, num_samples=-1)


@differential(expected=raises(ValueError))
def test_random_sampler_float_samples(paddle):
    paddle.io.RandomSampler(_ds(paddle, 10), replacement=True, num_samples=2.0)


@differential(expected=raises(ValueError))
def test_random_sampler_empty_data(paddle):
    paddle.io.RandomSampler(_ds(paddle, 0))


@differential(expected=raises(TypeError))
def test_random_sampler_replacement_not_bool(paddle):
    paddle.io.RandomSampler(_ds(paddle, 10), replacement=1)


@differential(expected={"short": list(range(60)), "long": [0, 1, 2, 3, 4]})
def test_random_sampler_generator_ends_iteration(paddle):
    # issue 10 item 14: an exhausted generator ends the iteration (no StopIteration crash)
    return {"short": list(paddle.io.RandomSampler(_ds(paddle, 100), generator=iter(range(60)))),
            "long": list(paddle.io.RandomSampler(_ds(paddle, 5), generator=iter(range(60))))}


@differential(expected=raises(TypeError))
def test_random_sampler_generator_must_be_an_iterator(paddle):
    list(paddle.io.RandomSampler(_ds(paddle, 3), generator=lambda: 1))


@differential(expected={"order": [5, 7, 4, 6, 3, 1, 0, 2], "rep": [2, 2, 1, 1, 0, 0], "type": "int"})
def test_random_sampler_follows_numpy_seed(paddle):
    np.random.seed(3)
    order = list(paddle.io.RandomSampler(_ds(paddle, 8)))
    np.random.seed(4)
    rep = list(paddle.io.RandomSampler(_ds(paddle, 3), replacement=True, num_samples=6))
    return {"order": order, "rep": rep, "type": type(order[0]).__name__}


# ---- SubsetRandomSampler / WeightedRandomSampler ---------------------------------------------------------
@differential(expected=raises(ValueError))
def test_subset_random_sampler_empty(paddle):
    paddle.io.SubsetRandomSampler([])


@differential(expected={"sorted": [3, 5, 9], "len": 3, "type": "int", "tuple": [1, 2]})
def test_subset_random_sampler(paddle):
    s = paddle.io.SubsetRandomSampler([5, 3, 9])
    got = list(s)
    return {"sorted": sorted(got), "len": len(s), "type": type(got[0]).__name__,
            "tuple": sorted(paddle.io.SubsetRandomSampler((1, 2)))}


@differential(expected=raises(ValueError))
def test_weighted_sampler_float_num_samples(paddle):
    paddle.io.WeightedRandomSampler([0.1, 0.2], 2.3)


@differential(expected=raises(ValueError))
def test_weighted_sampler_zero_num_samples(paddle):
    paddle.io.WeightedRandomSampler([0.1, 0.2], 0)


@differential(expected=raises(ValueError))
def test_weighted_sampler_replacement_not_bool(paddle):
    paddle.io.WeightedRandomSampler([0.1, 0.2], 2, replacement=1)


@differential(expected=raises(AssertionError))
def test_weighted_sampler_negative_weight(paddle):
    iter(paddle.io.WeightedRandomSampler(np.array([-0.1, 0.2]), 2))


@differential(expected=raises(AssertionError))
def test_weighted_sampler_all_zero(paddle):
    iter(paddle.io.WeightedRandomSampler(np.array([0.0, 0.0]), 2))


@differential(expected=raises(AssertionError))
def test_weighted_sampler_inf(paddle):
    iter(paddle.io.WeightedRandomSampler(np.array([1.0, np.inf]), 2))


@differential(expected=raises(AssertionError))
def test_weighted_sampler_3d(paddle):
    iter(paddle.io.WeightedRandomSampler(np.ones((2, 2, 2)), 5))


@differential(expected=raises(AssertionError))
def test_weighted_sampler_bad_type(paddle):
    iter(paddle.io.WeightedRandomSampler("abc", 5))


@differential(expected=raises(AssertionError))
def test_weighted_sampler_too_few_positive_without_replacement(paddle):
    iter(paddle.io.WeightedRandomSampler(np.array([0.1, 0.2, 0.0]), 3, replacement=False))


@differential(expected={"seeded": [2, 3, 1, 2, 3, 3], "norep": [0, 1, 2], "len": 5, "len2d": 10})
def test_weighted_sampler_values(paddle):
    np.random.seed(3)
    seeded = list(iter(paddle.io.WeightedRandomSampler(np.array([0.1, 0.2, 0.3, 0.4]), 6)))
    norep = sorted(iter(paddle.io.WeightedRandomSampler(np.array([0.1, 0.2, 0.3]), 3, replacement=False)))
    return {"seeded": seeded, "norep": norep,
            "len": len(paddle.io.WeightedRandomSampler(np.array([0.1, 0.2, 0.3]), 5)),
            "len2d": len(paddle.io.WeightedRandomSampler(np.ones((2, 3)), 5))}


# ---- BatchSampler --------------------------------------------------------------------------------------
@differential(expected=raises(AssertionError))
def test_batch_sampler_needs_dataset_or_sampler(paddle):
    paddle.io.BatchSampler()


@differential(expected=raises(AssertionError))
def test_batch_sampler_not_both(paddle):
    paddle.io.BatchSampler(_ds(paddle, 3), sampler=paddle.io.SequenceSampler(_ds(paddle, 3)))


@differential(expected=raises(AssertionError))
def test_batch_sampler_sampler_with_shuffle(paddle):
    paddle.io.BatchSampler(sampler=paddle.io.SequenceSampler(_ds(paddle, 3)), shuffle=True)


@differential(expected=raises(AssertionError))
def test_batch_sampler_sampler_not_iterable(paddle):
    paddle.io.BatchSampler(sampler=3)


@differential(expected=raises(AssertionError))
def test_batch_sampler_iterable_dataset(paddle):
    paddle.io.BatchSampler(_stream(paddle))


@differential(expected=raises(AssertionError))
def test_batch_sampler_zero_batch(paddle):
    paddle.io.BatchSampler(_ds(paddle, 3), batch_size=0)


@differential(expected=raises(AssertionError))
def test_batch_sampler_float_batch(paddle):
    paddle.io.BatchSampler(_ds(paddle, 3), batch_size=2.0)


@differential(expected=raises(AssertionError))
def test_batch_sampler_shuffle_not_bool(paddle):
    paddle.io.BatchSampler(_ds(paddle, 3), shuffle=1)


@differential(expected=raises(AssertionError))
def test_batch_sampler_drop_last_not_bool(paddle):
    paddle.io.BatchSampler(_ds(paddle, 3), drop_last=1)


@differential(expected={"list": [[0, 1], [2, 3], [4]], "drop": [[0, 1], [2, 3]], "len": 3, "len_drop": 2,
                        "iterable": [[3, 1], [2]], "seeded": [[3, 5, 4, 1], [0, 2]],
                        "attrs": [2, True, False, "RandomSampler"]})
def test_batch_sampler_values(paddle):
    io = paddle.io
    np.random.seed(3)
    seeded = list(io.BatchSampler(_ds(paddle, 6), batch_size=4, shuffle=True))
    b = io.BatchSampler(_ds(paddle, 5), batch_size=2, shuffle=True)
    return {"list": list(io.BatchSampler(_ds(paddle, 5), batch_size=2)),
            "drop": list(io.BatchSampler(_ds(paddle, 5), batch_size=2, drop_last=True)),
            "len": len(io.BatchSampler(_ds(paddle, 5), batch_size=2)),
            "len_drop": len(io.BatchSampler(_ds(paddle, 5), batch_size=2, drop_last=True)),
            "iterable": list(io.BatchSampler(sampler=[3, 1, 2], batch_size=2)), "seeded": seeded,
            "attrs": [b.batch_size, b.shuffle, b.drop_last, type(b.sampler).__name__]}


# ---- datasets ------------------------------------------------------------------------------------------
@differential(expected=raises(AssertionError))
def test_concat_dataset_rejects_iterable(paddle):
    paddle.io.ConcatDataset([_stream(paddle)])


@differential(expected=raises(AssertionError))
def test_concat_dataset_empty(paddle):
    paddle.io.ConcatDataset([])


@differential(expected=raises(ValueError))
def test_concat_dataset_negative_index_out_of_range(paddle):
    paddle.io.ConcatDataset([_ds(paddle, 2), _ds(paddle, 3)])[-6]


@differential(expected={"neg": [0.0], "len": 5, "cum": [2, 5], "last": [2.0]})
def test_concat_dataset_values(paddle):
    cat = paddle.io.ConcatDataset([_ds(paddle, 2), _ds(paddle, 3)])
    return {"neg": cat[-5], "len": len(cat), "cum": cat.cumulative_sizes, "last": cat[4]}


@differential(expected=raises(AssertionError))
def test_compose_dataset_lengths(paddle):
    paddle.io.ComposeDataset([_ds(paddle, 2), _ds(paddle, 3)])


@differential(expected=raises(AssertionError))
def test_compose_dataset_rejects_iterable(paddle):
    paddle.io.ComposeDataset([_stream(paddle)])


@differential(expected=raises(AssertionError))
def test_chain_dataset_rejects_map_style(paddle):
    paddle.io.ChainDataset([_ds(paddle, 2)])


@differential(expected=raises(AssertionError))
def test_chain_dataset_empty(paddle):
    paddle.io.ChainDataset([])


@differential(expected=[0, 1, 2, 3, 4, 0, 1, 2])
def test_chain_dataset_values(paddle):
    return [v for v in paddle.io.ChainDataset([_stream(paddle), _stream(paddle, 3)])]


@differential(expected=raises(NotImplementedError))
def test_dataset_getitem_not_implemented(paddle):
    paddle.io.Dataset()[0]


@differential(expected=raises(NotImplementedError))
def test_iterable_dataset_iter_not_implemented(paddle):
    iter(paddle.io.IterableDataset())


@differential(expected=raises(RuntimeError))
def test_iterable_dataset_has_no_len(paddle):
    len(_stream(paddle))


@differential(expected=raises(AssertionError))
def test_tensor_dataset_first_dims(paddle):
    paddle.io.TensorDataset([paddle.ones([2]), paddle.ones([3])])


@differential(expected={"row": [1.0, 1.0, 1.0], "kind": "Tensor"})
def test_tensor_dataset_rows_are_tensors(paddle):
    row = paddle.io.TensorDataset([paddle.ones([2, 3])])[0][0]
    return {"row": row, "kind": type(row).__name__}


@differential(expected=raises(ValueError))
def test_random_split_bad_lengths(paddle):
    paddle.io.random_split(_ds(paddle, 5), [2, 2])


@differential(expected=raises(ValueError))
def test_random_split_bad_fraction(paddle):
    paddle.io.random_split(_ds(paddle, 5), [1.5, -0.5])


@differential(expected={"sizes": [3, 2], "all": [0, 1, 2, 3, 4]})
def test_random_split_fractions(paddle):
    a, b = paddle.io.random_split(_ds(paddle, 5), [0.5, 0.5])
    return {"sizes": [len(a), len(b)], "all": sorted(list(a.indices) + list(b.indices))}


# ---- DataLoader arguments and batches ------------------------------------------------------------------
@differential(expected=raises(ValueError))
def test_dataloader_len_of_iterable(paddle):
    len(paddle.io.DataLoader(_stream(paddle), batch_size=2))


@differential(expected=raises(ValueError))
def test_dataloader_iterable_shuffle(paddle):
    paddle.io.DataLoader(_stream(paddle), batch_size=2, shuffle=True)


@differential(expected=raises(AssertionError))
def test_dataloader_batch_sampler_with_batch_size(paddle):
    paddle.io.DataLoader(_ds(paddle, 3), batch_sampler=paddle.io.BatchSampler(_ds(paddle, 3)), batch_size=2)


@differential(expected=raises(AssertionError))
def test_dataloader_negative_workers(paddle):
    paddle.io.DataLoader(_ds(paddle, 3), num_workers=-1)


@differential(expected=raises(AssertionError))
def test_dataloader_zero_batch(paddle):
    paddle.io.DataLoader(_ds(paddle, 3), batch_size=0)


@differential(expected=raises(AssertionError))
def test_dataloader_negative_timeout(paddle):
    paddle.io.DataLoader(_ds(paddle, 3), timeout=-1)


@differential(expected=raises(AssertionError))
def test_dataloader_zero_prefetch(paddle):
    paddle.io.DataLoader(_ds(paddle, 3), prefetch_factor=0)


@differential(expected={"batch_size": None, "batches": [[0.0, 1.0], [2.0]], "iterable": [[0, 1], [2, 3], [4]]})
def test_dataloader_batches(paddle):
    io = paddle.io
    loader = io.DataLoader(_ds(paddle, 3), batch_sampler=io.BatchSampler(_ds(paddle, 3), batch_size=2))
    return {"batch_size": loader.batch_size, "batches": [b.numpy().ravel().tolist() for b in loader],
            "iterable": [b.numpy().tolist() for b in io.DataLoader(_stream(paddle), batch_size=2)]}


@differential(expected=[[[0.0, 0.0], 0, 0.0, True, ["s0", "s1"], 0], [[0.0, 0.0], 0, 0.0, True, ["s0", "s1"], 0]])
def test_dataloader_collates_fields_like_paddle(paddle):
    class Fields(paddle.io.Dataset):
        def __getitem__(self, i):
            return np.array([i, i], "float32"), i, float(i), i % 2 == 0, [f"s{i}", f"s{i + 1}"], {"k": np.int32(i)}

        def __len__(self):
            return 2
    # whole epochs: an unfinished single-process iterator keeps Paddle's reader thread alive at exit
    batch = [b for b in paddle.io.DataLoader(Fields(), batch_size=2)][0]
    unbatched = [b for b in paddle.io.DataLoader(Fields(), batch_size=None)][0]
    x, n, f, b, s, d = batch
    return [[x[0], n[0], f[0], b[0], [s[0][0], s[1][0]], d["k"][0]],
            [unbatched[0], unbatched[1], unbatched[2], unbatched[3], unbatched[4], int(unbatched[5]["k"])]]


def test_default_collate_ragged_fields():
    # Paddle raises this RuntimeError in its reader thread and then hangs; paddlelite raises it to the caller
    import paddlelite
    with pytest.raises(RuntimeError, match="different numbers of fields"):
        next(iter(paddlelite.io.DataLoader([(1, 2), (1,)], batch_size=2)))


@differential(expected={"list": ["DenseTensor", [4, 3], "DenseTensor", [4]], "list_out": 3.0,
                        "dict": ["list", "dict", ["img", "lab"], "DenseTensor"], "dict_out": 3.0})
def test_static_mode_loader_yields_dense_tensors_and_a_feed_dict_per_place(paddle):
    class Rows(paddle.io.Dataset):
        def __getitem__(self, i):
            return np.full([3], i, "float32"), np.int64(i)

        def __len__(self):
            return 8

    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            img = paddle.static.data("img", [None, 3], "float32")
            lab = paddle.static.data("lab", [None], "int64")
            out = paddle.mean(img) + paddle.mean(paddle.cast(lab, "float32"))  # (legacy-IR sum takes no Variable)
        exe = paddle.static.Executor(paddle.CPUPlace())
        batch = next(iter(paddle.io.DataLoader(Rows(), feed_list=[img, lab], batch_size=4)()))
        listed = [v for d in batch for v in (type(d).__name__, d.shape())]
        list_out = exe.run(main, feed={"img": batch[0], "lab": batch[1]}, fetch_list=[out])[0]
        feeds = next(iter(paddle.io.DataLoader(Rows(), feed_list=[img, lab], batch_size=4, return_list=False)()))
        dict_out = exe.run(main, feed=feeds[0], fetch_list=[out])[0]
        return {"list": listed, "list_out": float(list_out),
                "dict": [type(feeds).__name__, type(feeds[0]).__name__, sorted(feeds[0]),
                         type(feeds[0]["img"]).__name__], "dict_out": float(dict_out)}
    finally:
        paddle.disable_static()
