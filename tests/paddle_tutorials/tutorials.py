"""Paddle's official tutorials (the notebooks of docs/practices in the repository PaddlePaddle/docs) as scripts.

A tutorial is read from the copy of its notebook in vendored/ (outputs removed; tests/paddle_suite/vendor.py) or a
checkout of that repository ($PADDLELITE_PADDLE_DOCS),
its code cells joined in order into one script, which runs as it is with two kinds of substitution only:

* data: the download becomes small synthetic files in the dataset's own format (harness.py), and `text` below
  replaces a line that fetches or opens a download;
* step counts: the synthetic datasets' sizes (`sizes`), and `text` replacements of epoch counts.

Notebook-only lines (shell escapes `!cmd`, magics `%cmd`) and cells that are not Python (listings shown in a code
cell: those that do not compile, and those named in `listings`) are dropped. Each run records the
loss of every backward step (harness.py) and is compared with the losses real Paddle recorded from the same start
(<name>.losses.json beside this file).
"""
import dataclasses
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DOCS_VAR = "PADDLELITE_PADDLE_DOCS"
DOCS_REPO = "PaddlePaddle/docs"
DOCS_COMMIT = "46ceb37d5"  # the checkout the losses were recorded with (the notebooks change rarely)
TIMEOUT_S = 300


@dataclasses.dataclass(frozen=True)
class Tutorial:
    notebook: str  # path in the docs repository
    sizes: dict  # synthetic dataset sizes: the step counts
    text: tuple = ()  # (old, new) replacements in the joined code: data paths and epoch counts only
    files: tuple = ()  # (file name, harness writer, size): the downloaded files, written before the run
    known_bug: str = ""  # why paddlelite cannot run it yet (the test expects the failure until it is fixed)
    listings: tuple = ()  # indices of code cells that show a listing (file names, a log), not code: dropped
    paddle_error: str = ""  # where Paddle 3.3.1 itself stops (text of its error): its losses up to there count (a
    #                         paddlelite run may stop with the same error)
    modules: tuple = ()  # what the notebook imports besides the framework, NumPy and matplotlib (skipped without)


