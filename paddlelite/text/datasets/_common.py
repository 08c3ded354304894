"""What the text datasets share: their files, their modes, their word dictionaries."""
from ...io.dataset_files import local_file as _local_file


def local_file(path, url, name, what, download):
    """`path` when it names an existing file (paddlelite does not download)."""
    return _local_file(path, url, f"paddle.text.datasets.{name}", what, download)


def check_mode(mode, allowed):
    assert mode.lower() in allowed, f"mode should be {', '.join(repr(m) for m in allowed)}, but got {mode}"
    return mode.lower()


def ranked_words(word_freq, min_freq):
    """Paddle's word dictionary: the words (bytes, as the archives' lines split; the marks '<s>', '<e>' str) seen
    more than `min_freq` times, most frequent first (ties in byte order), numbered from 0, then '<unk>'."""
    kept = sorted(((w, c) for w, c in word_freq.items() if c > min_freq), key=_rank)
    word_idx = {w: i for i, (w, _) in enumerate(kept)}
    word_idx["<unk>"] = len(kept)
    return word_idx


def _rank(item):
    word, count = item
    return -count, word if isinstance(word, bytes) else word.encode()
