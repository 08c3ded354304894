"""paddle.text (issue 26 item 7): viterbi_decode / ViterbiDecoder (op viterbi_decode) and the NLP datasets, against
real Paddle 3.3.1 on small files in the formats Paddle downloads (built here; paddlelite never downloads)."""
import gzip
import io
import tarfile
import zipfile

import numpy as np
import pytest

from tests.differential import differential, raises, run_static


def _viterbi_inputs(batch=3, seq_len=5, tags=4, seed=0, dtype="float32"):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((batch, seq_len, tags)).astype(dtype), rng.standard_normal((tags, tags)).astype(dtype))


@pytest.mark.parametrize("lengths", [[5, 2, 3], [3, 1, 2], [3, 1, 0], [1, 1, 1]], ids=str)
@pytest.mark.parametrize("bos", [True, False])
def test_viterbi_decode(lengths, bos):
    potentials, transition = _viterbi_inputs()

    @differential(rtol=1e-5)
    def body(paddle):
        scores, path = paddle.text.viterbi_decode(paddle.to_tensor(potentials), paddle.to_tensor(transition),
                                                  paddle.to_tensor(np.array(lengths, dtype="int64")), bos)
        return [scores, path]
    body()


@differential(expected=[[5.58176, 1.50878, 6.49552], [[0, 2, 3], [0, 0, 0], [2, 3, 0]]], rtol=1e-5)
def test_viterbi_decoder_layer_float64(paddle):
    potentials, transition = _viterbi_inputs(dtype="float64")
    decoder = paddle.text.ViterbiDecoder(paddle.to_tensor(transition))
    return list(decoder(paddle.to_tensor(potentials), paddle.to_tensor(np.array([3, 1, 2]))))


def test_viterbi_decode_static():
    potentials, transition = _viterbi_inputs(batch=2, seq_len=4, tags=5, seed=3)

    @differential(rtol=1e-5)
    def body(paddle):
        def build():
            p = paddle.static.data("p", [-1, 4, 5], "float32")
            t = paddle.static.data("t", [5, 5], "float32")
            n = paddle.static.data("n", [-1], "int64")
            scores, path = paddle.text.viterbi_decode(p, t, n, False)
            return [scores, path]
        return run_static(paddle, build, {"p": potentials, "t": transition, "n": np.array([4, 2], dtype="int64")})
    body()


@pytest.mark.parametrize("case, error", [
    ("lengths int32", ValueError), ("transition float64", ValueError), ("potentials 2-D", ValueError),
    ("tags differ", ValueError), ("batch differs", ValueError), ("too long", IndexError)])
def test_viterbi_decode_errors(case, error):
    potentials, transition = _viterbi_inputs()
    lengths = np.array([3, 1, 2], dtype="int64")
    if case == "lengths int32":
        lengths = lengths.astype("int32")
    elif case == "transition float64":
        transition = transition.astype("float64")
    elif case == "potentials 2-D":
        potentials = potentials[0]
    elif case == "tags differ":
        transition = transition[:3, :3]
    elif case == "batch differs":
        lengths = lengths[:2]
    else:
        lengths[0] = 6

    @differential(expected=raises(error))
    def body(paddle):
        paddle.text.viterbi_decode(paddle.to_tensor(potentials), paddle.to_tensor(transition),
                                   paddle.to_tensor(lengths))
    body()


@differential(expected=raises(TypeError))
def test_viterbi_decode_static_dtype_check(paddle):
    paddle.enable_static()
    with paddle.static.program_guard(paddle.static.Program()):
        paddle.text.viterbi_decode(paddle.static.data("p", [2, 4, 5], "float32"),
                                   paddle.static.data("t", [5, 5], "float32"), paddle.static.data("n", [2], "int32"))