TUTORIALS = {
    # LeNet on MNIST: paddle.Model fit/evaluate, then a hand-written loop (2 + 2 epochs of 4 steps)
    "lenet_mnist": Tutorial("docs/practices/cv/image_classification.ipynb",
                            {"mnist_train": 200, "mnist_test": 100}),
    # a CNN on CIFAR-10 with a hand-written loop and validation after each epoch
    "cifar10_cnn": Tutorial("docs/practices/cv/convnet_image_classification.ipynb", {"cifar10": 64},
                            text=(("epoch_num = 10", "epoch_num = 2"),)),
    # a trigram language model on a text corpus: paddle.Model with a custom callback, then a hand-written loop
    "ngram_lm": Tutorial("docs/practices/nlp/n_gram_model.ipynb", {}, files=(("t8.shakespeare.txt", "write_text", 1100),)),
    # seq2seq with attention (LSTM encoder, attention decoder stepped by hand), English to Chinese
    "seq2seq_attention": Tutorial("docs/practices/nlp/seq2seq_with_attention.ipynb", {},
                                  text=(("epochs = 20", "epochs = 2"),), files=(("cmn.txt", "write_pairs", 64),)),
    # image search: a CNN trained on anchor/positive pairs, then again under @paddle.jit.to_static, paddle.summary,
    # paddle.jit.save and paddle.jit.load; the arrays sized for CIFAR's 50000/10000 images sized for the synthetic ones
    "image_search_jit": Tutorial("docs/practices/jit/image_search_with_jit.ipynb", {"cifar10": 100},
                                 text=(("50000", "100"), ("10000", "100"), ("num_batchs=1000", "num_batchs=2"),
                                       ("epoch_num = 20", "epoch_num = 2"))),
    # saving and loading: paddle.Model fit with save_dir, Model.save/load, training resumed from a checkpoint
    "save_load_model": Tutorial("docs/practices/quick_start/save_model.ipynb", {"mnist_train": 200, "mnist_test": 100}),
    # bag of words on IMDB reviews (paddle.text.datasets.Imdb): paddle.Model fit, then a hand-written loop
    "imdb_bow": Tutorial("docs/practices/nlp/imdb_bow_classification.ipynb", {"imdb": 32}),
    # the saving and loading guide: state dicts and checkpoints, paddle.Model.save/load, static programs'
    # state_dict and save/load, save_inference_model/load_inference_model
    "save_load_guide": Tutorial("docs/guides/beginner/model_save_load_cn.ipynb", {"mnist_train": 200},
                                listings=(6,),  # the files model.save writes, listed
                                # Paddle 3.3.1's PIR Program.set_state_dict refuses the guide's arguments (its
                                # legacy IR stops earlier, at static.nn.fc); the training comes before
                                paddle_error="set_state_dict(): incompatible function arguments"),
    # the high-level API tour: MNIST datasets and transforms, Sequential and subclassed models, paddle.Model fit
    "high_level_api": Tutorial("docs/practices/quick_start/high_level_api.ipynb",
                               {"mnist_train": 200, "mnist_test": 100}),
    # a vision transformer on CIFAR-100 with random augmentations, a warmed-up cosine schedule, label smoothing and
    # tqdm progress bars; then saved, loaded and evaluated (2 epochs of one step)
    "vit_cifar100": Tutorial("docs/practices/cv/image_classification_ViT.ipynb", {"cifar100": 64},
                             text=(("EPOCHS = 200", "EPOCHS = 2"),), modules=("tqdm",)),
    # DCGAN on faces: JPEGs resized and cropped by threads, a static-mode DataLoader with feed_list used in dygraph,
    # BCELoss on a sigmoid that saturates, two Adam optimizers (2 epochs of one batch of 128)
    "dcgan_face": Tutorial("docs/practices/gan/dcgan_face/dcgan_face.ipynb", {},
                           files=(("work/img_align_celeba/", "write_faces", 128),),
                           text=(('paddle.set_device("gpu")', 'paddle.set_device("cpu")'), ("epoch = 5", "epoch = 2"),
                                 # written for Paddle 2.x, whose DataLoader wrapped a batch of one field in a list
                                 # (a dict per place in static mode) and whose losses had shape [1]: ported to
                                 # what Paddle 3.3.1 returns, where the notebook stops at its first cell otherwise;
                                 # and Paddle 3.3.1 cannot iterate in dygraph a loader given a PIR feed_list
                                 ("    feed_list=[img],\n", ""),
                                 ('np.array(data[0]["img"][i])[0]', "np.array(data)[i]"),
                                 ("real_cpu = data[0]", "real_cpu = data"), (".numpy()[0]", ".item()")),
                           # the last cell builds a second Generator with the same ParamAttr names
                           paddle_error="have be been used",
                           modules=("cv2", "skimage", "IPython")),
    # a transformer translating English to Spanish (PaddleNLP's Vocab and BLEU imported, BLEU scored): the pairs
    # unpacked by paddle.utils.download from the zip already in ./data, paddle.Model fit with a Noam schedule, a
    # VisualDL callback and checkpoints, then predict_batch (2 epochs of 8 steps of 64 pairs)
    "transformer_translation": Tutorial("docs/practices/nlp/transformer_in_English-to-Spanish.ipynb", {},
                                        text=(("epochs = 100", "epochs = 2"),
                                              # written for Paddle 2.x, whose to_tensor of a number had shape [1]:
                                              # Paddle 3.3.1's is 0-D, which concat refuses (the notebook stops at
                                              # its model summary otherwise)
                                              ('paddle.to_tensor(64, dtype="int32")',
                                               'paddle.to_tensor([64], dtype="int32")')),
                                        files=(("data/spa-eng.zip", "write_spa_eng", 700),), modules=("paddlenlp",)),
    # the beginners' quick start: LeNet on MNIST with paddle.Model, save and load
    "quick_start": Tutorial("docs/guides/beginner/quick_start_cn.ipynb", {"mnist_train": 200, "mnist_test": 100}),
}


