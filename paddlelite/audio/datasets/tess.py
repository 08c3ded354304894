"""TESS: the Toronto emotional speech set, 2800 recordings in 7 emotions (its zip, unpacked)."""
import collections
import os

from ...io.dataset_files import data_home, unpacked_dir
from .dataset import AudioClassificationDataset


class TESS(AudioClassificationDataset):
    """The .wav files (in os.walk order, as Paddle) dealt into n_folds folds by position; mode 'train': the folds
    other than `split`, any other mode: fold `split`. The emotion is the last '_' part of a file's name. Read from
    ~/.cache/paddle/dataset/TESS_Toronto_emotional_speech_set (paddlelite never downloads)."""

    archive = {"url": "https://bj.bcebos.com/paddleaudio/datasets/TESS_Toronto_emotional_speech_set.zip",
               "md5": "1465311b24d1de704c4c63e4ccc470c7"}
    label_list = ["angry", "disgust", "fear", "happy", "neutral", "ps", "sad"]  # ps: pleasant surprise
    audio_path = "TESS_Toronto_emotional_speech_set"
    meta_info = collections.namedtuple("meta_info", ("speaker", "word", "emotion"))

    def __init__(self, mode="train", n_folds=5, split=1, feat_type="raw", archive=None, **kwargs):
        assert isinstance(n_folds, int) and n_folds >= 1, \
            f"the n_folds should be integer and n_folds >= 1, but got {n_folds}"
        assert split in range(1, n_folds + 1), \
            f"The selected split should be integer and should be 1 <= split <= {n_folds}, but got {split}"
        if archive is not None:
            self.archive = archive
        files, labels = self._get_data(mode, n_folds, split)
        super().__init__(files=files, labels=labels, feat_type=feat_type, **kwargs)

    def _get_meta_info(self, files):
        return [self.meta_info(*os.path.basename(f)[:-4].split("_")) for f in files]

    def _get_data(self, mode, n_folds, split):
        root = unpacked_dir(os.path.join(data_home(), self.audio_path), self.archive["url"],
                            "paddle.audio.datasets.TESS")
        wav_files = [os.path.join(d, f) for d, _, names in os.walk(root) for f in names if f.endswith(".wav")]
        files, labels = [], []
        for idx, sample in enumerate(self._get_meta_info(wav_files)):
            if (idx % n_folds + 1 != split) == (mode == "train"):
                files.append(wav_files[idx])
                labels.append(self.label_list.index(sample.emotion))
        return files, labels