def test_all_zero_lengths_raise():
    """Paddle's kernel crashes the process; paddlelite raises."""
    import paddlelite as paddle
    potentials, transition = _viterbi_inputs()
    with pytest.raises(ValueError, match="at least 1"):
        paddle.text.viterbi_decode(paddle.to_tensor(potentials), paddle.to_tensor(transition),
                                   paddle.to_tensor(np.zeros(3, dtype="int64")))


# ---- datasets ------------------------------------------------------------------------------------------------
def _tar(path, members, mode="w:gz"):
    with tarfile.open(path, mode) as tar:
        for name, blob in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(blob)
            tar.addfile(info, io.BytesIO(blob))
    return str(path)


def _items(dataset, count=None):
    n = len(dataset)
    return [[np.asarray(x) for x in dataset[i]] for i in range(n if count is None else min(count, n))] + [n]


def test_uci_housing(tmp_path):
    rng = np.random.default_rng(1)
    path = tmp_path / "housing.data"
    np.savetxt(path, rng.uniform(0, 100, (10, 14)), fmt="%.4f")

    @differential()
    def body(paddle):
        return [_items(paddle.text.UCIHousing(str(path), mode)) for mode in ("train", "test")]
    body()


_REVIEWS = {"train/pos/0_9.txt": b"A great, great movie!\n", "train/pos/1_8.txt": b"great fun; the best.\n",
            "train/neg/2_1.txt": b"The worst movie. Boring!!\n", "test/pos/3_9.txt": b"Great movie, the best\n",
            "test/neg/4_2.txt": b"boring and the worst\r\n"}


def test_imdb(tmp_path):
    path = _tar(tmp_path / "aclImdb_v1.tar.gz", {f"aclImdb/{k}": v for k, v in _REVIEWS.items()})

    @differential()
    def body(paddle):
        out = []
        for mode in ("train", "test"):
            data = paddle.text.Imdb(path, mode, cutoff=1)
            out.append(_items(data) + [sorted((k.decode() if isinstance(k, bytes) else k, v)
                                              for k, v in data.word_idx.items())])
        return out
    body()


def _ptb(tmp_path):
    lines = {"train": b" the cat sat on the mat \n the dog sat \n a <unk> cat \n",
             # no word as frequent as '<s>' (Paddle cannot sort its bytes words with its str marks)
             "valid": b" the cat ran \n a <unk> \n", "test": b" the mat sat on a dog \n the cat \n"}
    return _tar(tmp_path / "simple-examples.tgz", {f"./simple-examples/data/ptb.{k}.txt": v for k, v in lines.items()})


@pytest.mark.parametrize("data_type, window", [("NGRAM", 3), ("SEQ", -1), ("SEQ", 4)])
def test_imikolov(tmp_path, data_type, window):
    path = _ptb(tmp_path)

    @differential()
    def body(paddle):
        out = []
        for mode in ("train", "test"):
            data = paddle.text.Imikolov(path, data_type, window, mode, min_word_freq=1)
            out.append(_items(data) + [sorted((repr(k), v) for k, v in data.word_idx.items())])
        return out
    body()


def test_movielens(tmp_path):
    path = str(tmp_path / "ml-1m.zip")
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("ml-1m/movies.dat", "1::Toy Story (1995)::Animation|Comedy\n2::Heat (1995)::Action|Crime\n"
                                       "3::The Toy Heat (2001)::Comedy\n")
        z.writestr("ml-1m/users.dat", "1::F::1::10::48067\n2::M::56::16::70072\n")
        z.writestr("ml-1m/ratings.dat", "".join(f"{1 + i % 2}::{1 + i % 3}::{1 + i % 5}::97830{i}\n"
                                                for i in range(12)))

    @differential()
    def body(paddle):
        out = []
        for mode in ("train", "test"):
            data = paddle.text.Movielens(path, mode, test_ratio=0.3, rand_seed=3)
            out.append(_items(data) + [sorted(data.movie_title_dict.items()), sorted(data.categories_dict.items()),
                                       str(data.movie_info[3]), str(data.user_info[2])])
        return out
    body()