def docs():
    """Where the notebooks are read from: the checkout $PADDLELITE_PADDLE_DOCS names, else the copy in this
    repository (tests/paddle_suite/vendor.py); None when neither holds them."""
    for root in (os.environ.get(DOCS_VAR), os.path.join(HERE, "vendored")):
        if root and os.path.isdir(os.path.join(root, "docs", "practices")):
            return root
    return None


def script(name):
    """The tutorial's code cells as one script, after the harness's install call."""
    tutorial = TUTORIALS[name]
    with open(os.path.join(docs(), tutorial.notebook), encoding="utf-8") as f:
        cells = [c for c in json.load(f)["cells"] if c["cell_type"] == "code"]
    lines = []
    for index, cell in enumerate(cells):
        if index in tutorial.listings:
            continue
        source = "\n".join(line for line in "".join(cell["source"]).splitlines()
                           if not line.lstrip().startswith(("!", "%")))
        try:
            compile(source, tutorial.notebook, "exec")
        except SyntaxError:  # a listing shown in a code cell (a directory tree, a log): not Python
            continue
        lines.extend([source, ""])
    code = "\n".join(lines)
    for old, new in tutorial.text:
        if old not in code:
            raise ValueError(f"{name}: {old!r} is not in {tutorial.notebook} any more")
        code = code.replace(old, new)
    prelude = (f"import sys\nsys.path.insert(0, {HERE!r})\nimport harness\n"
               f"harness.install({tutorial.sizes!r})\n")
    corpora = "".join(f"harness.{writer}({file!r}, {size})\n" for file, writer, size in tutorial.files)
    return prelude + corpora + "\n" + code


def run(name, framework):
    """The losses of one run of the tutorial: under paddlelite (`python -m paddlelite`) or real Paddle."""
    with tempfile.TemporaryDirectory(prefix=f"tutorial_{name}_") as scratch:
        path = os.path.join(scratch, f"{name}.py")
        with open(path, "w") as f:
            f.write(script(name))
        out = os.path.join(scratch, "losses.json")
        env = dict(os.environ, PADDLE_TUTORIAL_LOSSES=out, MPLBACKEND="Agg", PADDLELITE_AS_PADDLE="0",
                   PYTHONPATH=os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
        env.pop("PADDLELITE_DEVICE", None)
        if framework != "paddlelite":  # the tutorials are written for Paddle's defaults (PIR: to_static needs it)
            env.pop("FLAGS_enable_pir_api", None)
        prefix = [sys.executable, "-m", "paddlelite"] if framework == "paddlelite" else [sys.executable]
        proc = subprocess.run([*prefix, path], cwd=scratch, env=env, capture_output=True, text=True,
                              timeout=TIMEOUT_S)
        stopped_as_paddle = TUTORIALS[name].paddle_error and TUTORIALS[name].paddle_error in proc.stderr
        if proc.returncode != 0 and not stopped_as_paddle:
            raise RuntimeError(f"{name} under {framework} exited {proc.returncode}:\n{proc.stderr[-3000:]}")
        with open(out) as f:
            return json.load(f)


def recorded_path(name):
    return os.path.join(HERE, f"{name}.losses.json")


def load_recorded(name):
    with open(recorded_path(name)) as f:
        return json.load(f)["losses"]


def record(names):
    for name in names:
        losses = run(name, "paddle")
        with open(recorded_path(name), "w") as f:
            json.dump({"recorded_with": "paddlepaddle 3.3.1 (CPU)", "docs_commit": DOCS_COMMIT,
                       "losses": losses}, f, indent=1)
            f.write("\n")
        print(f"{name}: {len(losses)} losses recorded")


if __name__ == "__main__":  # python -m tests.paddle_tutorials.tutorials --record [NAME ...]
    args = [a for a in sys.argv[1:] if a != "--record"]
    if "--record" in sys.argv:
        record(args or list(TUTORIALS))
    else:
        for tutorial in args or list(TUTORIALS):
            print(tutorial, run(tutorial, "paddlelite"))
