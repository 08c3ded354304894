"""paddle.base.lod_tensor: DenseTensors made from data and sequence lengths (create_lod_tensor), or of random ints
(create_random_int_lodtensor, what Paddle's book tests feed at inference). paddlelite's tensors hold only the dense
kind of level-of-detail: one level of length-1 sequences (see DenseTensor.set_lod)."""
import numpy as np

from ..static.executor import DenseTensor

__all__ = []


def create_lod_tensor(data, recursive_seq_lens, place):
    """A DenseTensor of `data` (a DenseTensor, a NumPy array, or a list of sequences, stacked into a column)
    with the sequence lengths `recursive_seq_lens` on `place`."""
    if isinstance(data, DenseTensor):
        return create_lod_tensor(np.array(data), recursive_seq_lens, place)
    if isinstance(data, list):
        assert [[len(seq) for seq in data]] == recursive_seq_lens, "data and recursive_seq_lens do not match"
        arr = np.array([value for seq in data for value in seq])
        return create_lod_tensor(arr.reshape((*arr.shape, 1)), recursive_seq_lens, place)
    if isinstance(data, np.ndarray):
        tensor = DenseTensor()
        tensor.set(data, place)
        tensor.set_recursive_sequence_lengths(recursive_seq_lens)
        return tensor
    raise TypeError("data should be either a DenseTensor, a Numpy array or a list")


def create_random_int_lodtensor(recursive_seq_lens, base_shape, place, low, high):
    """A DenseTensor of int64s drawn uniformly from [low, high] (NumPy's global generator, as Paddle's), shaped
    [total length of the last level] + base_shape."""
    assert isinstance(base_shape, list), "base_shape should be a list"
    overall_shape = [sum(recursive_seq_lens[-1]), *base_shape]
    data = np.random.randint(low, high + 1, overall_shape).astype("int64")
    return create_lod_tensor(data, recursive_seq_lens, place)