def test_conll05st(tmp_path):
    words = b"The\ncat\nsat\ndown\n\nDogs\nbark\n\n"
    props = (b"-\t*\t(A0*\n-\t(A0*\t*)\nsat\t*)\t(V*)\ndown\t(V*)\t(AM*)\n\n"
             b"-\t(A0*)\nbark\t(V*)\n\n").replace(b"\t", b" ")
    data_file = _tar(tmp_path / "conll05st-tests.tar.gz",
                     {"conll05st-release/test.wsj/words/test.wsj.words.gz": gzip.compress(words),
                      "conll05st-release/test.wsj/props/test.wsj.props.gz": gzip.compress(props)})
    files = {}
    for name, text in (("word", "<unk>\nThe\ncat\nsat\ndown\nbos\neos\n"), ("verb", "sat\ndown\nbark\n"),
                       ("target", "B-A0\nI-A0\nB-V\nI-V\nB-AM\nI-AM\nO\n"), ("emb", "0 0\n")):
        files[name] = tmp_path / f"{name}.txt"
        files[name].write_text(text)

    @differential()
    def body(paddle):
        data = paddle.text.Conll05st(data_file, str(files["word"]), str(files["verb"]), str(files["target"]),
                                     str(files["emb"]))
        word_dict, verb_dict, label_dict = data.get_dict()
        return _items(data) + [sorted(word_dict.items()), sorted(verb_dict.items()), sorted(label_dict.items()),
                               data.get_embedding() == str(files["emb"])]
    body()


def test_wmt14(tmp_path):
    path = _tar(tmp_path / "wmt14.tgz", {
        "wmt14/src.dict": b"<s>\n<e>\n<unk>\nthe\ncat\nsat\n", "wmt14/trg.dict": b"<s>\n<e>\n<unk>\nle\nchat\n",
        "wmt14/train/train": b"the cat sat\tle chat\nthe dog\tle chien\nbad line\n",
        "wmt14/test/test": b"the cat\tle chat assis\n", "wmt14/gen/gen": b"cat\tchat\n"})

    @differential()
    def body(paddle):
        out = []
        for mode in ("train", "test", "gen"):
            data = paddle.text.WMT14(path, mode, dict_size=5)
            out.append(_items(data) + [sorted(data.get_dict()[0].items()), sorted(data.get_dict()[1].items())])
        return out
    body()


def test_wmt16(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))  # Paddle caches its dictionaries under ~/.cache/paddle/dataset
    path = _tar(tmp_path / "wmt16.tar.gz", {
        "wmt16/train": b"a cat sat\teine katze sass\nthe cat\tdie katze\nthe the dog\tder hund\n",
        "wmt16/test": b"the cat\tdie katze\n", "wmt16/val": b"a dog\tein hund\n"})

    @differential()
    def body(paddle):
        import paddle as real
        if paddle is real:
            real.dataset.common.DATA_HOME = str(tmp_path)
            (tmp_path / "wmt16").mkdir(exist_ok=True)
        out = []
        for mode, lang in (("train", "en"), ("test", "en"), ("val", "de")):
            data = paddle.text.WMT16(path, mode, src_dict_size=6, trg_dict_size=5, lang=lang)
            out.append(_items(data) + [sorted(data.src_dict.items()), sorted(data.trg_dict.items())])
        return out
    body()


@pytest.mark.parametrize("cls, args", [("UCIHousing", ()), ("Imdb", ()), ("WMT14", ()), ("Movielens", ())])
def test_missing_files(cls, args):
    import paddlelite as paddle
    with pytest.raises(ValueError, match=f"paddle.text.datasets.{cls}.*does not download"):
        getattr(paddle.text, cls)(*args)
    with pytest.raises(ValueError, match="does not exist"):
        getattr(paddle.text, cls)("/nonexistent/file")
